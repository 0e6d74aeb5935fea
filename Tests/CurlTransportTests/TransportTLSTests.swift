import CurlTransport
import Foundation
import TestServers
import XCTest

final class TransportTLSTests: XCTestCase {
    private var server: TLSTestServer!

    override func setUpWithError() throws {
        guard TLSTestServer.opensslPath != nil else { throw XCTSkip("the openssl command is not installed") }
        server = try TLSTestServer()
    }

    override func tearDown() {
        server?.stop()
    }

    private func session(_ configure: (inout SessionConfiguration) -> Void) -> Session {
        var configuration = SessionConfiguration()
        configure(&configuration)
        return Session(configuration: configuration)
    }

    func testUntrustedCertificateFailsVerification() throws {
        let error = try transportError(
            for: makeRequest(server.baseURL.appendingPathComponent("")), session: session { _ in })
        XCTAssertEqual(error.kind, .secureConnectionFailed, error.message)
    }

    func testTrustingTheAuthorityFileSucceeds() throws {
        let response = try response(
            to: makeRequest(server.baseURL.appendingPathComponent("")),
            session: session { $0.certificateAuthorityFile = server.certificateAuthorityFile })
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertGreaterThan(response.timing.tlsHandshake, 0)
        XCTAssertGreaterThanOrEqual(response.timing.tlsHandshake, response.timing.connect)
    }

    func testInsecureConnectionsSkipVerification() throws {
        let response = try response(
            to: makeRequest(server.baseURL.appendingPathComponent("")),
            session: session { $0.allowsInsecureConnections = true })
        XCTAssertEqual(response.head.statusCode, 200)
    }

    func testMissingAuthorityFileFailsAsSecureConnection() throws {
        let error = try transportError(
            for: makeRequest(server.baseURL.appendingPathComponent("")),
            session: session { $0.certificateAuthorityFile = "/nonexistent/ca.pem" })
        XCTAssertEqual(error.kind, .secureConnectionFailed, error.message)
    }
}
