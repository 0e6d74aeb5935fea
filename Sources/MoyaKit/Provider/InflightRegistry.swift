import Synchronization

/// What `trackInflights` coalesces on: the request as it goes out — after the request closure and
/// every plugin's `prepare`, so with the credentials and headers they add — and how its callers take
/// the body. Two callers share an exchange only when method, URL, every header and the body match.
struct InflightKey: Hashable {
    /// The endpoint the request came from, for `inflightRequests`; not part of the identity.
    let endpoint: Endpoint
    let request: URLRequest
    /// How the callers take the body: callers that take it differently cannot share it.
    let bodyHandling: String
    /// The hash of `bodyHandling` and `request`, taken once: the key is hashed when the exchange
    /// joins the registry and again when it leaves, and hashing a request (URL, every header,
    /// the body) cost a live sweep more than reading its response's headers.
    private let requestHash: Int

    init(endpoint: Endpoint, request: URLRequest, bodyHandling: String) {
        self.endpoint = endpoint
        self.request = request
        self.bodyHandling = bodyHandling
        var hasher = Hasher()
        hasher.combine(bodyHandling)
        hasher.combine(request)
        requestHash = hasher.finalize()
    }

    static func == (lhs: InflightKey, rhs: InflightKey) -> Bool {
        lhs.requestHash == rhs.requestHash && lhs.bodyHandling == rhs.bodyHandling && lhs.request == rhs.request
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(requestHash)
    }
}

/// The exchanges in flight, by the request they send, for `trackInflights`.
final class InflightRegistry: Sendable {
    private let exchanges = Mutex<[InflightKey: RequestExchange]>([:])

    /// Joins the exchange in flight for `identity`, or registers a new one made by `makeExchange`.
    /// Returns the exchange, the caller's id in it, and whether it is new (and must be started).
    func join(
        _ identity: InflightKey, progress: RequestExchange.ProgressHandler?, deliver: @escaping RequestExchange.Deliver,
        makeExchange: () -> RequestExchange
    ) -> (exchange: RequestExchange, callerID: Int, isNew: Bool) {
        // Lock order is always registry, then exchange: `RequestExchange` calls `remove` with
        // its own lock released.
        exchanges.withLock { exchanges in
            if let existing = exchanges[identity], let id = existing.addCaller(progress: progress, deliver: deliver) {
                return (existing, id, false)
            }
            let fresh = makeExchange()
            exchanges[identity] = fresh
            return (fresh, 0, true)
        }
    }

    /// Forgets `exchange` if it is still the one registered for `identity`.
    func remove(_ exchange: RequestExchange, for identity: InflightKey) {
        exchanges.withLock { exchanges in
            if exchanges[identity] === exchange { exchanges[identity] = nil }
        }
    }

    /// The endpoints in flight and how many callers wait on each.
    var snapshot: [Endpoint: Int] {
        let current = exchanges.withLock { $0 }
        return Dictionary(current.map { ($0.key.endpoint, $0.value.callerCount) }, uniquingKeysWith: +)
    }
}
