import Synchronization

/// The `Cancellable` of a request that failed before it started: its completion already ran, so
/// cancelling only records the wish.
final class UnstartedRequest: Cancellable {
    private let cancelled = Mutex(false)

    var isCancelled: Bool { cancelled.withLock { $0 } }

    func cancel() {
        cancelled.withLock { $0 = true }
    }
}
