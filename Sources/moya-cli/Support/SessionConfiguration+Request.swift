import MoyaKit
import TargetSpec

extension SessionConfiguration {
    /// The transport settings for `target` under the command line's request options: the
    /// case's timeouts unless `--timeout`/`--connect-timeout`, redirects, TLS and proxy.
    init(request: RequestOptions, target: DynamicTarget) {
        self.init()
        timeout = request.timeout ?? target.timeout
        connectTimeout = request.connectTimeout ?? target.connectTimeout
        followRedirects = !request.noFollow
        maximumRedirects = request.maxRedirects
        allowsInsecureConnections = request.insecure
        certificateAuthorityFile = request.cacert
        clientCertificateFile = request.cert
        clientKeyFile = request.key
        proxy = request.proxy
    }
}
