import CurlTransport
import Foundation
import XCTest

/// What the HTTP/2 tests of the transport and of the provider share: nginx started for one test,
/// or the test skipped when nginx or openssl is missing, and sessions that trust its certificate.
public final class NginxHTTP2Fixture {
    /// The running nginx; a test's `tearDown` stops it.
    public let server: NginxTestServer

    /// Starts nginx, or throws `XCTSkip` naming what is missing (`make test` installs nginx-light).
    public init() throws {
        guard NginxTestServer.nginxPath != nil else {
            throw XCTSkip("nginx is not installed (make test installs nginx-light)")
        }
        guard TLSTestServer.opensslPath != nil else { throw XCTSkip("the openssl command is not installed") }
        server = try NginxTestServer()
    }

    /// A session with the HTTP version preference `version`, trusting the server's certificate.
    public func session(_ version: SessionConfiguration.HTTPVersionPreference) -> Session {
        var configuration = SessionConfiguration()
        configuration.httpVersion = version
        configuration.certificateAuthorityFile = server.certificateAuthorityFile
        return Session(configuration: configuration)
    }
}
