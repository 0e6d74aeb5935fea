import Foundation
import MoyaKit
import TestServers
import XCTest

/// Client certificates through `MoyaProvider` against a local TLS server that demands one its
/// own throw-away authority signed.
final class ProviderIntegrationTLSClientCertificateTests: XCTestCase {
    private var server: TLSTestServer!

    override func setUpWithError() throws {
        guard TLSTestServer.opensslPath != nil else { throw XCTSkip("the openssl command is not installed") }
        server = try TLSTestServer(requiresClientCertificate: true)
    }

    override func tearDown() {
        server?.stop()
    }

    /// A provider that trusts the server's authority, configured further by `configure`.
    private func provider(_ configure: (inout SessionConfiguration) -> Void = { _ in }) -> MoyaProvider<SecureRoot> {
        var configuration = SessionConfiguration()
        configuration.certificateAuthorityFile = server.certificateAuthorityFile
        configure(&configuration)
        return MoyaProvider<SecureRoot>(session: Session(configuration: configuration))
    }

    func testClientCertificateIsAccepted() throws {
        let provider = provider {
            $0.clientCertificateFile = server.clientCertificateFile
            $0.clientKeyFile = server.clientKeyFile
        }
        let result = try XCTUnwrap(send(SecureRoot(baseURL: server.baseURL), with: provider, timeout: 20))
        let response = try result.get()
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertTrue(response.data.text.contains("MoyaKit Test Client"), response.data.text)
    }

    func testWithoutClientCertificateTheProviderFailsWithoutAResponse() throws {
        let result = try XCTUnwrap(send(SecureRoot(baseURL: server.baseURL), with: provider(), timeout: 20))
        let transportError = try XCTUnwrap(result.error?.transportError, "\(String(describing: result.error))")
        XCTAssertEqual(transportError.kind, .secureConnectionFailed, transportError.message)
        XCTAssertTrue(transportError.message.contains("certificate required"), transportError.message)
        XCTAssertNil(result.error?.response)
    }

    func testAsyncRequestWithClientCertificate() async throws {
        let provider = provider {
            $0.clientCertificateFile = server.clientCertificateFile
            $0.clientKeyFile = server.clientKeyFile
        }
        let response = try await provider.request(SecureRoot(baseURL: server.baseURL))
        XCTAssertEqual(response.statusCode, 200)
    }
}
