import CCurl

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Receives the callbacks of an `EasyHandle`, on the transport thread.
protocol EasyHandleDelegate: AnyObject {
    /// One raw header line, status lines included, CRLF included. Returns false to end the
    /// transfer there (the head is all that was asked for).
    func easyHandle(didReceiveHeaderLine line: UnsafeBufferPointer<UInt8>) -> Bool
    /// A piece of the response body. Returns false to abort the transfer (a write error).
    func easyHandle(didReceiveBody bytes: UnsafeBufferPointer<UInt8>) -> Bool
    /// Fills `buffer` with the next request body bytes; returns the count, 0 at the end, nil on error.
    func easyHandle(fillUploadBuffer buffer: UnsafeMutableRawBufferPointer) -> Int?
    /// Rewinds the request body to `offset`, for a resend after a redirect. Returns false if impossible.
    func easyHandle(seekUploadTo offset: Int64) -> Bool
    /// Transfer counters. Returns false to abort the transfer.
    func easyHandle(downloaded: Int64, of downloadTotal: Int64, uploaded: Int64, of uploadTotal: Int64) -> Bool
    /// A request (the first, or one a followed redirect makes) is about to be sent on an open
    /// connection. Returns false to abort the transfer before anything is sent.
    func easyHandleWillSendRequest() -> Bool
    /// libcurl's verbose information (`CURLOPT_DEBUGFUNCTION`): its kind and bytes.
    func easyHandle(debug kind: curl_infotype, bytes: UnsafeBufferPointer<UInt8>)
}

/// One libcurl easy handle: a single request's options and state.
///
/// Owns the handle and everything libcurl keeps pointers to (header lists, the MIME body, the
/// error buffer), so they live exactly as long as the handle. Not thread-safe: it is configured by
/// the caller, then used only on the transport thread.
final class EasyHandle {
    let curl: Libcurl
    let rawHandle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// The other lists libcurl points at (`CURLOPT_RESOLVE`, `CURLOPT_CONNECT_TO`).
    private var otherLists: [UnsafeMutablePointer<curl_slist>] = []
    private var mime: OpaquePointer?
    /// The streams multipart parts are read from (`set(multipartParts:streamedPaths:)`), kept
    /// while the MIME body that reads them lives.
    private var streamedParts: [UploadFile] = []
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// Receives the callbacks. Not retained, so a handle never keeps its transfer alive; and not
    /// weak, since the callbacks of a sweep's every transfer paid a weak load, a retain and a
    /// release for each header line (4% of the transport thread's work). Sound because libcurl
    /// calls back only while the handle is in the multi handle (`curl_multi_remove_handle`
    /// included), and the loop holds the transfer (`TransportLoop.running`) for that time; the
    /// transfer clears it when it ends (`Transfer.complete`), and in its deinit when it never did.
    unowned(unsafe) var delegate: (any EasyHandleDelegate)?
    /// What `configure` set, while no option changed since and the last transfer ended well: a
    /// request of an equal shape needs only its URL set (`EasyHandlePool`).
    private(set) var configuredShape: RequestShape?

    /// Creates a handle with the options every MoyaKit request shares.
    init(curl: Libcurl) throws(TransportError) {
        guard let handle = ccurl_easy_init(curl.api) else {
            throw TransportError(kind: .other, message: "libcurl could not create a transfer (curl_easy_init failed)")
        }
        self.curl = curl
        self.rawHandle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        try setOptionsOfEveryTransfer()
    }

    /// A handle no transfer uses, handed between threads through `EasyHandlePool`'s lock.
    struct Reusable: @unchecked Sendable {
        let handle: EasyHandle
    }

    /// Makes a handle a finished transfer used ready for a new request: every option back to
    /// libcurl's default (the connections and caches it shares with others are kept), the header
    /// list, MIME body and last error text gone, then the options every request shares.
    /// - SeeAlso: curl_easy_reset
    func prepareForReuse() throws(TransportError) {
        ccurl_easy_reset(curl.api, rawHandle)
        // The handle no longer points at them.
        if let mime { ccurl_mime_free(curl.api, mime) }
        mime = nil
        streamedParts = []
        if let headerList { ccurl_slist_free_all(curl.api, headerList) }
        headerList = nil
        for list in otherLists { ccurl_slist_free_all(curl.api, list) }
        otherLists = []
        errorBuffer.update(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        delegate = nil
        configuredShape = nil
        try setOptionsOfEveryTransfer()
    }

    /// Makes a handle a finished transfer used ready for a request of its `configuredShape`, which
    /// then sets only its URL: the options stay (libcurl starts each transfer from them, as when
    /// `curl_easy_perform` is called again), the last error text goes.
    func prepareForSameShape() {
        errorBuffer.update(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        delegate = nil
    }

    /// Whether the handle is configured for `shape`, compared where the shape is kept: copied out
    /// to be compared (`configuredShape == shape`), both shapes' strings, lists and settings were
    /// retained and released, most of what taking a handle cost a check.
    func isConfigured(for shape: RequestShape) -> Bool {
        configuredShape?.isEqual(to: shape) ?? false
    }

    /// Records that `configure` has just set the options of `shape` (`nil`: of no shape to reuse).
    func markConfigured(_ shape: RequestShape?) {
        configuredShape = shape
    }

    /// Forgets the configured shape, so the handle is reset before its next use: its transfer
    /// failed, or an option changed (`configure` sets its shape again once it has set them all).
    func forgetShape() {
        configuredShape = nil
    }

    deinit {
        ccurl_easy_cleanup(curl.api, rawHandle)
        // The MIME body and header list must outlive the handle that points at them.
        if let mime { ccurl_mime_free(curl.api, mime) }
        if let headerList { ccurl_slist_free_all(curl.api, headerList) }
        for list in otherLists { ccurl_slist_free_all(curl.api, list) }
        errorBuffer.deallocate()
    }

    /// The text libcurl left in the error buffer for the last failure, if any.
    var errorText: String? {
        let text = String(cString: errorBuffer)
        return text.isEmpty ? nil : text
    }

    private func setOptionsOfEveryTransfer() throws(TransportError) {
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        try check(ccurl_easy_setopt_ptr(curl.api, rawHandle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        // Signals are process-wide; a library must not install handlers behind its host's back.
        try set(CURLOPT_NOSIGNAL, 1)
        // Only the web: never file://, ftp://, … even when a redirect asks for it.
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_UNRESTRICTED_AUTH, 0)
        try check(
            ccurl_easy_setopt_write_cb(curl.api, rawHandle, CURLOPT_WRITEFUNCTION, easyHandleWriteCallback),
            "CURLOPT_WRITEFUNCTION")
        try check(ccurl_easy_setopt_ptr(curl.api, rawHandle, CURLOPT_WRITEDATA, userdata), "CURLOPT_WRITEDATA")
        try check(
            ccurl_easy_setopt_header_cb(curl.api, rawHandle, CURLOPT_HEADERFUNCTION, easyHandleHeaderCallback),
            "CURLOPT_HEADERFUNCTION")
        try check(ccurl_easy_setopt_ptr(curl.api, rawHandle, CURLOPT_HEADERDATA, userdata), "CURLOPT_HEADERDATA")
        try check(
            ccurl_easy_setopt_xferinfo_cb(curl.api, rawHandle, CURLOPT_XFERINFOFUNCTION, easyHandleProgressCallback),
            "CURLOPT_XFERINFOFUNCTION")
        try check(ccurl_easy_setopt_ptr(curl.api, rawHandle, CURLOPT_XFERINFODATA, userdata), "CURLOPT_XFERINFODATA")
        try set(CURLOPT_NOPROGRESS, 0)
    }

    // MARK: - Setters

    /// Sets a `long` option.
    func set(_ option: CURLoption, _ value: Int) throws(TransportError) {
        forgetShape()
        try check(ccurl_easy_setopt_long(curl.api, rawHandle, option, value), option)
    }

    /// Sets a string option; libcurl copies the string.
    func set(_ option: CURLoption, _ value: String) throws(TransportError) {
        forgetShape()
        try check(ccurl_easy_setopt_string(curl.api, rawHandle, option, value), option)
    }

    /// Sets a `curl_off_t` option.
    func set(_ option: CURLoption, offset value: Int64) throws(TransportError) {
        forgetShape()
        try check(ccurl_easy_setopt_off_t(curl.api, rawHandle, option, curl_off_t(value)), option)
    }

    /// The request URL. Not part of a handle's configured shape: the one option a request of the
    /// same shape sets.
    /// - SeeAlso: CURLOPT_URL
    func set(url: String) throws(TransportError) {
        let code = ccurl_easy_setopt_string(curl.api, rawHandle, CURLOPT_URL, url)
        guard code == CURLE_OK else {
            throw TransportError(
                kind: code == CURLE_UNSUPPORTED_PROTOCOL ? .unsupportedProtocol : .other,
                message: "\(url) is not a URL libcurl accepts: \(curl.describe(code))")
        }
    }

    /// The request header lines (`Name: value`), replacing any set before.
    /// - SeeAlso: CURLOPT_HTTPHEADER
    func set(headerLines: [String]) throws(TransportError) {
        forgetShape()
        var list: UnsafeMutablePointer<curl_slist>?
        for line in headerLines {
            guard let extended = ccurl_slist_append(curl.api, list, line) else {
                if let list { ccurl_slist_free_all(curl.api, list) }
                throw TransportError(kind: .other, message: "out of memory building the request headers")
            }
            list = extended
        }
        try check(ccurl_easy_setopt_slist(curl.api, rawHandle, CURLOPT_HTTPHEADER, list), "CURLOPT_HTTPHEADER")
        if let headerList { ccurl_slist_free_all(curl.api, headerList) }
        headerList = list
    }

    /// A list option other than the headers (`CURLOPT_RESOLVE`, `CURLOPT_CONNECT_TO`), kept until
    /// the handle is reset or freed.
    func set(_ option: CURLoption, lines: [String]) throws(TransportError) {
        forgetShape()
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let extended = ccurl_slist_append(curl.api, list, line) else {
                if let list { ccurl_slist_free_all(curl.api, list) }
                throw TransportError(kind: .other, message: "out of memory building a list option")
            }
            list = extended
        }
        try check(ccurl_easy_setopt_slist(curl.api, rawHandle, option, list), option)
        if let list { otherLists.append(list) }
    }

    /// Whether the request body is pulled through the delegate's upload callbacks.
    /// - SeeAlso: CURLOPT_READFUNCTION, CURLOPT_SEEKFUNCTION
    func set(streamsRequestBody: Bool) throws(TransportError) {
        guard streamsRequestBody else { return }
        forgetShape()
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        try check(
            ccurl_easy_setopt_read_cb(curl.api, rawHandle, CURLOPT_READFUNCTION, easyHandleReadCallback),
            "CURLOPT_READFUNCTION")
        try check(ccurl_easy_setopt_ptr(curl.api, rawHandle, CURLOPT_READDATA, userdata), "CURLOPT_READDATA")
        try check(
            ccurl_easy_setopt_seek_cb(curl.api, rawHandle, CURLOPT_SEEKFUNCTION, easyHandleSeekCallback),
            "CURLOPT_SEEKFUNCTION")
        try check(ccurl_easy_setopt_ptr(curl.api, rawHandle, CURLOPT_SEEKDATA, userdata), "CURLOPT_SEEKDATA")
    }

    /// A body sent from memory; libcurl copies it, after CURLOPT_POSTFIELDSIZE_LARGE gave its size.
    /// - SeeAlso: CURLOPT_COPYPOSTFIELDS
    func set(copyingPostFields body: Data) throws(TransportError) {
        forgetShape()
        var empty: UInt8 = 0
        let code: CURLcode
        if body.isEmpty {
            // A null pointer would make libcurl read the body from stdin instead.
            code = withUnsafeMutablePointer(to: &empty) {
                ccurl_easy_setopt_ptr(curl.api, rawHandle, CURLOPT_COPYPOSTFIELDS, $0)
            }
        } else {
            code = body.withUnsafeBytes { bytes in
                ccurl_easy_setopt_ptr(
                    curl.api, rawHandle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            }
        }
        try check(code, "CURLOPT_COPYPOSTFIELDS")
    }

    /// A `multipart/form-data` body; files are streamed by libcurl as it sends them, and the
    /// files at `streamedPaths` (pipes, FIFOs: `URLRequest.streamedFilePaths`) read as they come,
    /// with no size, so the body goes chunked.
    /// - SeeAlso: CURLOPT_MIMEPOST, curl_mime_data_cb
    func set(multipartParts parts: [MultipartFormBodyPart], streamedPaths: Set<String> = []) throws(TransportError) {
        forgetShape()
        guard let form = ccurl_mime_init(curl.api, rawHandle) else {
            throw TransportError(kind: .other, message: "libcurl could not create a multipart body")
        }
        if let mime { ccurl_mime_free(curl.api, mime) }
        mime = form
        for part in parts {
            guard let mimePart = ccurl_mime_addpart(curl.api, form) else {
                throw TransportError(kind: .other, message: "libcurl could not add multipart part \(part.name)")
            }
            try check(ccurl_mime_name(curl.api, mimePart, part.name), "curl_mime_name")
            switch part.provider {
            case .data(let data):
                // curl_mime_data copies the bytes; an empty part still needs a non-null pointer.
                let bytes = data.isEmpty ? Data([0]) : data
                let code = bytes.withUnsafeBytes { buffer in
                    ccurl_mime_data(
                        curl.api, mimePart, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), data.count)
                }
                try check(code, "curl_mime_data")
            case .file(let url) where streamedPaths.contains(url.path):
                let stream = try UploadFile(url: url, streams: true)
                streamedParts.append(stream)
                let code = ccurl_mime_data_cb(
                    curl.api, mimePart, curl_off_t(stream.size ?? -1), easyHandlePartReadCallback,
                    Unmanaged.passUnretained(stream).toOpaque())
                try check(code, "curl_mime_data_cb")
                if part.fileName == nil {
                    try check(ccurl_mime_filename(curl.api, mimePart, url.lastPathComponent), "curl_mime_filename")
                }
            case .file(let url):
                // libcurl opens the file itself, blocking on a FIFO and trusting the size stat
                // reports: only a regular file is handed over, and a pseudo-file (size 0 with
                // content, as in /proc) is read here and sent from memory.
                let descriptor = try UploadFile.openRegular(url.path, what: "multipart file")
                var status = stat()
                _ = fstat(descriptor, &status)
                if status.st_size == 0 {
                    let contents: [UInt8]
                    do throws(TransportError) {
                        contents = try UploadFile.readPseudoFile(descriptor, path: url.path)
                    } catch {
                        close(descriptor)
                        throw error
                    }
                    close(descriptor)
                    let bytes = contents.isEmpty ? [0] : contents
                    let code = bytes.withUnsafeBytes { buffer in
                        ccurl_mime_data(
                            curl.api, mimePart, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), contents.count)
                    }
                    try check(code, "curl_mime_data")
                    let baseName = url.lastPathComponent
                    if part.fileName == nil {
                        try check(ccurl_mime_filename(curl.api, mimePart, baseName), "curl_mime_filename")
                    }
                } else {
                    close(descriptor)
                    let code = ccurl_mime_filedata(curl.api, mimePart, url.path)
                    guard code == CURLE_OK else {
                        throw TransportError(
                            kind: .fileAccess, message: "cannot read multipart file \(url.path) for part \(part.name)")
                    }
                }
            }
            // For files libcurl already sent the base name; an explicit name replaces it.
            if let fileName = part.fileName {
                try check(ccurl_mime_filename(curl.api, mimePart, fileName), "curl_mime_filename")
            }
            if let mimeType = part.mimeType {
                try check(ccurl_mime_type(curl.api, mimePart, mimeType), "curl_mime_type")
            }
        }
        try check(ccurl_easy_setopt_mime(curl.api, rawHandle, CURLOPT_MIMEPOST, form), "CURLOPT_MIMEPOST")
    }

    /// Has `easyHandleWillSendRequest` called before every request, redirects included. Returns
    /// false when this libcurl (older than 7.80) cannot.
    /// - SeeAlso: CURLOPT_PREREQFUNCTION
    func setChecksEachRequest() -> Bool {
        forgetShape()
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        return ccurl_easy_setopt_prereq_cb(curl.api, rawHandle, CURLOPT_PREREQFUNCTION, easyHandlePrereqCallback)
            == CURLE_OK
            && ccurl_easy_setopt_ptr(curl.api, rawHandle, CURLOPT_PREREQDATA, userdata) == CURLE_OK
    }

    /// Has libcurl report what it sends and receives to `easyHandle(debug:bytes:)`.
    /// - SeeAlso: CURLOPT_VERBOSE, CURLOPT_DEBUGFUNCTION
    func setTraces() throws(TransportError) {
        forgetShape()
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        try check(
            ccurl_easy_setopt_debug_cb(curl.api, rawHandle, CURLOPT_DEBUGFUNCTION, easyHandleDebugCallback),
            "CURLOPT_DEBUGFUNCTION")
        try check(ccurl_easy_setopt_ptr(curl.api, rawHandle, CURLOPT_DEBUGDATA, userdata), "CURLOPT_DEBUGDATA")
        try set(CURLOPT_VERBOSE, 1)
    }

    // MARK: - Information

    /// A `long` piece of information about the finished transfer, 0 if unavailable.
    func info(long info: CURLINFO) -> Int {
        var value = 0
        return ccurl_easy_getinfo_long(curl.api, rawHandle, info, &value) == CURLE_OK ? value : 0
    }

    /// A string piece of information about the finished transfer.
    func info(string info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard ccurl_easy_getinfo_string(curl.api, rawHandle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// A duration libcurl measured, in seconds, from a `…_TIME_T` microsecond counter.
    func info(seconds info: CURLINFO) -> Double {
        var value: curl_off_t = 0
        guard ccurl_easy_getinfo_off_t(curl.api, rawHandle, info, &value) == CURLE_OK else { return 0 }
        return Double(value) / 1_000_000
    }

    /// A byte count libcurl kept, from a `…_T` counter.
    func info(bytes info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        guard ccurl_easy_getinfo_off_t(curl.api, rawHandle, info, &value) == CURLE_OK else { return 0 }
        return Int64(value)
    }

    // MARK: - Errors

    func check(_ code: CURLcode, _ option: CURLoption) throws(TransportError) {
        try check(code, "option \(option.rawValue)")
    }

    func check(_ code: CURLcode, _ what: String) throws(TransportError) {
        guard code == CURLE_OK else {
            throw TransportError(
                kind: .other, message: "libcurl \(curl.version) rejected \(what): \(curl.describe(code))")
        }
    }
}

// MARK: - C callbacks (no captures: they find their handle through the userdata pointer)

private func delegate(of userdata: UnsafeMutableRawPointer?) -> (any EasyHandleDelegate)? {
    guard let userdata else { return nil }
    return Unmanaged<EasyHandle>.fromOpaque(userdata).takeUnretainedValue().delegate
}

private let easyHandleWriteCallback: curl_write_callback = { data, size, count, userdata in
    let length = size * count
    guard let data, let delegate = delegate(of: userdata) else { return 0 }
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
    return delegate.easyHandle(didReceiveBody: bytes) ? length : 0
}

private let easyHandleHeaderCallback: curl_write_callback = { data, size, count, userdata in
    let length = size * count
    guard let data, let delegate = delegate(of: userdata) else { return 0 }
    let goesOn = delegate.easyHandle(
        didReceiveHeaderLine: UnsafeBufferPointer(
            start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length))
    return goesOn ? length : 0
}

private let easyHandleReadCallback: curl_read_callback = { buffer, size, count, userdata in
    guard let buffer, let delegate = delegate(of: userdata) else { return Int(CURL_READFUNC_ABORT) }
    let target = UnsafeMutableRawBufferPointer(start: buffer, count: size * count)
    return delegate.easyHandle(fillUploadBuffer: target) ?? Int(CURL_READFUNC_ABORT)
}

/// Reads a streamed multipart part; its userdata is the part's `UploadFile`, which the handle keeps.
private let easyHandlePartReadCallback: curl_read_callback = { buffer, size, count, userdata in
    guard let buffer, let userdata else { return Int(CURL_READFUNC_ABORT) }
    let stream = Unmanaged<UploadFile>.fromOpaque(userdata).takeUnretainedValue()
    return stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
        ?? Int(CURL_READFUNC_ABORT)
}

private let easyHandleSeekCallback: curl_seek_callback = { userdata, offset, origin in
    guard origin == SEEK_SET, let delegate = delegate(of: userdata) else { return CURL_SEEKFUNC_CANTSEEK }
    return delegate.easyHandle(seekUploadTo: Int64(offset)) ? CURL_SEEKFUNC_OK : CURL_SEEKFUNC_FAIL
}

private let easyHandleProgressCallback: curl_xferinfo_callback = {
    userdata, downloadTotal, downloaded, uploadTotal, uploaded in
    guard let delegate = delegate(of: userdata) else { return 0 }
    return delegate.easyHandle(
        downloaded: Int64(downloaded), of: Int64(downloadTotal),
        uploaded: Int64(uploaded), of: Int64(uploadTotal)) ? 0 : 1
}

private let easyHandlePrereqCallback: curl_prereq_callback = { userdata, _, _, _, _ in
    guard let delegate = delegate(of: userdata) else { return Int32(CURL_PREREQFUNC_ABORT) }
    return delegate.easyHandleWillSendRequest() ? Int32(CURL_PREREQFUNC_OK) : Int32(CURL_PREREQFUNC_ABORT)
}

private let easyHandleDebugCallback: curl_debug_callback = { _, kind, data, size, userdata in
    guard let data, let delegate = delegate(of: userdata) else { return 0 }
    delegate.easyHandle(
        debug: kind,
        bytes: UnsafeBufferPointer(
            start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self),
            count: size))
    return 0
}
