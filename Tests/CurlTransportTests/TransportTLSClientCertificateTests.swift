import CurlTransport
import Foundation
import TestServers
import XCTest

/// Client certificates (`SessionConfiguration.clientCertificateFile`/`clientKeyFile`) against an
/// `openssl s_server` that demands one its own authority signed.
final class TransportTLSClientCertificateTests: XCTestCase {
    private var server: TLSTestServer!

    override func setUpWithError() throws {
        guard TLSTestServer.opensslPath != nil else { throw XCTSkip("the openssl command is not installed") }
        server = try TLSTestServer(requiresClientCertificate: true)
    }

    override func tearDown() {
        server?.stop()
    }

    /// A session that trusts the server's authority, configured further by `configure`.
    private func session(_ configure: (inout SessionConfiguration) -> Void = { _ in }) -> Session {
        var configuration = SessionConfiguration()
        configuration.certificateAuthorityFile = server.certificateAuthorityFile
        configure(&configuration)
        return Session(configuration: configuration)
    }

    private var rootRequest: URLRequest { makeRequest(server.baseURL.appendingPathComponent("")) }

    func testClientCertificateSignedByTheAuthorityIsAccepted() throws {
        let response = try response(
            to: rootRequest,
            session: session {
                $0.clientCertificateFile = server.clientCertificateFile
                $0.clientKeyFile = server.clientKeyFile
            })
        XCTAssertEqual(response.head.statusCode, 200)
        // The status page of `s_server -www` lists the client certificate it verified.
        XCTAssertTrue(
            String(decoding: response.body, as: UTF8.self).contains("MoyaKit Test Client"),
            String(decoding: response.body, as: UTF8.self))
    }

    func testNoClientCertificateIsASecureConnectionFailureThatSaysWhy() throws {
        // Over TLS 1.3 the client finishes its handshake before the server checks the client's
        // certificate, so libcurl only learns of the refusal (a "certificate required" alert)
        // when it reads the answer: CURLE_RECV_ERROR, which must not read as a lost connection.
        let error = try transportError(for: rootRequest, session: session())
        XCTAssertEqual(error.kind, .secureConnectionFailed, error.message)
        XCTAssertTrue(error.message.contains("certificate required"), error.message)
    }

    func testClientCertificateOfAnotherAuthorityIsRefused() throws {
        let folder = try makeTemporaryFolder()
        let stranger = try TLSTestServer.makeCertificates(in: folder)
        let error = try transportError(
            for: rootRequest,
            session: session {
                $0.clientCertificateFile = stranger.clientCertificateFile
                $0.clientKeyFile = stranger.clientKeyFile
            })
        XCTAssertEqual(error.kind, .secureConnectionFailed, error.message)
        XCTAssertTrue(error.message.contains("unknown ca"), error.message)
    }

    func testMissingClientCertificateFileFailsBeforeSending() throws {
        let error = try transportError(
            for: rootRequest,
            session: session {
                $0.clientCertificateFile = "/nonexistent/client.pem"
                $0.clientKeyFile = server.clientKeyFile
            })
        XCTAssertEqual(error.kind, .secureConnectionFailed, error.message)
        XCTAssertTrue(error.message.contains("/nonexistent/client.pem"), error.message)
    }

    func testKeyThatDoesNotMatchTheCertificateFails() throws {
        let folder = try makeTemporaryFolder()
        let stranger = try TLSTestServer.makeCertificates(in: folder)
        let error = try transportError(
            for: rootRequest,
            session: session {
                $0.clientCertificateFile = server.clientCertificateFile
                $0.clientKeyFile = stranger.clientKeyFile
            })
        XCTAssertEqual(error.kind, .secureConnectionFailed, error.message)
        XCTAssertTrue(error.message.contains("private key"), error.message)
    }

    func testServerStillServesAfterARefusedClient() throws {
        _ = try transportError(for: rootRequest, session: session())
        let response = try response(
            to: rootRequest,
            session: session {
                $0.clientCertificateFile = server.clientCertificateFile
                $0.clientKeyFile = server.clientKeyFile
            })
        XCTAssertEqual(response.head.statusCode, 200)
    }
}
