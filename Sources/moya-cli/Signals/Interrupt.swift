import CCleanup
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C, SIGTERM and SIGHUP: cancel what is in flight instead of killing the process, so
/// temporary files go and the command ends with 128 + the signal's number.
///
/// The handler (`moya_signals_install`, in C) writes the signal's number to a pipe, all a signal
/// handler may safely do, while graceful mode is on. Whoever
/// waits reads it and runs the handler registered with `onInterrupt`: a `call` waits on its
/// `RequestLatch` with the pipe among the descriptors it polls (`fileDescriptor`, `pump`), so it
/// needs no thread for Ctrl-C; `check`, whose main thread waits on semaphores, starts a thread that
/// reads the pipe (`watchInBackground`). A second signal, or one that comes before `install`,
/// removes the registered temporary files in the handler itself and ends the process at once.
final class Interrupt: Sendable {
    private struct State {
        var interrupted = false
        var signal: Int32 = SIGINT
        var handler: (@Sendable () -> Void)?
        var watching = false
    }

    private let state = Mutex(State())
    /// The pipe's read end (non-blocking), or -1 when no pipe could be made: Ctrl-C then keeps its
    /// default and ends the process at once.
    let fileDescriptor: Int32

    nonisolated(unsafe) private static var current: Interrupt?

    private init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Starts catching Ctrl-C, once per process; later calls return the same value.
    static func install() -> Interrupt {
        if let current { return current }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            let interrupt = Interrupt(fileDescriptor: -1)
            current = interrupt
            return interrupt
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            // Non-blocking: readers drain it without waiting, and a flood of Ctrl-C cannot block
            // the handler once it is full.
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        let interrupt = Interrupt(fileDescriptor: ends[0])
        current = interrupt
        moya_signals_install(ends[1])
        moya_signals_set_graceful(1)
        return interrupt
    }

    /// Reads what the signal handler wrote; runs the handler once if Ctrl-C came. Call it when
    /// `fileDescriptor` is readable, or any time to catch up.
    func pump() {
        guard fileDescriptor >= 0 else { return }
        var bytes = [UInt8](repeating: 0, count: 64)
        var received: Int32?
        while true {
            let count = read(fileDescriptor, &bytes, bytes.count)
            guard count > 0 else { break }
            received = Int32(bytes[0])
        }
        if let received { fire(signal: received) }
    }

    /// Reads the pipe on a thread of its own from now on, for a process whose main thread
    /// waits on something else.
    func watchInBackground() {
        guard fileDescriptor >= 0 else { return }
        let alreadyWatching = state.withLock { state in
            defer { state.watching = true }
            return state.watching
        }
        guard !alreadyWatching else { return }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                // Lives as long as the process, as the signal handler does.
                Unmanaged<Interrupt>.fromOpaque(context).takeUnretainedValue().watch()
                return nil
            }, context)
        guard started == 0 else {
            // Without the thread, Ctrl-C is still seen by `wasInterrupted`, only later.
            Unmanaged<Interrupt>.fromOpaque(context).release()
            return
        }
        pthread_detach(thread)
    }

    private func watch() {
        var readable = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        while true {
            if poll(&readable, 1, -1) > 0 { pump() }
        }
    }

    private func fire(signal: Int32) {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            if !state.interrupted { state.signal = signal }
            state.interrupted = true
            return state.handler
        }
        handler?()
    }

    var wasInterrupted: Bool {
        pump()
        return state.withLock { $0.interrupted }
    }

    /// The failure to end with when a signal came, else `nil`.
    static var failureIfSignalled: CommandFailure? {
        guard let current, current.wasInterrupted else { return nil }
        return current.failure
    }

    /// The failure to end with after a signal: its exit status (130, 143, 129) and a message.
    var failure: CommandFailure {
        let signal = state.withLock { $0.signal }
        let name =
            switch signal {
            case SIGTERM: "terminated (SIGTERM)"
            case SIGHUP: "hung up (SIGHUP)"
            default: "interrupted"
            }
        return CommandFailure(ExitStatus.forSignal(signal), name)
    }

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
        let start = ContinuousClock.now
        var readable = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        while !wasInterrupted {
            let left = seconds - (ContinuousClock.now - start) / .seconds(1)
            guard left > 0 else { return false }
            // A negative descriptor is ignored by poll(2): then this is a plain sleep.
            _ = poll(&readable, 1, Int32(min(left * 1000, Double(Int32.max)).rounded(.up)))
        }
        return true
    }
}
