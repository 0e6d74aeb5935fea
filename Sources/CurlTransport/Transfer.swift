import CCurl
import Dispatch
import FileIO
import HTTPTypes
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// One request in flight: its libcurl handle, where its body comes from and goes to, and the
/// caller's callbacks. It is the `Cancellable` handed back by `Session.perform`.
///
/// Thread confinement (why `@unchecked Sendable` is sound): everything but `cancelState` is set up
/// by `init` on the caller's thread, then touched only by the thread driving the transport (one at
/// a time; see `TransportLoop`) — the loop's command queue, behind a mutex, hands it over, as does
/// every change of driver. `cancelState` is the one field shared between threads.
final class Transfer: Cancellable, EasyHandleDelegate, @unchecked Sendable {
    private enum Direction { case upload, download }

    private let cancelState = Mutex(false)
    private let loop: TransportLoop
    private let progressHandler: (@Sendable (TransferProgress) -> Void)?
    private let completion: @Sendable (Result<TransportResponse, TransportError>) -> Void
    /// Where the response is assembled and the completion runs, if not on the driving thread.
    private let completionQueue: DispatchQueue?
    private let direction: Direction
    /// Whether a body goes up before the answer comes down (`direction` is `.download`).
    private let sendsBodyFirst: Bool
    private let requestURL: URL

    /// The libcurl handle; released on the transport thread as soon as the transfer ends.
    private(set) var easy: EasyHandle?
    private var uploadFile: UploadFile?
    private var downloadFile: OutputFile?
    private var body: ResponseBodyAccumulator
    /// Why taking the body failed (a consumer's write error, the collect limit), for the result.
    private var bodyError: TransportError?
    private var headerLines = RawHeaderLines()
    /// Whether the last header line received ended a head (the blank line): a failure before that
    /// happened while a head was being read.
    private var headEnded = false
    private var lastReported: TransferProgress?
    private var isFinished = false
    /// `ResponseBodyHandling.headOnly`: the transfer ends after the final head...
    private let stopsAtHead: Bool
    /// ... unless it is a redirect libcurl follows (`Location` in the head being read), or a
    /// challenge libcurl answers (digest).
    private let followsRedirects: Bool
    private var headHasLocation = false
    /// Whether the transfer was ended on purpose: after the head, or by the body's reader.
    private var endedEarly = false
    private let trace: (@Sendable (TransferTrace) -> Void)?
    /// The request as configured, for a restart without its sensitive headers.
    private let request: URLRequest
    /// The `Accept-Encoding` sent unless the request sets its own (`Libcurl.acceptedEncodings`).
    private let acceptEncoding: String?
    /// Set while sensitive headers ride on a transfer that follows redirects: where they may go.
    private var redirectGuard: RedirectGuard?
    /// A redirect to another origin, stopped before it was sent, to be made again without them.
    private var pendingRedirect: PendingRedirect?
    /// The pins of the request (`SessionConfiguration.pinnedPublicKeys`), and the server's key
    /// as libcurl noted it (`sha256//…`) while checking them.
    private let pinnedPublicKeys: [String]
    private var serverKeyHash: String?
    /// The limits the transfer runs under, for the message of the one it hits: the total one (0:
    /// none) and the idle one (`nil`: none).
    private let totalTimeout: TimeInterval
    private let idleTimeout: TimeInterval?
    /// The idle watch: bytes sent and received so far (-1 before the first report), when they
    /// last grew, and whether the watch ended the transfer.
    private var bytesMoved: Int64 = -1
    private var lastMovedAt: UInt64 = 0
    private var idleTimedOut = false

    /// The origin a request's sensitive headers belong to, and the redirect budget.
    private struct RedirectGuard {
        let origin: Origin?
        let maximumRedirects: Int
    }

    /// A followed redirect libcurl was about to send to another origin.
    private struct PendingRedirect {
        let url: String
        let method: String
        let redirectsFollowed: Int
    }

    /// Prepares the transfer; throws for problems found before anything is sent (no URL, an
    /// unreadable upload file, an existing download destination).
    init(
        request: URLRequest, configuration: SessionConfiguration, downloadTo: URL?, overwrite: Bool,
        createsFolders: Bool,
        bodyHandling: ResponseBodyHandling, loop: TransportLoop, trace: (@Sendable (TransferTrace) -> Void)? = nil,
        progress: (@Sendable (TransferProgress) -> Void)?, completionQueue: DispatchQueue? = nil,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) throws(TransportError) {
        guard let url = request.url else {
            throw TransportError(kind: .other, message: "the request has no URL")
        }
        self.loop = loop
        self.requestURL = url
        self.request = request
        self.pinnedPublicKeys = configuration.pinnedPublicKeys
        self.totalTimeout = configuration.timeout
        self.idleTimeout = EasyHandle.idleTimeout(configuration: configuration, request: request)
        self.trace = trace
        self.progressHandler = progress
        self.completion = completion
        self.completionQueue = completionQueue
        self.body = ResponseBodyAccumulator(bodyHandling)
        if case .headOnly = bodyHandling { stopsAtHead = true } else { stopsAtHead = false }
        self.followsRedirects = configuration.followRedirects
        self.direction = (request.bodyFileURL != nil || request.multipartParts != nil) ? .upload : .download
        self.sendsBodyFirst = !(request.httpBody?.isEmpty ?? true)

        let urlText = IDNAHost.asciiURL(url.absoluteString)
        acceptEncoding = configuration.acceptsCompressedResponses ? loop.curl.acceptedEncodings : nil
        let headerLines = EasyHandle.headerLines(of: request, acceptEncoding: acceptEncoding)
        // Secrets on a request that follows redirects: libcurl checks each request before it is
        // sent, so none carries them to another origin (`easyHandleWillSendRequest`).
        let guardsRedirects =
            configuration.followRedirects && request.headers.contains { request.isSensitiveHeader($0.name.rawName) }
        let shape = EasyHandle.RequestShape(
            request: request, url: urlText, configuration: configuration, headerLines: headerLines,
            checksEachRequest: guardsRedirects, traces: trace != nil || !configuration.pinnedPublicKeys.isEmpty)
        let (handle, isConfigured) = try loop.handles.take(curl: loop.curl, shape: shape)
        if let fileURL = request.bodyFileURL {
            uploadFile = try UploadFile(url: fileURL, streams: request.streamedFilePaths.contains(fileURL.path))
        }
        let checksEachRequest: Bool
        if let shape, isConfigured {
            try handle.set(url: urlText)
            checksEachRequest = shape.checksEachRequest
        } else {
            checksEachRequest = try handle.configure(
                for: request, url: urlText, configuration: configuration,
                uploadSize: uploadFile.map { $0.size ?? EasyHandle.unknownSize },
                headerLines: headerLines, checksEachRequest: guardsRedirects,
                traces: trace != nil || !configuration.pinnedPublicKeys.isEmpty,
                shape: shape)
        }
        if checksEachRequest {
            redirectGuard = RedirectGuard(origin: Origin(url), maximumRedirects: max(0, configuration.maximumRedirects))
        }
        // Last, so no earlier failure leaves a temporary file behind.
        if let downloadTo {
            downloadFile = try TransportError.converting { () throws(FileError) in
                try OutputFile(path: downloadTo.path, overwrite: overwrite, createFolders: createsFolders)
            }
        }
        handle.delegate = self
        easy = handle
    }

    deinit {
        // A transfer that never ended (never started, say) still holds its handle. libcurl calls
        // back only while a handle is in the multi handle, so this is defensive: the handle never
        // points at a transfer that is gone.
        easy?.delegate = nil
    }

    // MARK: - Cancellable

    var isCancelled: Bool { cancelState.withLock { $0 } }

    func cancel() {
        let isFirstCancel = cancelState.withLock { cancelled in
            defer { cancelled = true }
            return !cancelled
        }
        if isFirstCancel { loop.cancel(self) }
    }

    // MARK: - Redirects to another origin (driving thread)

    /// After libcurl stopped a redirect to another origin before sending it, sets the handle up
    /// to make that request again without the sensitive headers; returns whether it should be
    /// started again. The loop has already removed the handle from the multi handle.
    func restartsWithoutSecrets(after code: CURLcode) -> Bool {
        guard code == CURLE_ABORTED_BY_CALLBACK, !isCancelled, !isFinished, let redirect = pendingRedirect, let easy,
            let redirectGuard
        else { return false }
        pendingRedirect = nil
        self.redirectGuard = nil
        var stripped = request
        stripped.headers = HTTPFields(request.headers.filter { !request.isSensitiveHeader($0.name.rawName) })
        do throws(TransportError) {
            try easy.set(url: redirect.url)
            if redirect.method == "GET", (request.httpMethod ?? "GET") != "GET" {
                // libcurl turned a POST into a GET (301, 302, 303): the body stays behind.
                try easy.set(CURLOPT_HTTPGET, 1)
                stripped.httpMethod = "GET"
                stripped.httpBody = nil
                stripped.bodyFileURL = nil
                stripped.multipartParts = nil
            } else if let uploadFile, !uploadFile.seek(to: 0) {
                throw TransportError(kind: .fileAccess, message: "cannot resend the request body after a redirect")
            }
            try easy.set(headerLines: EasyHandle.headerLines(of: stripped, acceptEncoding: acceptEncoding))
            try easy.set(CURLOPT_MAXREDIRS, max(0, redirectGuard.maximumRedirects - redirect.redirectsFollowed))
            return true
        } catch {
            bodyError = error
            return false
        }
    }

    func easyHandleWillSendRequest() -> Bool {
        guard let redirectGuard, let easy, let effective = easy.info(string: CURLINFO_EFFECTIVE_URL) else {
            return true
        }
        let origin = URL(string: effective).flatMap(Origin.init)
        if origin != nil && origin == redirectGuard.origin { return true }
        pendingRedirect = PendingRedirect(
            url: effective, method: easy.info(string: CURLINFO_EFFECTIVE_METHOD) ?? "GET",
            redirectsFollowed: easy.info(long: CURLINFO_REDIRECT_COUNT))
        return false
    }

    // MARK: - Completion (driving thread)

    /// Ends the transfer with libcurl's result and calls the completion, exactly once.
    /// The loop has already removed the handle from the multi handle.
    ///
    /// Only what needs the handle happens here, on the driving thread (libcurl's counters, the
    /// download's commit); reading the header lines and the effective URL into the response head
    /// happens where the completion runs: on `completionQueue` when there is one, so the thread
    /// that drives every transfer of a sweep spends its time in libcurl.
    func complete(with code: CURLcode) {
        guard !isFinished, let easy else { return }
        isFinished = true
        var result: Result<FinishedTransfer, TransportError>
        if isCancelled {
            result = .failure(TransportError(kind: .cancelled, message: "the request was cancelled"))
        } else if code != CURLE_OK && !(endedEarly && code == CURLE_WRITE_ERROR) {
            result = .failure(error(for: code, handle: easy))
        } else if let beginError = beginBody(easy) {
            result = .failure(beginError)
        } else {
            result = finished(easy)
        }
        if case .failure = result { downloadFile?.discard() }
        if case .success = result { reportFinalProgress(handle: easy) }
        downloadFile = nil
        uploadFile = nil
        self.easy = nil
        // Out of the multi handle: libcurl calls back no more, and this transfer may go.
        easy.delegate = nil
        // Reusable, unless the multi handle refused it (only when misused).
        if code != CURLE_FAILED_INIT { loop.handles.giveBack(easy, endedWell: code == CURLE_OK && !isCancelled) }
        let completion = self.completion
        let finished = result
        guard let completionQueue else {
            completion(finished.map(\.response))
            return
        }
        completionQueue.async {
            completion(finished.map(\.response))
            // The transfer's last reference is usually this one: it is freed here, not on the
            // thread that drives the transfers.
            withExtendedLifetime(self) {}
        }
    }

    /// What a successful transfer leaves for its response, read from the handle before it goes.
    private struct FinishedTransfer: @unchecked Sendable {
        // @unchecked: `headerLines` and `body` are values no other thread holds; the rest is Sendable.
        let statusCode: Int
        let headerLines: RawHeaderLines
        let effectiveURL: String?
        let requestURL: URL
        let body: Data
        let bodyLength: Int
        let downloadedFile: URL?
        let timing: Timing

        /// The response: the head read from the header lines and the effective URL.
        var response: TransportResponse {
            TransportResponse(
                head: Transfer.head(
                    statusCode: statusCode, headerLines: headerLines, effectiveURL: effectiveURL,
                    requestURL: requestURL),
                body: body, bodyLength: bodyLength, downloadedFile: downloadedFile, timing: timing)
        }
    }

    /// The head of a response: its status, the last header block's fields, the URL that answered.
    private static func head(statusCode: Int, headerLines: RawHeaderLines, effectiveURL: String?, requestURL: URL)
        -> HTTPResponseHead
    {
        HTTPResponseHead(
            statusCode: statusCode, headerLines: headerLines, url: answeringURL(effectiveURL, requestURL: requestURL))
    }

    /// The URL that answered: libcurl's effective URL, else the one requested. Nearly always it
    /// is the URL requested, as requested (no redirect): that URL is then taken as it is rather
    /// than parsed again (a tenth of assembling a small response); they are equal.
    static func answeringURL(_ effectiveURL: String?, requestURL: URL) -> URL {
        guard let effectiveURL else { return requestURL }
        if requestURL.baseURL == nil && requestURL.relativeString == effectiveURL { return requestURL }
        return URL(string: effectiveURL) ?? requestURL
    }

    /// The head of the response being received (the last one, after redirects).
    private func head(of easy: EasyHandle) -> HTTPResponseHead {
        Self.head(
            statusCode: easy.info(long: CURLINFO_RESPONSE_CODE), headerLines: headerLines,
            effectiveURL: easy.info(string: CURLINFO_EFFECTIVE_URL), requestURL: requestURL)
    }

    /// Tells the body's handling the head, once; returns why that failed. Only a streamed body
    /// reads the head here (its consumer decides with it); the others do not need it.
    private func beginBody(_ easy: EasyHandle) -> TransportError? {
        guard !body.hasBegun else { return nil }
        do {
            try body.begin(head(of: easy))
            return nil
        } catch {
            return error
        }
    }

    private func finished(_ easy: EasyHandle) -> Result<FinishedTransfer, TransportError> {
        let timing = Timing(
            nameLookup: easy.info(seconds: CURLINFO_NAMELOOKUP_TIME_T),
            connect: easy.info(seconds: CURLINFO_CONNECT_TIME_T),
            tlsHandshake: easy.info(seconds: CURLINFO_APPCONNECT_TIME_T),
            firstByte: easy.info(seconds: CURLINFO_STARTTRANSFER_TIME_T),
            total: easy.info(seconds: CURLINFO_TOTAL_TIME_T),
            metrics: TransferMetrics(reading: easy))
        var downloadedFile: URL?
        if let downloadFile {
            do throws(FileError) {
                try downloadFile.commit()
                downloadedFile = URL(fileURLWithPath: downloadFile.path)
            } catch {
                return .failure(TransportError(error))
            }
        }
        return .success(
            FinishedTransfer(
                statusCode: easy.info(long: CURLINFO_RESPONSE_CODE), headerLines: headerLines,
                effectiveURL: easy.info(string: CURLINFO_EFFECTIVE_URL), requestURL: requestURL,
                body: body.data, bodyLength: body.length, downloadedFile: downloadedFile, timing: timing))
    }

    private func error(for code: CURLcode, handle: EasyHandle) -> TransportError {
        // A failure of our own I/O explains a write/read error better than libcurl can.
        if let bodyError { return bodyError }
        if let readError = uploadFile?.readError { return readError }
        if !headEnded, TransportError.isHeaderTooLarge(code) { return TransportError.headerTooLarge }
        if let timeout = timeoutError(for: code, handle: handle) { return timeout }
        if code == CURLE_SSL_PINNEDPUBKEYNOTMATCH {
            return TransportError(
                kind: .secureConnectionFailed,
                message: "the server's public key \(serverKeyHash ?? "(not reported)") matches no pinned key ("
                    + pinnedPublicKeys.joined(separator: ", ") + "); nothing was sent")
        }
        let message = handle.errorText ?? handle.curl.describe(code)
        return TransportError(
            curlCode: code, message: IDNAHost.hostAsWritten(in: message, url: requestURL.absoluteString))
    }

    /// The error of a limit the transfer hit, naming it: the idle one (this transfer's watch, or
    /// libcurl's low-speed check behind it) or the total one.
    private func timeoutError(for code: CURLcode, handle: EasyHandle) -> TransportError? {
        let libcurlText = handle.errorText ?? ""
        let received = handle.info(bytes: CURLINFO_SIZE_DOWNLOAD_T)
        if let idleTimeout, idleTimedOut || (code == CURLE_OPERATION_TIMEDOUT && libcurlText.contains("too slow")) {
            return TransportError(
                kind: .timedOut,
                message:
                    "idle timeout: nothing was sent or received for \(Self.seconds(idleTimeout)) (\(received) bytes received)"
            )
        }
        if code == CURLE_OPERATION_TIMEDOUT, totalTimeout > 0, libcurlText.hasPrefix("Operation timed out") {
            return TransportError(
                kind: .timedOut,
                message: "total timeout: the request took more than \(Self.seconds(totalTimeout)) (\(libcurlText))")
        }
        return nil
    }

    /// `2 s`, `0.5 s`.
    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() && value < 1e15 ? "\(Int(value)) s" : "\(value) s"
    }

    /// Whether the transfer may go on: false once no byte was sent or received for longer than
    /// its idle limit. libcurl reports progress on every piece moved, and every second while
    /// nothing moves (the low-speed check asks for it).
    private func isWithinIdleLimit(moved: Int64) -> Bool {
        guard let idleTimeout else { return true }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        let nanoseconds = UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
        if moved != bytesMoved {
            bytesMoved = moved
            lastMovedAt = nanoseconds
            return true
        }
        guard Double(nanoseconds &- lastMovedAt) / 1e9 > idleTimeout else { return true }
        idleTimedOut = true
        return false
    }

    private func reportFinalProgress(handle: EasyHandle) {
        guard let progressHandler else { return }
        let isUpload = direction == .upload
        let info = isUpload ? CURLINFO_SIZE_UPLOAD_T : CURLINFO_SIZE_DOWNLOAD_T
        let reported = lastReported?.isUpload == isUpload ? lastReported?.completedBytes ?? 0 : 0
        let done = max(handle.info(bytes: info), reported)
        let final = TransferProgress(completedBytes: done, totalBytes: done, isUpload: isUpload)
        guard final != lastReported else { return }
        lastReported = final
        progressHandler(final)
    }

    // MARK: - EasyHandleDelegate (driving thread)

    func easyHandle(debug kind: curl_infotype, bytes: UnsafeBufferPointer<UInt8>) {
        // A pinned transfer is traced for the one note that names the server's key, which the
        // error of a key that matches no pin then names too.
        if kind == CURLINFO_TEXT, bytes.count < 256 {
            let note = String(decoding: bytes, as: UTF8.self).trimmingTrailingLineBreaks()
            if let hash = note.firstRange(of: "public key hash: ") { serverKeyHash = String(note[hash.upperBound...]) }
        }
        guard let trace else { return }
        let text = String(decoding: bytes, as: UTF8.self)
        switch kind {
        case CURLINFO_TEXT:
            let line = text.trimmingTrailingLineBreaks()
            if !line.isEmpty { trace(.note(TransferTrace.hidingCookieValue(in: line))) }
        case CURLINFO_HEADER_OUT:
            // "\r\n" is one Character: split on any line break, not on "\n".
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
            trace(.requestHead(Array(lines.reversed().drop(while: \.isEmpty).reversed())))
        case CURLINFO_HEADER_IN:
            trace(.responseHeader(text.trimmingTrailingLineBreaks()))
        default:
            break
        }
    }

    func easyHandle(didReceiveHeaderLine line: UnsafeBufferPointer<UInt8>) -> Bool {
        headerLines.append(line)
        headEnded = line.count <= 2 && line.allSatisfy { $0 == 0x0D || $0 == 0x0A }
        guard stopsAtHead else { return true }
        if line.starts(with: "HTTP/".utf8) {
            headHasLocation = false
        } else if line.count > 9, line.prefix(9).map({ $0 | 0x20 }) == Array("location:".utf8) {
            headHasLocation = true
        }
        guard headEnded, let easy else { return true }
        let status = easy.info(long: CURLINFO_RESPONSE_CODE)
        // An interim answer (1xx, a proxy's CONNECT), a redirect libcurl follows or a digest
        // challenge it answers: another head comes.
        if status < 200 || (followsRedirects && headHasLocation && (300..<400).contains(status))
            || (status == 401 && request.digestCredential != nil)
        {
            return true
        }
        endedEarly = true
        return false
    }

    func easyHandle(didReceiveBody bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        do throws(TransportError) {
            if let downloadFile {
                try TransportError.converting { () throws(FileError) in
                    try downloadFile.write(UnsafeRawBufferPointer(bytes))
                }
                return true
            }
            if !body.hasBegun, let easy, let error = beginBody(easy) { throw error }
            try body.append(UnsafeRawBufferPointer(bytes))
            return true
        } catch {
            if error == .bodyEndedByReader {
                endedEarly = true
                return false
            }
            bodyError = error
            return false
        }
    }

    func easyHandle(fillUploadBuffer buffer: UnsafeMutableRawBufferPointer) -> Int? {
        uploadFile?.read(into: buffer) ?? 0
    }

    func easyHandle(seekUploadTo offset: Int64) -> Bool {
        uploadFile?.seek(to: offset) ?? false
    }

    func easyHandle(downloaded: Int64, of downloadTotal: Int64, uploaded: Int64, of uploadTotal: Int64) -> Bool {
        if isCancelled { return false }
        if !isWithinIdleLimit(moved: downloaded &+ uploaded) { return false }
        guard let progressHandler else { return true }
        // A file or multipart upload reports its upload throughout (the answer to it is small);
        // any other request body (`--data`, JSON) is reported while it goes up, then the answer.
        let isUpload =
            direction == .upload || (sendsBodyFirst && downloaded == 0 && (uploadTotal <= 0 || uploaded < uploadTotal))
        let (done, total) = isUpload ? (uploaded, uploadTotal) : (downloaded, downloadTotal)
        // libcurl calls this often with unchanged counters, and restarts them on a redirect:
        // report only growth, so callers see a monotonic sequence in each direction.
        if let lastReported, lastReported.isUpload == isUpload, done <= lastReported.completedBytes { return true }
        let progress = TransferProgress(completedBytes: done, totalBytes: total > 0 ? total : nil, isUpload: isUpload)
        lastReported = progress
        progressHandler(progress)
        return true
    }
}

private extension String {
    func trimmingTrailingLineBreaks() -> String {
        var text = self
        while let last = text.last, last == "\n" || last == "\r" || last == "\r\n" { text.removeLast() }
        return text
    }
}
