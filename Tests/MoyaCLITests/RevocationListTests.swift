import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 46 item 8: `--crlfile` refuses a server certificate its revocation list revokes, as curl's.
final class RevocationListTests: XCTestCase {
    var server: TLSTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        guard let openssl = TLSTestServer.opensslPath else { throw XCTSkip("the openssl command is not installed") }
        server = try TLSTestServer()
        folder = try TemporaryFolder()
        try folder.write("targets/secure.yaml", CallTLSTests.targetFile(baseURL: server.baseURL))
        // The test authority's key is beside the server's certificate (`TLSTestServer.makeCertificates`).
        let authority = URL(fileURLWithPath: server.serverCertificateFile).deletingLastPathComponent().path
        let place = folder.url.path
        try folder.write("index.txt", "")
        try folder.write("crlnumber", "01\n")
        try folder.write(
            "ca.cnf",
            "[ca]\ndefault_ca = test\n[test]\ndatabase = \(place)/index.txt\ncrlnumber = \(place)/crlnumber\n"
                + "default_md = sha256\ndefault_crl_days = 2\n")
        let signing = [
            "-config", "\(place)/ca.cnf", "-keyfile", "\(authority)/ca.key", "-cert", server.certificateAuthorityFile
        ]
        try Self.run(openssl, ["ca"] + signing + ["-gencrl", "-out", "\(place)/empty.crl"])
        try Self.run(openssl, ["ca"] + signing + ["-revoke", server.serverCertificateFile])
        try Self.run(openssl, ["ca"] + signing + ["-gencrl", "-out", "\(place)/revoked.crl"])
    }

    override func tearDown() {
        server?.stop()
    }

    private static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw XCTSkip("openssl \(arguments.joined(separator: " ")) failed")
        }
    }

    private func call(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(
            ["call", "secure", "root", "--cacert", server.certificateAuthorityFile] + arguments,
            currentDirectory: folder.url, timeout: 30)
    }

    func testARevokedServerCertificateFailsTheHandshake() throws {
        let unrevoked = try call(["--crlfile", folder.url.path + "/empty.crl"])
        XCTAssertEqual(unrevoked.status, 0, unrevoked.stderr)
        let revoked = try call(["--crlfile", folder.url.path + "/revoked.crl"])
        XCTAssertEqual(revoked.status, 1, revoked.stderr)
        XCTAssertTrue(revoked.stderr.contains("moya-cli: error: "), revoked.stderr)
        XCTAssertTrue(revoked.stderr.lowercased().contains("revoked"), revoked.stderr)
        XCTAssertEqual(revoked.stdout, "")
        let missing = try call(["--crlfile", folder.url.path + "/absent.crl"])
        XCTAssertEqual(missing.status, 1, missing.stderr)
        let printed = try CLIRunner.run(
            ["curl", "secure", "root", "--crlfile", "revoked.crl"], currentDirectory: folder.url)
        XCTAssertTrue(printed.stdout.contains("--crlfile 'revoked.crl'"), printed.stdout)
    }

    func testAFileNamesItsRevocationListOnlyWhenTrusted() throws {
        // `tls: {crlFile}` is from the target file's folder: targets/../revoked.crl.
        try folder.write(
            "targets/secure.yaml",
            CallTLSTests.targetFile(baseURL: server.baseURL) + "\ntls: {crlFile: ../revoked.crl}\n")
        let trusted = ["MOYA_TRUSTED_TARGETS": folder.url.appendingPathComponent("targets").path]
        let call = { (environment: [String: String]) in
            try CLIRunner.run(
                ["call", "secure", "root", "--cacert", self.server.certificateAuthorityFile], environment: environment,
                currentDirectory: self.folder.url, timeout: 30)
        }
        let revoked = try call(trusted)
        XCTAssertEqual(revoked.status, 1, revoked.stderr)
        XCTAssertTrue(revoked.stderr.lowercased().contains("revoked"), revoked.stderr)
        // The command line's list wins over the file's.
        let replaced = try CLIRunner.run(
            ["call", "secure", "root", "--cacert", server.certificateAuthorityFile, "--crlfile", "empty.crl"],
            environment: trusted, currentDirectory: folder.url, timeout: 30)
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        let untrusted = try call([:])
        XCTAssertEqual(untrusted.status, 7, untrusted.stderr)
        XCTAssertTrue(untrusted.stderr.contains("only a trusted file may use"), untrusted.stderr)
        let stubbed = try CLIRunner.run(["call", "secure", "root", "--stub"], currentDirectory: folder.url)
        XCTAssertEqual(stubbed.status, 0, "a stub sends nothing: \(stubbed.stderr)")
        // A FIFO named by the file is refused unopened, never read (libcurl would block on it).
        XCTAssertEqual(mkfifo(folder.url.path + "/fifo.crl", 0o600), 0)
        try folder.write(
            "targets/secure.yaml",
            CallTLSTests.targetFile(baseURL: server.baseURL) + "\ntls: {crlFile: ../fifo.crl}\n")
        let fifo = try call(trusted)
        XCTAssertEqual(fifo.status, 64, fifo.stderr)
        XCTAssertTrue(fifo.stderr.contains("it is a FIFO, not a regular file"), fifo.stderr)
        try folder.write(
            "targets/secure.yaml",
            CallTLSTests.targetFile(baseURL: server.baseURL) + "\ntls: {crlFile: ../revoked.crl}\n")
        let printed = try CLIRunner.run(["curl", "secure", "root"], environment: trusted, currentDirectory: folder.url)
        XCTAssertTrue(printed.stdout.contains("--crlfile '\(folder.url.path)/targets/../revoked.crl'"), printed.stdout)
    }
}
