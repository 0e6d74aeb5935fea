import CCurl
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one thread that drives every transfer of the process through a libcurl multi handle.
///
/// Transfers run side by side and share the multi handle's connection cache, DNS cache and
/// HTTP/2 connections. Other threads never touch libcurl: they queue a command and wake the loop
/// with `curl_multi_wakeup`, the one multi call that is safe from any thread.
final class TransportLoop: @unchecked Sendable {
    private enum Command {
        case start(Transfer)
        case cancel(Transfer)
    }

    /// Connections kept open to one host at a time; further transfers wait for a free one, which
    /// is what lets many parallel requests reuse a few kept-alive connections.
    static let maximumConnectionsPerHost = 16
    /// Connections open at a time, all hosts together.
    static let maximumConnections = 64

    /// The process's loop, started on first use (which loads libcurl).
    static let shared: Result<TransportLoop, TransportError> = Libcurl.shared.flatMap { curl in
        Result { () throws(TransportError) in try TransportLoop(curl: curl) }
    }

    let curl: Libcurl
    // The multi handle, used only on the loop thread (curl_multi_wakeup excepted).
    private let multi: UnsafeMutableRawPointer
    private let commands = Mutex<[Command]>([])
    /// Transfers in the multi handle, by easy handle; loop thread only.
    private var running: [UnsafeMutableRawPointer: Transfer] = [:]

    private init(curl: Libcurl) throws(TransportError) {
        guard let multi = ccurl_multi_init(curl.api) else {
            throw TransportError(kind: .other, message: "libcurl could not create its multi handle")
        }
        self.curl = curl
        self.multi = multi
        ccurl_multi_setopt_long(curl.api, multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        ccurl_multi_setopt_long(curl.api, multi, CURLMOPT_MAX_HOST_CONNECTIONS, Self.maximumConnectionsPerHost)
        ccurl_multi_setopt_long(curl.api, multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, Self.maximumConnections)
        try startThread()
    }

    /// Queues `transfer` to start.
    func start(_ transfer: Transfer) {
        enqueue(.start(transfer))
    }

    /// Queues `transfer` to stop; its completion then reports `.cancelled`.
    func cancel(_ transfer: Transfer) {
        enqueue(.cancel(transfer))
    }

    private func enqueue(_ command: Command) {
        commands.withLock { $0.append(command) }
        ccurl_multi_wakeup(curl.api, multi)
    }

    // MARK: - The loop thread

    private func startThread() throws(TransportError) {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            // The loop lives as long as the process: this reference is never released.
            Unmanaged<TransportLoop>.fromOpaque(context).takeUnretainedValue().run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<TransportLoop>.fromOpaque(context).release()
            throw TransportError(kind: .other, message: "cannot start the transport thread: \(DownloadFile.describe(status))")
        }
        pthread_detach(thread)
    }

    private func run() {
        // A peer closing a TLS connection can raise SIGPIPE inside OpenSSL's write. Blocked on this
        // thread, the write fails with EPIPE instead of killing a host that never asked for it.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)

        var stillRunning: Int32 = 0
        while true {
            runQueuedCommands()
            ccurl_multi_perform(curl.api, multi, &stillRunning)
            collectFinishedTransfers()
            // Sleeps until a socket is ready, libcurl's next timeout, or a wakeup.
            ccurl_multi_poll(curl.api, multi, 1000)
        }
    }

    private func runQueuedCommands() {
        let queued = commands.withLock { queue in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
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
        transfer.complete(with: code)
    }
}
