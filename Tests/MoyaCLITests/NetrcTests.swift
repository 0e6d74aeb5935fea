import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 47 (item 8): `--netrc`, `--netrc-optional`, `--netrc-file` as curl's — used only when
/// neither the file's auth nor `-u`/`--bearer` gives credentials, redacted, warned about when
/// others may read the file.
final class NetrcTests: WebTargetTestCase {
    override func webTarget(port: UInt16) -> String {
        """
        api: web
        baseURL: http://127.0.0.1:\(port)
        auth: {type: bearer, token: "${secret:WEB_TOKEN}"}
        cases:
          open: {path: /anything/open, auth: none, sample: ok}
          guarded: {path: /anything/guarded, sample: ok}
        """
    }

    override var extraEnvironment: [String: String] { ["WEB_TOKEN": "file-token", "MOYA_ALLOW_ENV": "WEB_TOKEN"] }

    private func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    private func writeNetrc(_ text: String, mode: mode_t = 0o600) throws -> String {
        let url = try folder.write("home/.netrc", text)
        XCTAssertEqual(chmod(url.path, mode), 0)
        return url.path
    }

    func testTheNetrcGivesCredentialsOnlyWhereNothingElseDoes() throws {
        let path = try writeNetrc("machine 127.0.0.1 login ada password \"s3 cret\"\ndefault login anon password pw\n")
        let home = ["HOME": folder.url.path + "/home"].merging(extraEnvironment) { given, _ in given }
        let open = try CLIRunner.run(
            ["call", "web", "open", "--netrc", "-v"], environment: home, currentDirectory: folder.url)
        XCTAssertEqual(open.status, 0, open.stderr)
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Authorization"), basic("ada", "s3 cret"))
        XCTAssertTrue(open.stderr.contains("> Authorization: Basic <redacted>\n"), open.stderr)
        XCTAssertFalse(open.stderr.contains("s3 cret"))
        // The file's auth and -u win over the netrc.
        XCTAssertEqual(try run(["call", "web", "guarded", "--netrc-file", path]).status, 0)
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Authorization"), "Bearer file-token")
        XCTAssertEqual(try run(["call", "web", "open", "-n", "-u", "bob:pw"]).status, 0)
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Authorization"), basic("bob", "pw"))
        // request, at a URL: the machine's entry, or the default entry for another host.
        XCTAssertEqual(
            try run(["request", "GET", "http://localhost:\(server.port)/anything/x", "--netrc-file", path]).status, 0)
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Authorization"), basic("anon", "pw"))
        // Without a netrc option, nothing.
        XCTAssertEqual(try run(["call", "web", "open"]).status, 0)
        XCTAssertNil(server.receivedRequests.last?.value(of: "Authorization"))
    }

    func testMissingUnreadableMalformedAndWorldReadableNetrcs() throws {
        let missing = try run(["call", "web", "open", "--netrc"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertEqual(missing.stderr, "moya-cli: error: --netrc: ~/.netrc does not exist\n")
        XCTAssertEqual(try run(["call", "web", "open", "--netrc-optional"]).status, 0, "optional: no file, no error")
        let malformed = try writeNetrc("machine h\nport 21\n")
        let parsed = try run(["call", "web", "open", "--netrc-file", malformed])
        XCTAssertEqual(parsed.status, 65)
        XCTAssertEqual(parsed.stderr, "moya-cli: error: \(malformed):2: unexpected token 'port'\n")
        let shared = try writeNetrc("default login anon password pw\n", mode: 0o644)
        let warned = try run(["call", "web", "open", "--netrc-file", shared])
        XCTAssertEqual(warned.status, 0)
        XCTAssertTrue(
            warned.stderr.contains("moya-cli: warning: \(shared) is readable or writable by others (mode 644)"),
            warned.stderr)
        let fifo = folder.url.path + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let special = try run(["call", "web", "open", "--netrc-file", fifo])
        XCTAssertEqual(special.status, 64, "a FIFO is refused without blocking")
        XCTAssertTrue(special.stderr.contains("not a regular file"), special.stderr)
        let check = try run(["check", "web", "-n"])
        XCTAssertEqual(check.status, 64)
        XCTAssertTrue(check.stderr.contains("-n: check sends each API's own auth"), check.stderr)
    }
}
