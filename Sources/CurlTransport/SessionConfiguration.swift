#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The settings of a `Session`: timeouts, redirects, TLS, proxy and cookies.
public struct SessionConfiguration: Sendable, Hashable {
    /// Which HTTP version to speak.
    public enum HTTPVersionPreference: Sendable, Hashable {
        /// HTTP/2 over TLS when the server offers it, HTTP/1.1 otherwise.
        case automatic
        /// HTTP/1.1 only.
        case http1_1
        /// HTTP/2, also over cleartext (prior knowledge).
        case http2
    }

    /// The total time a request may take, in seconds; 0: no total limit (the default, as
    /// URLSession's resource timeout is days long), so a long transfer that keeps moving is never
    /// cut: `idleTimeout` ends a stalled one.
    /// - SeeAlso: CURLOPT_TIMEOUT_MS
    public var timeout: TimeInterval = 0
    /// The longest a request may go without a byte sent or received, in seconds (URLSession's
    /// `timeoutIntervalForRequest`, and `URLRequest.timeoutInterval`: the tighter wins); 0: none.
    /// - SeeAlso: CURLOPT_LOW_SPEED_LIMIT, CURLOPT_LOW_SPEED_TIME
    public var idleTimeout: TimeInterval = 60
    /// The time connecting may take, in seconds.
    public var connectTimeout: TimeInterval = 10
    /// Whether redirects are followed.
    public var followRedirects: Bool = true
    /// How many redirects are followed before failing with `tooManyRedirects`.
    public var maximumRedirects: Int = 10
    /// Whether TLS certificates go unverified (`--insecure`).
    public var allowsInsecureConnections: Bool = false
    /// A PEM file of certificate authorities to trust instead of the system's.
    public var certificateAuthorityFile: String?
    /// A PEM client certificate.
    public var clientCertificateFile: String?
    /// The private key of the client certificate.
    public var clientKeyFile: String?
    /// The public keys a server's certificate may have, as `sha256//` and the base64 SHA-256 of
    /// its DER SubjectPublicKeyInfo; empty: any key. A certificate with another key fails before
    /// anything is sent (`secureConnectionFailed`), verified or not: a pin only narrows.
    /// - SeeAlso: CURLOPT_PINNEDPUBLICKEY
    public var pinnedPublicKeys: [String] = []
    /// A proxy URL; `nil` uses `http_proxy`, `https_proxy` and `no_proxy` from the environment.
    public var proxy: String?
    /// The HTTP version to speak.
    public var httpVersion: HTTPVersionPreference = .automatic
    /// Whether compressed responses are asked for (`Accept-Encoding` with what libcurl decodes:
    /// gzip, deflate, and br or zstd when built in) and decoded, as Alamofire does under Moya. The
    /// body handed on is the decoded one, so a body-size limit counts decoded bytes.
    public var acceptsCompressedResponses: Bool = true
    /// Where cookies are kept and sent from (libcurl's cookie engine), shared by every session
    /// given the same store; `nil`: none kept or sent, but those a request sets itself.
    public var cookieStore: CookieStore?

    /// The longest timeout or delay accepted, in seconds (2^31 - 1 milliseconds, about 24.8 days):
    /// what libcurl and a sleeping thread can be given without overflowing.
    public static let maximumInterval: TimeInterval = 2_147_483

    /// Creates the default configuration.
    public init() {}
}
