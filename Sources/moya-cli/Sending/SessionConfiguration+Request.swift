import MoyaKit
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
    /// and `--timeout`/`--connect-timeout` when given.
    init(request: RequestOptions) {
        self.init()
        if let timeout = request.timeout { self.timeout = timeout }
        if let connectTimeout = request.connectTimeout { self.connectTimeout = connectTimeout }
        followRedirects = !request.noFollow
        maximumRedirects = request.maxRedirects
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

    /// The settings for `target`: the case's timeouts unless `--timeout`/`--connect-timeout`.
    init(request: RequestOptions, target: DynamicTarget) {
        self.init(request: request)
        timeout = request.timeout ?? target.timeout
        connectTimeout = request.connectTimeout ?? target.connectTimeout
    }
}
