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
    /// A PEM file of certificate revocation lists: a server certificate it revokes fails the
    /// handshake (`secureConnectionFailed`).
    /// - SeeAlso: CURLOPT_CRLFILE
    public var revocationListFile: String?
    /// A PEM client certificate.
    public var clientCertificateFile: String?
    /// `P12` for a certificate file named `.p12` or `.pfx` (any case), else nil (PEM): the
    /// format `--cert` and a file's `tls: {clientCert}` are read in unless told.
    public static func certificateType(forFile file: String) -> String? {
        let name = file.lowercased()
        return name.hasSuffix(".p12") || name.hasSuffix(".pfx") ? "P12" : nil
    }

    /// The client certificate's format as libcurl names it (`PEM`, `DER`, `P12`); nil: PEM.
    /// - SeeAlso: CURLOPT_SSLCERTTYPE
    public var clientCertificateType: String?
    /// The passphrase of the client key, or of a PKCS#12 client certificate.
    /// - SeeAlso: CURLOPT_KEYPASSWD
    public var clientKeyPassphrase: String?
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

    /// `HOST:PORT:ADDRESS[,ADDRESS...]` entries: the addresses a host and port resolve to (curl's
    /// `--resolve`; TLS still verifies the certificate for HOST).
    /// - SeeAlso: CURLOPT_RESOLVE
    public var resolve: [String] = []
    /// `HOST1:PORT1:HOST2:PORT2` entries: a connection to HOST1:PORT1 goes to HOST2:PORT2 instead
    /// (curl's `--connect-to`; the request and TLS still name HOST1).
    /// - SeeAlso: CURLOPT_CONNECT_TO
    public var connectTo: [String] = []
    /// Which IP versions names resolve to.
    public enum IPVersion: Sendable, Hashable {
        /// Whatever the name has (the default).
        case any
        /// IPv4 only (curl's `-4`).
        case v4
        /// IPv6 only (curl's `-6`).
        case v6
    }
    /// Which IP versions names resolve to (`-4`, `-6`).
    /// - SeeAlso: CURLOPT_IPRESOLVE
    public var ipVersion: IPVersion = .any
    /// The network interface, local address or host name connections go out from (`--interface`).
    /// - SeeAlso: CURLOPT_INTERFACE
    public var interface: String?
    /// The most bytes per second a transfer receives and sends (`--limit-rate`); `nil`: no limit.
    /// - SeeAlso: CURLOPT_MAX_RECV_SPEED_LARGE, CURLOPT_MAX_SEND_SPEED_LARGE
    public var maximumBytesPerSecond: Int64?
    /// A TLS version.
    public enum TLSVersion: String, Sendable, Hashable, CaseIterable, Comparable {
        case v1_0 = "1.0"
        case v1_1 = "1.1"
        case v1_2 = "1.2"
        case v1_3 = "1.3"

        public static func < (lhs: TLSVersion, rhs: TLSVersion) -> Bool { lhs.rawValue < rhs.rawValue }
    }
    /// The oldest TLS version accepted (`--tlsv1.2`); `nil`: libcurl's default.
    public var minimumTLSVersion: TLSVersion?
    /// The newest TLS version offered (`--tls-max`); `nil`: the newest libcurl has.
    public var maximumTLSVersion: TLSVersion?
    /// The cipher list for TLS 1.2 and older (`--ciphers`), as OpenSSL names them.
    /// - SeeAlso: CURLOPT_SSL_CIPHER_LIST
    public var ciphers: String?
    /// The cipher suites for TLS 1.3 (`--tls13-ciphers`).
    /// - SeeAlso: CURLOPT_TLS13_CIPHERS
    public var tls13Ciphers: String?
    /// Whether `/../` and `/./` in a path are sent as they are (`--path-as-is`) instead of being
    /// squashed as RFC 3986 says.
    /// - SeeAlso: CURLOPT_PATH_AS_IS
    public var keepsDotSegments: Bool = false

    /// The longest timeout or delay accepted, in seconds (2^31 - 1 milliseconds, about 24.8 days):
    /// what libcurl and a sleeping thread can be given without overflowing.
    public static let maximumInterval: TimeInterval = 2_147_483

    /// Creates the default configuration.
    public init() {}
}
