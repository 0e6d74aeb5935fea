import Synchronization

/// The exchanges in flight, by endpoint, for `trackInflights`.
final class InflightRegistry: Sendable {
    private let exchanges = Mutex<[Endpoint: RequestExchange]>([:])

    /// Joins the exchange in flight for `endpoint`, or registers a new one made by `makeExchange`.
    /// Returns the exchange, the caller's id in it, and whether it is new (and must be started).
    func join(_ endpoint: Endpoint, progress: RequestExchange.ProgressHandler?, deliver: @escaping RequestExchange.Deliver,
              makeExchange: () -> RequestExchange) -> (exchange: RequestExchange, callerID: Int, isNew: Bool) {
        // Lock order is always registry, then exchange: `RequestExchange` calls `remove` with
        // its own lock released.
        exchanges.withLock { exchanges in
            if let existing = exchanges[endpoint], let id = existing.addCaller(progress: progress, deliver: deliver) {
                return (existing, id, false)
            }
            let fresh = makeExchange()
            exchanges[endpoint] = fresh
            return (fresh, 0, true)
        }
    }

    /// Forgets `exchange` if it is still the one registered for `endpoint`.
    func remove(_ exchange: RequestExchange, for endpoint: Endpoint) {
        exchanges.withLock { exchanges in
            if exchanges[endpoint] === exchange { exchanges[endpoint] = nil }
        }
    }

    /// The endpoints in flight and how many callers wait on each.
    var snapshot: [Endpoint: Int] {
        let current = exchanges.withLock { $0 }
        return current.mapValues(\.callerCount)
    }
}
