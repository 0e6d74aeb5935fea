import CCurl

extension TransportError {
    /// Classifies a libcurl failure into the kinds callers act on (the CLI maps them to exit codes).
    init(curlCode code: CURLcode, message: String) {
        self.init(
            kind: Self.isTLSAlert(code, message: message) ? .secureConnectionFailed : Self.kind(of: code),
            message: message)
    }

    /// The failure for a response head libcurl would not read: a header line over its
    /// CURL_MAX_HTTP_HEADER (100 KB), or, from libcurl 8, a head over 300 KB in all. libcurl says
    /// "Out of memory" for it before 8.6, which would send a user looking for the wrong cause.
    static let headerTooLarge = TransportError(
        kind: .other,
        message: "the server sent a header line over libcurl's 100 KB limit "
            + "(or headers over its 300 KB total in libcurl 8 and later); the response cannot be read")

    /// Whether `code` is what libcurl reports for a head over its limits, when it happens while a
    /// head is being read: CURLE_OUT_OF_MEMORY before libcurl 8.6, CURLE_TOO_LARGE (100) from it
    /// (not in older headers, hence the number).
    static func isHeaderTooLarge(_ code: CURLcode) -> Bool {
        code == CURLE_OUT_OF_MEMORY || code.rawValue == 100
    }

    /// Whether a read or write failed because the peer sent a TLS alert, e.g. "tlsv13 alert
    /// certificate required": over TLS 1.3 a server refuses a client certificate only after the
    /// client's handshake is done, so libcurl reports it as a receive error. That is a TLS
    /// failure to fix (and not to retry), not a lost connection.
    private static func isTLSAlert(_ code: CURLcode, message: String) -> Bool {
        guard code == CURLE_RECV_ERROR || code == CURLE_SEND_ERROR else { return false }
        let text = message.lowercased()
        return text.contains("alert") && (text.contains("ssl") || text.contains("tls"))
    }

    private static func kind(of code: CURLcode) -> Kind {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .cannotResolveHost
        case CURLE_COULDNT_CONNECT:
            return .cannotConnect
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE,
            CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_HTTP3:
            return .connectionLost
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
            CURLE_SSL_SHUTDOWN_FAILED, CURLE_USE_SSL_FAILED, CURLE_SSL_CLIENTCERT:
            return .secureConnectionFailed
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .unsupportedProtocol
        case CURLE_READ_ERROR, CURLE_WRITE_ERROR, CURLE_FILE_COULDNT_READ_FILE:
            return .fileAccess
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        default:
            return .other
        }
    }
}
