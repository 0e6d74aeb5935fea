import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 46 item 8: a PKCS#12 client certificate (`--cert-type P12`, or a `.p12`/`.pfx` name)
/// with its passphrase in `--cert-pass` (curl's `--pass`), which nothing printed shows.
final class PKCS12CertificateTests: XCTestCase {
    var server: TLSTestServer!
    var folder: TemporaryFolder!
    let passphrase = "p12-s3cret-phrase"

    override func setUpWithError() throws {
        guard let openssl = TLSTestServer.opensslPath else { throw XCTSkip("the openssl command is not installed") }
        server = try TLSTestServer(requiresClientCertificate: true)
        folder = try TemporaryFolder()
        try folder.write("targets/secure.yaml", CallTLSTests.targetFile(baseURL: server.baseURL))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = [
            "pkcs12", "-export", "-in", server.clientCertificateFile, "-inkey", server.clientKeyFile,
            "-out", folder.url.path + "/client.p12", "-passout", "pass:" + passphrase
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("openssl pkcs12 -export failed") }
        try FileManager.default.copyItem(
            atPath: folder.url.path + "/client.p12", toPath: folder.url.path + "/client.bin")
    }

    override func tearDown() {
        server?.stop()
    }

    private func run(_ command: String, _ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(
            [command, "secure", "root", "--cacert", server.certificateAuthorityFile] + arguments,
            currentDirectory: folder.url, timeout: 30)
    }

    func testAPKCS12CertificateWithItsPassphraseIsAccepted() throws {
        let named = try run("call", ["--cert", "client.p12", "--cert-pass", passphrase, "-v"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertTrue(named.stdout.contains("MoyaKit Test Client"), named.stdout)
        XCTAssertFalse(named.stderr.contains(passphrase), named.stderr)
        let typed = try run("call", ["--cert", "client.bin", "--cert-type", "p12", "--cert-pass", passphrase])
        XCTAssertEqual(typed.status, 0, typed.stderr)
        let wrong = try run("call", ["--cert", "client.p12", "--cert-pass", "not-it"])
        XCTAssertEqual(wrong.status, 1, wrong.stderr)
        let untyped = try run("call", ["--cert", "client.bin", "--cert-pass", passphrase])
        XCTAssertEqual(untyped.status, 1, "read as PEM: \(untyped.stderr)")
        let printed = try run("curl", ["--cert", "client.p12", "--cert-pass", passphrase])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertTrue(printed.stdout.contains("--cert-type 'P12'"), printed.stdout)
        XCTAssertTrue(printed.stdout.contains("--pass "), printed.stdout)
        XCTAssertFalse(printed.stdout.contains(passphrase), printed.stdout)
        let unknown = try run("call", ["--cert", "client.p12", "--cert-type", "JKS"])
        XCTAssertEqual(unknown.status, 64, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("--cert-type 'JKS' is not a type; use PEM, DER or P12"), unknown.stderr)
        XCTAssertEqual(try run("call", ["--cert-type", "P12"]).status, 64, "--cert-type needs --cert")
    }

    func testATrustedFileNamesItsClientCertificate() throws {
        try FileManager.default.copyItem(
            atPath: server.clientCertificateFile, toPath: folder.url.path + "/targets/client.pem")
        try FileManager.default.copyItem(atPath: server.clientKeyFile, toPath: folder.url.path + "/targets/client.key")
        try folder.write(
            "targets/secure.yaml",
            CallTLSTests.targetFile(baseURL: server.baseURL)
                + "\ntls: {clientCert: client.pem, clientKey: client.key}\n")
        let trusted = ["MOYA_TRUSTED_TARGETS": folder.url.appendingPathComponent("targets").path]
        let sent = try CLIRunner.run(
            ["call", "secure", "root", "--cacert", server.certificateAuthorityFile], environment: trusted,
            currentDirectory: folder.url, timeout: 30)
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(sent.stdout.contains("MoyaKit Test Client"), sent.stdout)
        let refused = try run("call", [])
        XCTAssertEqual(refused.status, 7, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("only a trusted file may use"), refused.stderr)
        // The command line's certificate wins over the file's.
        let replaced = try CLIRunner.run(
            [
                "call", "secure", "root", "--cacert", server.certificateAuthorityFile, "--cert", "client.p12",
                "--cert-pass",
                passphrase
            ], environment: trusted, currentDirectory: folder.url, timeout: 30)
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        let keyAlone = folder.url.path + "/targets/secure.yaml"
        try folder.write(
            "targets/secure.yaml", CallTLSTests.targetFile(baseURL: server.baseURL) + "\ntls: {clientKey: client.key}\n"
        )
        let invalid = try CLIRunner.run(["validate", keyAlone], currentDirectory: folder.url)
        XCTAssertEqual(invalid.status, 65, invalid.stderr)
        XCTAssertTrue(invalid.stderr.contains("tls clientKey needs clientCert"), invalid.stderr)
    }
}
