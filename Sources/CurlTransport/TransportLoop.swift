import CCurl
import FileIO
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Drives every transfer of the process through one libcurl multi handle.
///
/// Transfers run side by side and share the multi handle's connection cache, DNS cache and
/// HTTP/2 connections. One thread at a time drives the handle (the *driver*); other threads never
/// touch libcurl: they queue a command and wake the driver with `curl_multi_wakeup`, the one multi
/// call that is safe from any thread.
///
/// The driver is either a thread of the loop's own, started when a transfer is queued and nobody
/// drives, which ends after a second with nothing to do; or a thread that waits for its own request
/// anyway (`RequestLatch`): that thread then runs the transfers itself while it waits, which spares
/// a request two hand-overs between threads (about 1 ms of a 15 ms command on loopback). When it
/// stops waiting with transfers still running, the loop's own thread takes over.
final class TransportLoop: @unchecked Sendable {
    private enum Command {
        case start(Transfer)
        case cancel(Transfer)
    }

    /// Who runs the multi handle.
    private enum Driver {
        /// Nobody: nothing is queued or running.
        case idle
        /// A thread with a `RequestLatch` will drive when it waits; it has started nothing yet.
        case reserved(pthread_t)
        /// That thread has started a transfer and drives (or is about to, in `RequestLatch.wait`).
        case borrowed(pthread_t)
        /// The loop's own thread, until it has been idle for a second.
        case dedicated
    }

    private struct Control {
        var commands: [Command] = []
        var driver = Driver.idle
        /// The thread inside `drive` or `run` right now, if any.
        var drivingThread: pthread_t?
        /// Whether the driver sleeps (or is about to) in libcurl's poll with no wakeup sent
        /// since: the one case where a queued command needs `curl_multi_wakeup`. Otherwise the
        /// driver runs the queue before it next sleeps, and a wakeup would only cost a write to
        /// libcurl's socket pair and a poll that returns at once (a sweep sent one per request).
        var isSleeping = false

        /// Whether the command just queued needs a wakeup; the first one since the driver fell
        /// asleep does, the others ride on it.
        mutating func wake() -> Bool {
            defer { isSleeping = false }
            return isSleeping
        }
    }

    /// Connections kept open to one host at a time; further transfers wait for a free one, which
    /// is what lets many parallel requests reuse a few kept-alive connections.
    static let maximumConnectionsPerHost = 16
    /// Connections open at a time, all hosts together.
    static let maximumConnections = 64

    /// The process's loop, created on first use (which loads libcurl).
    static let shared: Result<TransportLoop, TransportError> = Libcurl.shared.flatMap { curl in
        Result { () throws(TransportError) in try TransportLoop(curl: curl) }
    }

    /// The command queue and the driver, for the process's one loop. Static, so a latch can reserve
    /// the driving before the loop (and libcurl) exists.
    private static let control = Mutex(Control())

    let curl: Libcurl
    /// Easy handles of finished transfers, for the next ones.
    let handles = EasyHandlePool()
    // The multi handle, used only by the driver (curl_multi_wakeup excepted).
    private let multi: UnsafeMutableRawPointer
    /// Transfers in the multi handle, by easy handle; driver only.
    private var running: [UnsafeMutableRawPointer: Transfer] = [:]
    /// Whether the driver is inside `curl_multi_perform`, where transfer callbacks run; driver only.
    private var isInsideLibcurl = false

    private init(curl: Libcurl) throws(TransportError) {
        guard let multi = ccurl_multi_init(curl.api) else {
            throw TransportError(kind: .other, message: "libcurl could not create its multi handle")
        }
        self.curl = curl
        self.multi = multi
        ccurl_multi_setopt_long(curl.api, multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        ccurl_multi_setopt_long(curl.api, multi, CURLMOPT_MAX_HOST_CONNECTIONS, Self.maximumConnectionsPerHost)
        ccurl_multi_setopt_long(curl.api, multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, Self.maximumConnections)
        // The idle connections kept for reuse. libcurl's default follows the number of transfers
        // in the handle at the moment one ends; a sweep (`check --live --jobs 16`) hands each
        // finished transfer's slot to the next only after its completion has run, so in between
        // that number dips and kept-alive connections were closed: 10,000 checks opened some 350
        // connections where `curl --parallel` opens 16. Now every connection that may be open is
        // kept.
        ccurl_multi_setopt_long(curl.api, multi, CURLMOPT_MAXCONNECTS, Self.maximumConnections)
    }

    /// Queues `transfer` to start. Throws only when there is no driver and no thread can be started.
    func start(_ transfer: Transfer) throws(TransportError) {
        let mustWake = try Self.control.withLock { control throws(TransportError) -> Bool in
            switch control.driver {
            case .idle:
                try startThread()
                control.driver = .dedicated
            case .reserved(let thread) where Self.isCalling(thread):
                control.driver = .borrowed(thread)
            case .reserved, .borrowed, .dedicated:
                // Another thread's latch: it drives this transfer too once it waits, and hands
                // whatever is left to the loop's own thread when it stops.
                break
            }
            control.commands.append(.start(transfer))
            return control.wake()
        }
        if mustWake { ccurl_multi_wakeup(curl.api, multi) }
    }

    /// Queues `transfer` to stop; its completion then reports `.cancelled`.
    func cancel(_ transfer: Transfer) {
        let queued = Self.control.withLock { control in
            // With nobody driving, nothing runs: the transfer has ended (or will see
            // `isCancelled` when it starts).
            if case .idle = control.driver { return false }
            control.commands.append(.cancel(transfer))
            return control.wake()
        }
        if queued { ccurl_multi_wakeup(curl.api, multi) }
    }

    // MARK: - Borrowed drivers (RequestLatch)

    /// Reserves the driving for the calling thread if nobody drives.
    static func reserve() {
        control.withLock { control in
            if case .idle = control.driver { control.driver = .reserved(pthread_self()) }
        }
    }

    /// For a latch about to wait: whether the calling thread holds the driving and has something
    /// to drive (its own transfer, or others' queued meanwhile). Holding it with nothing to drive
    /// (a stub, a request that failed at once), it gives the driving up, so others' requests get
    /// a driver.
    static func claimDriving() -> Bool {
        control.withLock { control in
            switch control.driver {
            case .borrowed(let thread):
                return isCalling(thread)
            case .reserved(let thread) where isCalling(thread):
                guard control.commands.isEmpty else { return true }
                control.driver = .idle
                return false
            case .reserved, .idle, .dedicated:
                return false
            }
        }
    }

    private static func isCalling(_ thread: pthread_t) -> Bool {
        pthread_equal(thread, pthread_self()) != 0
    }

    /// Runs the loop on the calling thread, which holds the driving (`claimDriving()`), until
    /// `isDone()` is true; polls `watched` as well and reports what became readable. Afterwards
    /// the loop's own thread takes over whatever is still running.
    func drive(watching watched: [Int32], until isDone: () -> Bool, onReadable: (Int32) -> Void) {
        // A peer closing a TLS connection can raise SIGPIPE inside a write. Blocked while this
        // thread drives, the write fails with EPIPE instead of killing the process.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previousMask)
        defer {
            // Discard a SIGPIPE raised meanwhile (unless the caller blocked it itself, and so may
            // want it), then restore the caller's mask.
            if sigismember(&previousMask, SIGPIPE) == 0 {
                var none = timespec()
                while true {
                    let caught = sigtimedwait(&pipeSignal, nil, &none)
                    guard caught == SIGPIPE || (caught < 0 && errno == EINTR) else { break }
                }
            }
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        }
        Self.control.withLock { $0.drivingThread = pthread_self() }

        // Without a thread to take over, this one drives on until nothing is left.
        var mustFinishAlone = false
        while true {
            turn(watching: watched, until: mustFinishAlone ? { false } : isDone, onReadable: onReadable)
            guard isDone() else { continue }
            if handOver() { break }
            mustFinishAlone = true
        }
    }

    /// Whether the calling thread is driving the loop now: a completion it runs that waits for
    /// another request (`RequestLatch`) must drive that one too, nested, or nobody would.
    static var isDrivenByCallingThread: Bool {
        control.withLock { control in
            control.drivingThread.map(isCalling) ?? false
        }
    }

    /// A drive inside a drive, on the thread that drives already (`isDrivenByCallingThread`):
    /// runs turns until `isDone()`, then returns to the outer drive, which keeps the driving.
    func driveNested(watching watched: [Int32], until isDone: () -> Bool, onReadable: (Int32) -> Void) {
        // libcurl refuses to be re-entered from its own callbacks (CURLM_RECURSIVE_API_CALL), and
        // nothing else could run the transfer this thread would wait for.
        precondition(
            !isInsideLibcurl,
            "RequestLatch.wait was called from a progress or data callback of a transfer; "
                + "wait from a completion, or on another thread")
        while !isDone() {
            turn(watching: watched, until: isDone, onReadable: onReadable)
        }
    }

    /// Ends a borrowed drive: the loop's own thread takes over what is queued or running. Returns
    /// `false` (keep driving) only when that thread cannot be started.
    private func handOver() -> Bool {
        Self.control.withLock { control in
            if control.commands.isEmpty && running.isEmpty {
                control.driver = .idle
                control.drivingThread = nil
                return true
            }
            guard (try? startThread()) != nil else { return false }
            control.driver = .dedicated
            control.drivingThread = nil
            return true
        }
    }

    // MARK: - Driving

    /// One turn of a borrowed drive: a step, polling `watched` too, then `onReadable` for each of
    /// them that became readable.
    private func turn(watching watched: [Int32], until isDone: () -> Bool, onReadable: (Int32) -> Void) {
        var fds = watched.map { curl_waitfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        step(pollingFor: 1000, also: &fds, unless: isDone)
        for fd in fds where fd.revents != 0 {
            onReadable(fd.fd)
        }
    }

    /// One step: start and cancel what is queued, let libcurl work, finish what is done; then,
    /// unless `isDone()`, sleep until a socket or one of `fds` is ready, libcurl's next timeout,
    /// a wakeup, or `timeout` ms.
    private func step(pollingFor timeout: Int32, also fds: inout [curl_waitfd], unless isDone: () -> Bool = { false }) {
        runQueuedCommands()
        var stillRunning: Int32 = 0
        isInsideLibcurl = true
        ccurl_multi_perform(curl.api, multi, &stillRunning)
        isInsideLibcurl = false
        collectFinishedTransfers()
        guard !isDone() else { return }
        // Commands queued since the queue was run are run at once; any queued later wake the poll.
        let maySleep = Self.control.withLock { control in
            control.isSleeping = control.commands.isEmpty
            return control.isSleeping
        }
        guard maySleep else { return }
        let count = UInt32(fds.count)
        fds.withUnsafeMutableBufferPointer { buffer in
            _ = ccurl_multi_poll_fds(curl.api, multi, buffer.baseAddress, count, timeout)
        }
        Self.control.withLock { $0.isSleeping = false }
    }

    /// Starts the loop's own thread. Called with `control` locked.
    private func startThread() throws(TransportError) {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                let loop = Unmanaged<TransportLoop>.fromOpaque(context)
                loop.takeUnretainedValue().run()
                loop.release()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<TransportLoop>.fromOpaque(context).release()
            throw TransportError(
                kind: .other, message: "cannot start the transport thread: \(OutputFile.describe(status))")
        }
        pthread_detach(thread)
    }

    /// The loop's own thread: drives until a turn (which sleeps up to a second) leaves nothing
    /// queued or running, then ends; the next transfer queued starts a new one.
    private func run() {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        Self.control.withLock { $0.drivingThread = pthread_self() }
        var none: [curl_waitfd] = []
        var isIdle = false
        while !isIdle {
            step(pollingFor: 1000, also: &none)
            isIdle = Self.control.withLock { control in
                guard control.commands.isEmpty && running.isEmpty else { return false }
                control.driver = .idle
                control.drivingThread = nil
                return true
            }
        }
    }

    /// Whether nobody drives (nothing is queued or running, and no latch holds the driving).
    static var isIdle: Bool {
        control.withLock { control in
            if case .idle = control.driver { true } else { false }
        }
    }

    private func runQueuedCommands() {
        let queued = Self.control.withLock { control in
            defer { control.commands.removeAll(keepingCapacity: true) }
            return control.commands
        }
        for command in queued {
            switch command {
            case .start(let transfer):
                begin(transfer)
            case .cancel(let transfer):
                guard let handle = transfer.easy, running[handle.rawHandle] != nil else { continue }
                end(transfer, handle: handle, code: CURLE_ABORTED_BY_CALLBACK)
            }
        }
    }

    private func begin(_ transfer: Transfer) {
        guard let handle = transfer.easy else { return }
        if transfer.isCancelled {
            transfer.complete(with: CURLE_ABORTED_BY_CALLBACK)
            return
        }
        let code = ccurl_multi_add_handle(curl.api, multi, handle.rawHandle)
        guard code == CURLM_OK else {
            // Only a misuse of the API gets here; report it rather than lose the request.
            transfer.complete(with: CURLE_FAILED_INIT)
            return
        }
        running[handle.rawHandle] = transfer
    }

    private func collectFinishedTransfers() {
        var code = CURLE_OK
        while let rawHandle = ccurl_multi_next_done(curl.api, multi, &code) {
            guard let transfer = running[rawHandle], let handle = transfer.easy else { continue }
            end(transfer, handle: handle, code: code)
        }
    }

    private func end(_ transfer: Transfer, handle: EasyHandle, code: CURLcode) {
        ccurl_multi_remove_handle(curl.api, multi, handle.rawHandle)
        running[handle.rawHandle] = nil
        if transfer.restartsWithoutSecrets(after: code) {
            begin(transfer)
        } else {
            transfer.complete(with: code)
        }
    }
}
