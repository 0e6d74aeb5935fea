import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C: cancels what is in flight instead of killing the process, so temporary files go.
///
/// The SIGINT handler only writes a byte to a pipe (all a signal handler may safely do); a thread
/// of its own reads it and runs the handler registered with `onInterrupt`. A Dispatch signal source
/// would do the same, but starting libdispatch's manager for it costs a call about 0.5 ms.
final class Interrupt: Sendable {
    private struct State {
        var interrupted = false
        var handler: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)
    nonisolated(unsafe) private static var current: Interrupt?
    /// The pipe's write end, for the signal handler (which can capture nothing).
    nonisolated(unsafe) private static var signalPipe: Int32 = -1

    /// Starts catching Ctrl-C, once per process; later calls return the same value.
    static func install() -> Interrupt {
        if let current { return current }
        let interrupt = Interrupt()
        Self.current = interrupt
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return interrupt }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A flood of Ctrl-C must not block the handler once the pipe is full.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        watchedPipe = ends[0]
        signalPipe = ends[1]
        var thread = pthread_t()
        let context = Unmanaged.passRetained(interrupt).toOpaque()
        let started = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            // Lives as long as the process, as the handler does.
            Unmanaged<Interrupt>.fromOpaque(context).takeUnretainedValue().watch()
            return nil
        }, context)
        guard started == 0 else {
            // Without the thread, Ctrl-C keeps its default: the process ends at once.
            Unmanaged<Interrupt>.fromOpaque(context).release()
            return interrupt
        }
        pthread_detach(thread)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 1
            _ = write(Interrupt.signalPipe, &byte, 1)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGINT, &action, nil)
        return interrupt
    }

    /// The pipe's read end, watched by the thread `install` starts.
    nonisolated(unsafe) private static var watchedPipe: Int32 = -1

    /// The watcher thread: one `fire` per Ctrl-C.
    private func watch() {
        var byte: UInt8 = 0
        while true {
            let count = read(Self.watchedPipe, &byte, 1)
            if count == 1 { fire() } else if count < 0 && errno == EINTR { continue } else { return }
        }
    }

    private func fire() {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            state.interrupted = true
            return state.handler
        }
        handler?()
        wakeUp.signal()
    }

    var wasInterrupted: Bool { state.withLock { $0.interrupted } }

    /// Runs `handler` on Ctrl-C (at once if it already came).
    func onInterrupt(_ handler: @escaping @Sendable () -> Void) {
        let already = state.withLock { state in
            state.handler = handler
            return state.interrupted
        }
        if already { handler() }
    }

    /// Sleeps; returns `true` if Ctrl-C came first.
    func sleep(seconds: Double) -> Bool {
        _ = wakeUp.wait(timeout: .now() + seconds)
        return wasInterrupted
    }
}
