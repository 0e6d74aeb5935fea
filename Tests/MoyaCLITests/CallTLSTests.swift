import CLITestSupport
import Foundation
import TestServers
import XCTest

/// The TLS options (`--cacert`, `-k/--insecure`, `--cert`, `--key`) of `call` and `curl`, run as
/// a user would against `openssl s_server` with a throw-away certificate authority.
final class CallTLSTests: XCTestCase {
    var server: TLSTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        guard TLSTestServer.opensslPath != nil else { throw XCTSkip("the openssl command is not installed") }
        server = try TLSTestServer()
        folder = try TemporaryFolder()
        try folder.write("targets/secure.yaml", Self.targetFile(baseURL: server.baseURL))
    }

    override func tearDown() {
        server?.stop()
    }

    /// An API whose base URL is the TLS server; `s_server -www` answers any GET with a status page.
    static func targetFile(baseURL: URL) -> String {
        """
        api: secure
        baseURL: \(baseURL.absoluteString)
        validation: successCodes
        timeout: 10
        cases:
          root:
            path: /
            sample: {text: "<HTML>"}
        """
    }

    func call(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(["call", "secure", "root"] + arguments, currentDirectory: folder.url, timeout: 30)
    }

    /// A server that refuses clients without a certificate its authority signed, and the
    /// arguments that point `call` at it and make it trust that authority.
    func clientCertificateServer() throws -> (server: TLSTestServer, arguments: [String]) {
        let strict = try TLSTestServer(requiresClientCertificate: true)
        addTeardownBlock { strict.stop() }
        return (strict, ["--base-url", strict.baseURL.absoluteString, "--cacert", strict.certificateAuthorityFile])
    }

    // MARK: Server verification

    func testUnknownAuthorityFailsWithTheCertificateProblem() throws {
        let result = try call([])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("moya-cli: error: "), result.stderr)
        XCTAssertTrue(result.stderr.contains("SSL certificate problem"), result.stderr)
        XCTAssertTrue(result.stderr.contains("issuer certificate"), result.stderr)
        XCTAssertEqual(result.stdout, "")
    }

    func testTrustingTheAuthoritySucceeds() throws {
        let result = try call(["--cacert", server.certificateAuthorityFile])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("<HTML>") || result.stdout.contains("<html>"), result.stdout)
    }

    func testInsecureSkipsVerification() throws {
        for flag in ["-k", "--insecure"] {
            let result = try call([flag])
            XCTAssertEqual(result.status, 0, "\(flag): \(result.stderr)")
        }
    }

    func testMissingAuthorityFileFailsNamingIt() throws {
        let missing = folder.url.appendingPathComponent("nowhere.pem").path
        let result = try call(["--cacert", missing])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("moya-cli: error: "), result.stderr)
        XCTAssertTrue(result.stderr.contains(missing), result.stderr)
    }

    // MARK: Client certificates

    func testClientCertificateIsAccepted() throws {
        let (strict, arguments) = try clientCertificateServer()
        let result = try call(arguments + ["--cert", strict.clientCertificateFile, "--key", strict.clientKeyFile])
        XCTAssertEqual(result.status, 0, result.stderr)
        // The status page names the client certificate the server verified.
        XCTAssertTrue(result.stdout.contains("MoyaKit Test Client"), result.stdout)
    }

    func testWithoutClientCertificateFailsSayingOneIsRequired() throws {
        let (_, arguments) = try clientCertificateServer()
        let result = try call(arguments)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("certificate required"), result.stderr)
    }

    func testWithoutClientCertificateIsNotRetried() throws {
        // A refused certificate is a TLS failure, not a lost connection: retrying cannot help.
        let (_, arguments) = try clientCertificateServer()
        let result = try call(arguments + ["--retry", "2"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertFalse(result.stderr.contains("retrying in"), result.stderr)
        XCTAssertTrue(result.stderr.contains("certificate required"), result.stderr)
    }

    func testKeyWithoutCertificateIsAUsageError() throws {
        let result = try call(["--cacert", server.certificateAuthorityFile, "--key", server.clientKeyFile])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("--key needs --cert"), result.stderr)
    }

    // MARK: curl

    func testCurlCommandWithAuthorityRunsWithRealCurl() throws {
        try XCTSkipIf(Self.curlPath == nil, "curl is not installed")
        let printed = try CLIRunner.run(
            ["curl", "secure", "root", "--cacert", server.certificateAuthorityFile],
            currentDirectory: folder.url, timeout: 30)
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertTrue(printed.stdout.contains("--cacert "), printed.stdout)
        let shell = try CLIRunner.runShell(printed.stdout, in: folder.url)
        XCTAssertEqual(shell.status, 0, "\(printed.stdout)\n\(shell.stderr)")
        XCTAssertTrue(shell.stdout.contains("<HTML>") || shell.stdout.contains("<html>"), shell.stdout)

        // Without --cacert the same command fails verification (curl exit 60), so it was the option that made it work.
        let untrusted = try CLIRunner.run(["curl", "secure", "root"], currentDirectory: folder.url, timeout: 30)
        XCTAssertEqual(untrusted.status, 0, untrusted.stderr)
        XCTAssertEqual(try CLIRunner.runShell(untrusted.stdout, in: folder.url).status, 60, untrusted.stdout)
    }

    func testCurlCommandWithClientCertificateRunsWithRealCurl() throws {
        try XCTSkipIf(Self.curlPath == nil, "curl is not installed")
        let (strict, arguments) = try clientCertificateServer()
        let printed = try CLIRunner.run(
            ["curl", "secure", "root"] + arguments + [
                "--cert", strict.clientCertificateFile,
                "--key", strict.clientKeyFile
            ],
            currentDirectory: folder.url, timeout: 30)
        XCTAssertEqual(printed.status, 0, printed.stderr)
        let shell = try CLIRunner.runShell(printed.stdout, in: folder.url)
        XCTAssertEqual(shell.status, 0, "\(printed.stdout)\n\(shell.stderr)")
        XCTAssertTrue(shell.stdout.contains("MoyaKit Test Client"), shell.stdout)
    }

    static var curlPath: String? {
        ["/usr/bin/curl", "/bin/curl", "/usr/local/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// Issue 45: public key pins (`tls: {pinnedPublicKeys:}` in a file or an environment,
/// `--pinned-pubkey`), through libcurl's CURLOPT_PINNEDPUBLICKEY, against `openssl s_server`.
final class PinnedPublicKeyTests: XCTestCase {
    var server: TLSTestServer!
    var folder: TemporaryFolder!
    let otherPin = "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="

    override func setUpWithError() throws {
        guard TLSTestServer.opensslPath != nil else { throw XCTSkip("the openssl command is not installed") }
        server = try TLSTestServer()
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        server?.stop()
    }

    private func write(pins: [String], environmentPins: [String]? = nil) throws {
        let environment =
            environmentPins.map {
                "\nenvironments:\n  pinned: {tls: {pinnedPublicKeys: [\($0.joined(separator: ", "))]}}"
            } ?? ""
        try folder.write(
            "targets/secure.yaml",
            CallTLSTests.targetFile(baseURL: server.baseURL)
                + "\ntls: {pinnedPublicKeys: [\(pins.joined(separator: ", "))]}"
                + environment + "\n")
    }

    private func call(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(
            ["call", "secure", "root", "--cacert", server.certificateAuthorityFile] + arguments,
            currentDirectory: folder.url, timeout: 30)
    }

    func testTheRightKeyPassesAndAnotherFailsWithTheTLSStatusNamingBoth() throws {
        let pin = try server.publicKeyPin()
        try write(pins: [pin])
        let passed = try call([])
        XCTAssertEqual(passed.status, 0, passed.stderr)
        XCTAssertTrue(passed.stdout.contains("<HTML>"), passed.stdout)
        try write(pins: [otherPin])
        assertRun(
            try call([]), status: 1, stdout: "",
            stderr:
                "moya-cli: error: the server's public key \(pin) matches no pinned key (\(otherPin)); nothing was sent\n"
        )
        try folder.write(
            "targets/keyed.yaml",
            CallTLSTests.targetFile(baseURL: server.baseURL).replacingOccurrences(of: "api: secure", with: "api: keyed")
                + "\nauth: {type: bearer, token: \"${secret:KEYED_TOKEN}\"}\ntls: {pinnedPublicKeys: [\(pin), \(otherPin)]}\n"
        )
        let auth = try CLIRunner.run(["auth", "keyed"], currentDirectory: folder.url)
        XCTAssertTrue(
            auth.stdout.hasSuffix("\n\npinned public key: \(pin)\npinned public key: \(otherPin)\n"), auth.stdout)
        let curl = try CLIRunner.run(["curl", "secure", "root"], currentDirectory: folder.url)
        XCTAssertTrue(curl.stdout.contains(" --pinnedpubkey '\(otherPin)' "), curl.stdout)
        // Pinning narrows, even where nothing is verified.
        XCTAssertEqual(try call(["--insecure"]).status, 1)
    }

    func testOneMatchingPinOfSeveralPassesAndTheCommandLineReplacesTheFiles() throws {
        let pin = try server.publicKeyPin()
        try write(pins: [otherPin, pin])
        XCTAssertEqual(try call([]).status, 0)
        XCTAssertEqual(try call(["--pinned-pubkey", otherPin]).status, 1)
        try write(pins: [otherPin])
        XCTAssertEqual(try call(["--pinned-pubkey", otherPin + ";" + pin]).status, 0)
        XCTAssertEqual(try call(["--pinned-pubkey", otherPin, "--pinned-pubkey", pin]).status, 0)
        let invalid = try call(["--pinned-pubkey", "sha256//short"])
        XCTAssertEqual(invalid.status, 64, invalid.stderr)
    }

    func testAnEnvironmentsPinsReplaceTheAPIs() throws {
        let pin = try server.publicKeyPin()
        try write(pins: [otherPin], environmentPins: [pin])
        XCTAssertEqual(try call([]).status, 1)
        XCTAssertEqual(try call(["--env", "pinned"]).status, 0)
        let listed = try CLIRunner.run(["list", "secure", "--format", "json"], currentDirectory: folder.url)
        XCTAssertTrue(
            listed.stdout.contains(
                "\"pinnedPublicKeys\": [\n    \"\(otherPin)\"\n  ],\n  \"environmentPinnedPublicKeys\": {\n    \"pinned\": [\n      \"\(pin)\"\n    ]\n  }"
            ),
            listed.stdout)
    }

    func testAnInvalidPinInAFileIsReportedWhereItIs() throws {
        try write(pins: ["md5//abc"])
        let result = try call([])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "invalid public key pin 'md5//abc'; a pin is sha256// and the 44-character base64 SHA-256 of the key"),
            result.stderr)
    }
}
