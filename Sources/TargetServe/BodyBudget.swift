import Synchronization

/// The bytes of request bodies held at once by every connection together: each connection is
/// bounded (`ServeLimits.maximumBodySize`), but a thousand clients each sending a body just under
/// that bound would hold a thousand bodies. A connection whose body would take the total past
/// `ServeLimits.maximumHeldBodies` is answered 503 (`Retry-After`) and closed.
final class BodyBudget: Sendable {
    private let held = Atomic<Int>(0)
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes `count` more bytes; `false`, and nothing taken, when the total would pass the limit.
    func reserve(_ count: Int) -> Bool {
        if held.add(count, ordering: .relaxed).newValue <= limit { return true }
        held.subtract(count, ordering: .relaxed)
        return false
    }

    /// Gives back `count` bytes taken.
    func release(_ count: Int) {
        guard count > 0 else { return }
        held.subtract(count, ordering: .relaxed)
    }
}
