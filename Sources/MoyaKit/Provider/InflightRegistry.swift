import Synchronization

/// The exchanges in flight, by the request their endpoint makes, for `trackInflights`.
final class InflightRegistry: Sendable {
    private let exchanges = Mutex<[RequestIdentity: RequestExchange]>([:])

    /// Joins the exchange in flight for `identity`, or registers a new one made by `makeExchange`.
    /// Returns the exchange, the caller's id in it, and whether it is new (and must be started).
    func join(_ identity: RequestIdentity, progress: RequestExchange.ProgressHandler?, deliver: @escaping RequestExchange.Deliver,
              makeExchange: () -> RequestExchange) -> (exchange: RequestExchange, callerID: Int, isNew: Bool) {
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
    func remove(_ exchange: RequestExchange, for identity: RequestIdentity) {
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
