import CCurl

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension EasyHandle {
    /// What `configure` sets for a request without a body, but its URL. A handle configured for
    /// one takes the next request of an equal shape with its URL alone: a sweep of thousands of
    /// GETs sets each handle's two dozen options once rather than once a request (about a tenth of
    /// the work of a check).
    ///
    /// Every input of `configure` but the URL is here: an input added to `configure` must be
    /// added to the shape too, or a handle would carry it over to a request that differs in it.
    struct RequestShape: Equatable {
        let method: String
        let headerLines: [String]
        let configuration: SessionConfiguration
        let timeoutInterval: TimeInterval
        /// Whether `CURLOPT_PIPEWAIT` is set, which depends on the URL's scheme.
        let multiplexes: Bool
        /// Whether libcurl calls back before each request (secrets on a request that follows
        /// redirects) and reports what it sends (`-v`): callbacks whose data is the handle, so
        /// they serve any transfer that uses it.
        let checksEachRequest: Bool
        let traces: Bool

        /// The shape of `request` sent to `url`, or `nil` when libcurl sends it with a body (which
        /// it takes from options set per request), or answers a Digest challenge: libcurl keeps the
        /// last challenge's nonce in the handle and would answer the next request with it
        /// unasked (another URL's, another host's), so such a handle is reset before its next use.
        init?(
            request: URLRequest, url: String, configuration: SessionConfiguration, headerLines: [String],
            checksEachRequest: Bool, traces: Bool
        ) {
            guard !EasyHandle.sendsBody(request), request.digestCredential == nil else { return nil }
            method = request.httpMethod ?? "GET"
            self.headerLines = headerLines
            self.configuration = configuration
            timeoutInterval = request.timeoutInterval
            multiplexes = EasyHandle.mayMultiplex(url: url, version: configuration.httpVersion)
            self.checksEachRequest = checksEachRequest
            self.traces = traces
        }

        /// `self == other`, with both borrowed.
        func isEqual(to other: RequestShape) -> Bool {
            self == other
        }
    }

    /// Whether libcurl sends `request` with a body (see `configureMethodAndBody`): a POST, a body
    /// from memory (even empty), a file or a form, unless it is a HEAD.
    static func sendsBody(_ request: URLRequest) -> Bool {
        let method = request.httpMethod ?? "GET"
        return method != "HEAD"
            && (method == "POST" || request.httpBody != nil || request.bodyFileURL != nil
                || request.multipartParts != nil)
    }

    /// Sets the options that send `request` with `configuration`'s settings; `headerLines` are
    /// `headerLines(of: request)`, and `shape` the request's shape, kept for the handle's reuse.
    /// `checksEachRequest`: libcurl calls `easyHandleWillSendRequest` before each request;
    /// `traces`: it reports what it sends and receives.
    ///
    /// `uploadSize` is the size of the streamed body file, if the request has one
    /// (`unknownSize` for a stream, sent chunked). Returns
    /// whether libcurl checks each request: not when one older than 7.80 cannot, and then no
    /// redirect is followed, rather than one that would carry the request's secrets elsewhere.
    func configure(
        for request: URLRequest, url: String, configuration: SessionConfiguration, uploadSize: Int64?,
        headerLines: [String], checksEachRequest: Bool, traces: Bool, shape: RequestShape?
    ) throws(TransportError) -> Bool {
        try configureOptions(
            for: request, url: url, configuration: configuration, uploadSize: uploadSize, headerLines: headerLines)
        var checks = false
        if checksEachRequest {
            checks = setChecksEachRequest()
            if !checks { try set(CURLOPT_FOLLOWLOCATION, 0) }
        }
        if traces { try setTraces() }
        // Set last: every setter above forgot the shape. A handle that cannot check each request
        // has no shape to reuse.
        markConfigured(checks == checksEachRequest ? shape : nil)
        return checks
    }

    private func configureOptions(
        for request: URLRequest, url: String, configuration: SessionConfiguration, uploadSize: Int64?,
        headerLines: [String]
    ) throws(TransportError) {
        try set(url: url)
        try configureMethodAndBody(of: request, uploadSize: uploadSize)
        try set(headerLines: headerLines)
        try configureTimeouts(configuration: configuration, request: request)
        try configureRedirects(configuration: configuration)
        try configureSecurity(configuration: configuration)
        try configureCookies(store: configuration.cookieStore)
        try configureConnection(configuration: configuration)
        if let credential = request.digestCredential {
            try set(CURLOPT_HTTPAUTH, ccurl_auth_digest())
            try set(CURLOPT_USERNAME, credential.user)
            try set(CURLOPT_PASSWORD, credential.password)
        }
        if let proxy = configuration.proxy {
            try set(CURLOPT_PROXY, proxy)
        }
        if configuration.acceptsCompressedResponses {
            // "": every encoding this libcurl can decode, sent as Accept-Encoding (unless the
            // request sets its own) and decoded before the body reaches the write callback.
            try set(CURLOPT_ACCEPT_ENCODING, "")
        }
        switch configuration.httpVersion {
        case .automatic: try set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        case .http1_1: try set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
        case .http2: try set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE)
        }
        if Self.mayMultiplex(url: url, version: configuration.httpVersion) {
            // Without this, a burst of requests to a new host opens a connection each (up to the
            // per-host limit) before the first one learns that HTTP/2 could carry them all; with
            // it, they wait for that first connection and become its streams. Not for HTTP/1.1,
            // where waiting would only serialize the burst behind the first response.
            try set(CURLOPT_PIPEWAIT, 1)
        }
        try set(CURLOPT_BUFFERSIZE, Self.receiveBufferSize)
        // The upload buffer stays at libcurl's 64 KiB, as curl's: it stays in the CPU cache,
        // where 256 KiB made a 1 GiB upload from the page cache about 1.7x slower than curl.
    }

    /// The size of an upload that has none (a stream): libcurl then sends it chunked over
    /// HTTP/1.1, as a DATA stream over HTTP/2.
    static let unknownSize: Int64 = -1

    /// The receive buffer's size: larger than libcurl's 16 KiB default, for far fewer callbacks on
    /// big downloads (curl uses 100 KiB).
    /// - SeeAlso: CURLOPT_BUFFERSIZE
    static let receiveBufferSize = 128 * 1024

    /// Whether a transfer of `url` may become a stream of a shared HTTP/2 connection: with prior
    /// knowledge always, automatically only over TLS (libcurl offers HTTP/2 there by ALPN alone).
    static func mayMultiplex(url: String, version: SessionConfiguration.HTTPVersionPreference) -> Bool {
        switch version {
        case .http2: true
        case .automatic: url.prefix(6).lowercased() == "https:"
        case .http1_1: false
        }
    }

    /// Chooses libcurl's method options so its own redirect rules apply: a POST made with
    /// CURLOPT_POST becomes a GET after a 301/302/303, where CURLOPT_CUSTOMREQUEST would repeat it.
    /// - SeeAlso: CURLOPT_HTTPGET, CURLOPT_NOBODY, CURLOPT_POST, CURLOPT_UPLOAD, CURLOPT_CUSTOMREQUEST
    private func configureMethodAndBody(of request: URLRequest, uploadSize: Int64?) throws(TransportError) {
        let method = request.httpMethod ?? "GET"
        if method == "HEAD" {
            try set(CURLOPT_NOBODY, 1)
        } else if let uploadSize {
            try set(streamsRequestBody: true)
            if method == "POST" {
                try set(CURLOPT_POST, 1)
                try set(CURLOPT_POSTFIELDSIZE_LARGE, offset: uploadSize)
            } else {
                try set(CURLOPT_UPLOAD, 1)
                try set(CURLOPT_INFILESIZE_LARGE, offset: uploadSize)
                if method != "PUT" { try set(CURLOPT_CUSTOMREQUEST, method) }
            }
        } else if let parts = request.multipartParts {
            try set(multipartParts: parts, streamedPaths: request.streamedFilePaths)
            if method != "POST" { try set(CURLOPT_CUSTOMREQUEST, method) }
        } else if request.httpBody != nil || method == "POST" {
            // A POST without a body still sends an empty one, with Content-Length: 0.
            let body = request.httpBody ?? Data()
            try set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count))
            try set(copyingPostFields: body)
            if method != "POST" { try set(CURLOPT_CUSTOMREQUEST, method) }
        } else if method == "GET" {
            try set(CURLOPT_HTTPGET, 1)
        } else {
            try set(CURLOPT_CUSTOMREQUEST, method)
        }
    }

    /// The request's fields as libcurl header lines, in order, repeated names kept; then
    /// `Accept-Encoding: acceptEncoding` unless the request sets its own.
    static func headerLines(of request: URLRequest, acceptEncoding: String?) -> [String] {
        var lines: [String] = []
        var setsExpect = false
        var setsContentType = false
        var setsAcceptEncoding = false
        for field in request.headers {
            if field.name == .expect { setsExpect = true }
            if field.name == .contentType { setsContentType = true }
            if field.name == .acceptEncoding { setsAcceptEncoding = true }
            // `Name;` is libcurl's spelling of a field sent with an empty value.
            lines.append(field.value.isEmpty ? "\(field.name.rawName);" : "\(field.name.rawName): \(field.value)")
        }
        // The two fields below are ones libcurl adds only to a request it sends a body with: for
        // any other the lines would change nothing on the wire, while libcurl compares every line
        // with each field it may add itself, for every request.
        let sendsBody = Self.sendsBody(request)
        // libcurl would otherwise send `Expect: 100-continue` before large bodies and wait up to a
        // second for a server that may never answer it.
        if sendsBody && !setsExpect { lines.append("Expect:") }
        // libcurl labels any POST body `application/x-www-form-urlencoded`; an empty body
        // (a POST whose parameters went to the query, say) has no type to claim.
        let hasBody =
            request.bodyFileURL != nil || request.multipartParts != nil || !(request.httpBody?.isEmpty ?? true)
        if sendsBody && !hasBody && !setsContentType { lines.append("Content-Type:") }
        if let acceptEncoding, !setsAcceptEncoding { lines.append("Accept-Encoding: " + acceptEncoding) }
        return lines
    }

    /// The idle limit of `request` under `configuration`: the tighter of the session's and the
    /// request's; 0 or less means none.
    static func idleTimeout(configuration: SessionConfiguration, request: URLRequest) -> TimeInterval? {
        [configuration.idleTimeout, request.timeoutInterval].filter { $0 > 0 }.min()
    }

    /// The total limit, if any; the idle one as libcurl's low-speed limit (less than a byte a
    /// second for that many whole seconds), which also has libcurl call the progress callback
    /// every second while nothing moves, where `Transfer` checks the idle limit to the
    /// millisecond.
    /// - SeeAlso: CURLOPT_TIMEOUT_MS, CURLOPT_CONNECTTIMEOUT_MS, CURLOPT_LOW_SPEED_LIMIT, CURLOPT_LOW_SPEED_TIME
    private func configureTimeouts(configuration: SessionConfiguration, request: URLRequest) throws(TransportError) {
        if configuration.timeout > 0 {
            try set(CURLOPT_TIMEOUT_MS, Self.milliseconds(configuration.timeout))
        }
        if let idle = Self.idleTimeout(configuration: configuration, request: request) {
            try set(CURLOPT_LOW_SPEED_LIMIT, 1)
            try set(CURLOPT_LOW_SPEED_TIME, Self.wholeSeconds(idle))
        }
        if configuration.connectTimeout > 0 {
            try set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(configuration.connectTimeout))
        }
    }

    /// `seconds` rounded up to whole seconds, at least 1: what CURLOPT_LOW_SPEED_TIME takes.
    static func wholeSeconds(_ seconds: TimeInterval) -> Int {
        max(1, Int(seconds.rounded(.up).clamped(to: 0...Double(Int32.max))))
    }

    /// - SeeAlso: CURLOPT_FOLLOWLOCATION, CURLOPT_MAXREDIRS
    private func configureRedirects(configuration: SessionConfiguration) throws(TransportError) {
        try set(CURLOPT_FOLLOWLOCATION, configuration.followRedirects ? 1 : 0)
        try set(CURLOPT_MAXREDIRS, max(0, configuration.maximumRedirects))
    }

    /// - SeeAlso: CURLOPT_SSL_VERIFYPEER, CURLOPT_SSL_VERIFYHOST, CURLOPT_CAINFO, CURLOPT_CRLFILE, CURLOPT_SSLCERT,
    ///   CURLOPT_SSLCERTTYPE, CURLOPT_KEYPASSWD, CURLOPT_SSLKEY, CURLOPT_PINNEDPUBLICKEY
    private func configureSecurity(configuration: SessionConfiguration) throws(TransportError) {
        let verifies = !configuration.allowsInsecureConnections
        try set(CURLOPT_SSL_VERIFYPEER, verifies ? 1 : 0)
        try set(CURLOPT_SSL_VERIFYHOST, verifies ? 2 : 0)
        if let file = configuration.certificateAuthorityFile { try set(CURLOPT_CAINFO, file) }
        if let file = configuration.revocationListFile { try set(CURLOPT_CRLFILE, file) }
        if let file = configuration.clientCertificateFile { try set(CURLOPT_SSLCERT, file) }
        if let type = configuration.clientCertificateType { try set(CURLOPT_SSLCERTTYPE, type) }
        if let passphrase = configuration.clientKeyPassphrase { try set(CURLOPT_KEYPASSWD, passphrase) }
        if let file = configuration.clientKeyFile { try set(CURLOPT_SSLKEY, file) }
        if !configuration.pinnedPublicKeys.isEmpty {
            try set(CURLOPT_PINNEDPUBLICKEY, configuration.pinnedPublicKeys.joined(separator: ";"))
        }
    }

    /// Where connections go and how fast transfers may be: `--resolve`, `--connect-to`, `-4`/`-6`,
    /// `--interface`, `--limit-rate`, the TLS versions and ciphers, `--path-as-is`.
    /// - SeeAlso: CURLOPT_RESOLVE, CURLOPT_CONNECT_TO, CURLOPT_IPRESOLVE, CURLOPT_INTERFACE,
    ///   CURLOPT_MAX_RECV_SPEED_LARGE, CURLOPT_SSLVERSION, CURLOPT_SSL_CIPHER_LIST, CURLOPT_PATH_AS_IS
    private func configureConnection(configuration: SessionConfiguration) throws(TransportError) {
        if !configuration.resolve.isEmpty { try set(CURLOPT_RESOLVE, lines: configuration.resolve) }
        if !configuration.connectTo.isEmpty { try set(CURLOPT_CONNECT_TO, lines: configuration.connectTo) }
        switch configuration.ipVersion {
        case .any: break
        case .v4: try set(CURLOPT_IPRESOLVE, Int(CURL_IPRESOLVE_V4))
        case .v6: try set(CURLOPT_IPRESOLVE, Int(CURL_IPRESOLVE_V6))
        }
        if let interface = configuration.interface { try set(CURLOPT_INTERFACE, interface) }
        if let rate = configuration.maximumBytesPerSecond {
            try set(CURLOPT_MAX_RECV_SPEED_LARGE, offset: rate)
            try set(CURLOPT_MAX_SEND_SPEED_LARGE, offset: rate)
        }
        if configuration.minimumTLSVersion != nil || configuration.maximumTLSVersion != nil {
            let minimum: Int =
                switch configuration.minimumTLSVersion {
                case nil: Int(CURL_SSLVERSION_DEFAULT)
                case .v1_0?: Int(CURL_SSLVERSION_TLSv1_0)
                case .v1_1?: Int(CURL_SSLVERSION_TLSv1_1)
                case .v1_2?: Int(CURL_SSLVERSION_TLSv1_2)
                case .v1_3?: Int(CURL_SSLVERSION_TLSv1_3)
                }
            let maximum: Int =
                switch configuration.maximumTLSVersion {
                case nil: Int(CURL_SSLVERSION_MAX_DEFAULT)
                case .v1_0?: Int(CURL_SSLVERSION_MAX_TLSv1_0)
                case .v1_1?: Int(CURL_SSLVERSION_MAX_TLSv1_1)
                case .v1_2?: Int(CURL_SSLVERSION_MAX_TLSv1_2)
                case .v1_3?: Int(CURL_SSLVERSION_MAX_TLSv1_3)
                }
            try set(CURLOPT_SSLVERSION, minimum | maximum)
        }
        if let ciphers = configuration.ciphers { try set(CURLOPT_SSL_CIPHER_LIST, ciphers) }
        if let ciphers = configuration.tls13Ciphers { try set(CURLOPT_TLS13_CIPHERS, ciphers) }
        if configuration.keepsDotSegments { try set(CURLOPT_PATH_AS_IS, 1) }
    }

    /// Attaches the handle to `store`'s cookies, or to none. Always set: `curl_easy_reset` keeps
    /// the share a handle had, so a handle kept for reuse would otherwise carry one store's
    /// cookies to a request of another session.
    /// - SeeAlso: CURLOPT_SHARE, CURLOPT_COOKIEFILE
    private func configureCookies(store: CookieStore?) throws(TransportError) {
        forgetShape()
        let share = try store?.shareHandle(curl: curl)
        try check(ccurl_easy_setopt_ptr(curl.api, rawHandle, CURLOPT_SHARE, share), "CURLOPT_SHARE")
        // "": the cookie engine on, reading no file; the share holds the cookies.
        if share != nil { try set(CURLOPT_COOKIEFILE, "") }
    }

    private static func milliseconds(_ seconds: TimeInterval) -> Int {
        // At least 1 ms: 0 would mean "no limit" to libcurl.
        max(1, Int((seconds * 1000).rounded(.up).clamped(to: 0...Double(Int32.max))))
    }
}

private extension Double {
    func clamped(to range: ClosedRange<Double>) -> Double {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
