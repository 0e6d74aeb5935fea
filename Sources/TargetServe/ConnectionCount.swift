import Synchronization

/// The connections open at once, across every event loop, bounded by
/// `ServeLimits.maximumConnections`: idle clients by the thousand would otherwise take every file
/// descriptor the process has, and no new client could be accepted.
final class ConnectionCount: Sendable {
    private let open = Atomic<Int>(0)
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts one more connection; `false`, and nothing counted, when it would pass the limit.
    func admit() -> Bool {
        if open.add(1, ordering: .relaxed).newValue <= limit { return true }
        open.subtract(1, ordering: .relaxed)
        return false
    }

    /// A counted connection closed.
    func release() {
        open.subtract(1, ordering: .relaxed)
    }
}
