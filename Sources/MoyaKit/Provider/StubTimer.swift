import Dispatch
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Answers a delayed stub after its delay, or at once with a cancellation when cancelled first.
final class StubTimer: Cancellable {
    private enum State { case pending, fired, cancelled }
    private let state = Mutex(State.pending)
    private let onCancel: @Sendable () -> Void

    /// Schedules `fire` after `delay` seconds on a global queue.
    convenience init(
        delay: TimeInterval, fire: @escaping @Sendable () -> Void, onCancel: @escaping @Sendable () -> Void
    ) {
        self.init(onCancel: onCancel)
        start(delay: delay, fire: fire)
    }

    /// A timer not yet scheduled (`start`): one that can be handed to what cancels it first.
    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Schedules `fire` after `delay` seconds on a global queue, unless cancelled by then.
    func start(delay: TimeInterval, fire: @escaping @Sendable () -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, delay)) { [self] in
            if claim(.fired) { fire() }
        }
    }

    var isCancelled: Bool { state.withLock { $0 == .cancelled } }

    func cancel() {
        if claim(.cancelled) { onCancel() }
    }

    /// Moves from pending to `final`; only the first claim wins.
    private func claim(_ final: State) -> Bool {
        state.withLock { state in
            guard state == .pending else { return false }
            state = final
            return true
        }
    }
}

/// A `Cancellable` for work that already ended.
struct FinishedCancellable: Cancellable {
    var isCancelled: Bool { false }
    func cancel() {}
}
