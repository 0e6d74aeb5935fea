import MoyaKit
import Sending
import TargetModel
import TargetSpec

extension RequestOptions {
    /// `--cert-type` upper-cased, else `P12` for a `--cert` ending in `.p12` or `.pfx` (as the
    /// file is named, any case), else nil (libcurl's PEM).
    var clientCertificateType: String? {
        if let certType { return certType.uppercased() }
        return cert.flatMap(SessionConfiguration.certificateType(forFile:))
    }
}

extension SessionConfiguration {
    /// The transport settings the command line's request options give: redirects, TLS and proxy,
    /// and `--timeout`/`--idle-timeout`/`--connect-timeout` when given.
    init(request: RequestOptions) {
        self.init()
        if let timeout = request.timeout { self.timeout = timeout }
        if let idleTimeout = request.idleTimeout { self.idleTimeout = idleTimeout }
        if let connectTimeout = request.connectTimeout { self.connectTimeout = connectTimeout }
        apply(request.redirectPolicy ?? .follow)
        allowsInsecureConnections = request.insecure
        certificateAuthorityFile = request.cacert
        revocationListFile = request.crlfile
        clientCertificateFile = request.cert
        clientCertificateType = request.clientCertificateType
        clientKeyPassphrase = request.certPass
        clientKeyFile = request.key
        proxy = request.proxy
        pinnedPublicKeys = request.pinnedPublicKeys.flatMap { $0.split(separator: ";").map(String.init) }
        resolve = request.resolve.compactMap { try? ConnectionPinning.resolveEntry($0).get() }.map(
            ConnectionPinning.curlForm)
        connectTo = request.connectTo
        ipVersion = request.ipv4 ? .v4 : request.ipv6 ? .v6 : .any
        interface = request.interface
        maximumBytesPerSecond = request.limitRate.map { Int64($0.bytes) }
        minimumTLSVersion = request.tlsMin.flatMap(TLSVersion.init(rawValue:))
        maximumTLSVersion = request.tlsMax.flatMap(TLSVersion.init(rawValue:))
        ciphers = request.ciphers
        tls13Ciphers = request.tls13Ciphers
        keepsDotSegments = request.pathAsIs
    }

    /// The settings for `target`: the case's timeouts and redirects unless the command line's.
    init(request: RequestOptions, target: DynamicTarget) {
        self.init(request: request)
        timeout = request.timeout ?? target.timeout ?? 0
        idleTimeout = request.idleTimeout ?? target.idleTimeout
        connectTimeout = request.connectTimeout ?? target.connectTimeout
        apply(request.redirectPolicy ?? target.redirects)
    }
}
