import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Waits for requests on the thread that sent them, which runs them itself meanwhile.
///
/// A program that blocks until its request completes sends it inside `RequestLatch.wait`, and
/// signals the latch it is handed from the completion:
///
/// ```swift
/// RequestLatch.wait { latch in
///     provider.request(target) { result in
///         outcome = result
///         latch.signal()
///     }
/// }
/// ```
///
/// While the thread waits it drives the transfers it started (and any others sent meanwhile)
/// instead of handing them to the transport's own thread and being woken up again: on loopback,
/// those two hand-overs cost more than the exchange itself. When it stops waiting, whatever is
/// still running goes on on the transport's own thread. Requests sent from other threads, stubs and
/// completions on a callback queue work as usual; the latch then simply waits.
public final class RequestLatch: @unchecked Sendable {
    private let signalled = Mutex(false)
    /// A pipe `signal()` writes to, to wake a thread sleeping in poll(2); -1 when none could be
    /// made, and `wait` then looks at the flag in short turns instead.
    private let wakeUp: Int32
    private let wakeUpWriteEnd: Int32

    private init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        } else {
            ends = [-1, -1]
        }
        wakeUp = ends[0]
        wakeUpWriteEnd = ends[1]
    }

    deinit {
        if wakeUp >= 0 {
            close(wakeUp)
            close(wakeUpWriteEnd)
        }
    }

    /// Opens the latch; callable from any thread, any number of times.
    public func signal() {
        signalled.withLock { $0 = true }
        var byte: UInt8 = 1
        if wakeUpWriteEnd >= 0 { _ = write(wakeUpWriteEnd, &byte, 1) }
    }

    /// Whether `signal()` has been called.
    public var isSignalled: Bool { signalled.withLock { $0 } }

    /// Runs `send`, which sends requests and arranges for `signal()` on the latch it is given, then
    /// blocks until that signal.
    ///
    /// `watching` names file descriptors to poll meanwhile (a signal pipe, say): when one becomes
    /// readable, `onReadable` runs on this thread with it and must consume what is there. It may
    /// cancel the request, whose completion then signals the latch as usual. Each descriptor must
    /// stay open until the wait returns.
    ///
    /// `send` should only send: it runs while this thread holds the driving, so anything in it
    /// that blocks until a request completes (a semaphore, say) never returns. A nested
    /// `RequestLatch.wait` is fine, there or in a completion.
    public static func wait(
        watching watched: [Int32] = [], onReadable: (Int32) -> Void = { _ in },
        sending send: (RequestLatch) -> Void
    ) {
        let latch = RequestLatch()
        // Called from a completion this thread runs as the driver, it drives the new request too,
        // nested; otherwise nobody else gets to drive what `send` starts, unless another thread
        // drives already.
        let isNested = TransportLoop.isDrivenByCallingThread
        if !isNested { TransportLoop.reserve() }
        send(latch)
        latch.wait(watching: watched, nested: isNested, onReadable: onReadable)
    }

    /// The descriptors to poll: the latch's own wake-up pipe, then the caller's.
    private func descriptors(_ watched: [Int32]) -> [Int32] {
        (wakeUp >= 0 ? [wakeUp] : []) + watched
    }

    /// Empties the wake-up pipe, or hands a caller's descriptor to `onReadable`.
    private func report(_ fd: Int32, to onReadable: (Int32) -> Void) {
        if fd == wakeUp {
            var bytes = [UInt8](repeating: 0, count: 64)
            while read(wakeUp, &bytes, bytes.count) > 0 {}
        } else {
            onReadable(fd)
        }
    }

    private func wait(watching watched: [Int32], nested: Bool, onReadable: (Int32) -> Void) {
        if nested || TransportLoop.claimDriving(), let loop = try? TransportLoop.shared.get() {
            let drive = nested ? loop.driveNested : loop.drive
            drive(descriptors(watched), { isSignalled }, { report($0, to: onReadable) })
            return
        }
        // Nothing of this thread's to drive: sleep until signalled.
        var fds = descriptors(watched).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while !isSignalled {
            // Without a wake-up pipe, look at the flag every 10 ms.
            let timeout: Int32 = wakeUp >= 0 ? -1 : 10
            guard poll(&fds, nfds_t(fds.count), timeout) > 0 else { continue }
            for index in fds.indices where fds[index].revents != 0 {
                let revents = Int32(fds[index].revents)
                fds[index].revents = 0
                report(fds[index].fd, to: onReadable)
                // A closed or hung-up descriptor stays "ready" for ever: stop polling it.
                if revents & Int32(POLLHUP | POLLERR | POLLNVAL) != 0 { fds[index].fd = -1 }
            }
        }
    }
}
