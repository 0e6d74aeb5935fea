import CLITestSupport
import Foundation
import TestServers
import XCTest

/// `check --live` honours the TLS options `call` has (`--cacert`, `-k`, `--cert`, `--key`),
/// against `openssl s_server` with a throw-away certificate authority.
final class CheckTLSTests: XCTestCase {
    var server: TLSTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        guard TLSTestServer.opensslPath != nil else { throw XCTSkip("the openssl command is not installed") }
        server = try TLSTestServer(requiresClientCertificate: true)
        folder = try TemporaryFolder()
        try folder.write("targets/secure.yaml", CallTLSTests.targetFile(baseURL: server.baseURL))
    }

    override func tearDown() {
        server?.stop()
    }

    func check(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(["check", "secure", "--live"] + arguments, currentDirectory: folder.url, timeout: 30)
    }

    var clientCertificate: [String] { ["--cert", server.clientCertificateFile, "--key", server.clientKeyFile] }

    func testTrustedAuthorityAndClientCertificatePass() throws {
        let result = try check(["--cacert", server.certificateAuthorityFile] + clientCertificate)
        XCTAssertEqual(result.status, 0, result.stderr)
        let line = try XCTUnwrap(CheckFixtures.line("secure.root", in: result.stderr), result.stderr)
        XCTAssertTrue(line.contains(" pass         200"), line)
    }

    func testInsecureWithClientCertificatePasses() throws {
        let result = try check(["-k"] + clientCertificate)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testUnknownAuthorityFailsTheCheckWithTheCertificateProblem() throws {
        let result = try check(clientCertificate)
        XCTAssertEqual(result.status, 8, result.stderr)
        let line = try XCTUnwrap(CheckFixtures.line("secure.root", in: result.stderr), result.stderr)
        XCTAssertTrue(line.contains("fail"), line)
        XCTAssertTrue(result.stderr.contains("SSL certificate problem"), result.stderr)
    }

    func testWithoutClientCertificateFailsTheCheck() throws {
        let result = try check(["--cacert", server.certificateAuthorityFile])
        XCTAssertEqual(result.status, 8, result.stderr)
        XCTAssertTrue(result.stderr.contains("certificate required"), result.stderr)
    }

    func testKeyWithoutCertificateIsAUsageError() throws {
        let result = try check(["--key", server.clientKeyFile])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("--key needs --cert"), result.stderr)
    }
}
