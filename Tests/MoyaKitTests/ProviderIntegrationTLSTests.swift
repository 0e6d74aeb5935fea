import Foundation
import MoyaKit
import TestServers
import XCTest

/// HTTPS through `MoyaProvider` against a local TLS server whose certificate a throw-away
/// authority signed.
final class ProviderIntegrationTLSTests: XCTestCase {
    private var server: TLSTestServer!

    override func setUpWithError() throws {
        guard TLSTestServer.opensslPath != nil else { throw XCTSkip("the openssl command is not installed") }
        server = try TLSTestServer()
    }

    override func tearDown() {
        server?.stop()
    }

    private func provider(_ configure: (inout SessionConfiguration) -> Void) -> MoyaProvider<SecureRoot> {
        var configuration = SessionConfiguration()
        configure(&configuration)
        return MoyaProvider<SecureRoot>(session: Session(configuration: configuration))
    }

    func testTrustingTheAuthoritySucceeds() throws {
        let result = try XCTUnwrap(
            send(
                SecureRoot(baseURL: server.baseURL),
                with: provider { $0.certificateAuthorityFile = server.certificateAuthorityFile }, timeout: 20))
        let response = try result.get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertTrue(
            response.data.text.contains("<HTML>") || response.data.text.contains("<html>"), response.data.text)
        XCTAssertGreaterThan(try XCTUnwrap(response.timing).tlsHandshake, 0)
    }

    func testAnUnknownAuthorityFails() throws {
        let result = try XCTUnwrap(send(SecureRoot(baseURL: server.baseURL), with: provider { _ in }, timeout: 20))
        XCTAssertEqual(
            result.error?.transportError?.kind, .secureConnectionFailed, "\(String(describing: result.error))")
        XCTAssertNil(result.error?.response)
    }

    func testInsecureConnectionsSucceedWithoutTheAuthority() throws {
        let result = try XCTUnwrap(
            send(
                SecureRoot(baseURL: server.baseURL), with: provider { $0.allowsInsecureConnections = true },
                timeout: 20))
        XCTAssertEqual(result.response?.statusCode, 200)
    }

    func testAsyncOverHTTPS() async throws {
        let provider = provider { $0.certificateAuthorityFile = server.certificateAuthorityFile }
        let response = try await provider.request(SecureRoot(baseURL: server.baseURL))
        XCTAssertEqual(response.response?.url?.scheme, "https")
    }
}
