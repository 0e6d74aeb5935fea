import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 45: `--session NAME` keeps an API's cookies between runs, in a private file under
/// `$XDG_STATE_HOME/moya-cli/sessions/API/NAME`, never sent to another API or origin.
final class SessionTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
        for api in ["site", "other"] {
            try sandbox.write(
                "targets/\(api).yaml",
                """
                api: \(api)
                baseURL: http://127.0.0.1:\(server.port)
                validation: successCodes
                cases:
                  login: {path: /cookies/login}
                  me: {path: /cookies/require/session, examples: [[]]}
                """)
        }
    }

    override func tearDown() {
        server.stop()
    }

    private var state: String { sandbox.path("state") }

    private func run(_ arguments: [String]) throws -> CLIResult {
        try sandbox.run(arguments, environment: ["XDG_STATE_HOME": state])
    }

    private func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    func testASessionPersistsAcrossProcessesInAPrivateFile() throws {
        XCTAssertEqual(try run(["call", "site", "me", "--session", "work"]).status, 4)
        assertRun(
            try run(["call", "site", "login", "--session", "work"]), status: 0, stdout: #"{"cookie":"server-s3cr3t"}"#,
            stderr: "")
        let file = state + "/moya-cli/sessions/site/work"
        XCTAssertEqual(try mode(file), 0o600)
        XCTAssertEqual(try mode(state + "/moya-cli/sessions/site"), 0o700)
        XCTAssertEqual(try mode(state + "/moya-cli/sessions"), 0o700)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(text.hasSuffix("127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tserver-s3cr3t\n"), text)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: state + "/moya-cli/sessions/site"), ["work"],
            "no temporary file is left")
        // A second process sends it; without --session, or with another name, nothing is sent.
        assertRun(
            try run(["call", "site", "me", "--session", "work"]), status: 0, stdout: #"{"cookie":"server-s3cr3t"}"#,
            stderr: "")
        XCTAssertEqual(try run(["call", "site", "me"]).status, 4)
        XCTAssertEqual(try run(["call", "site", "me", "--session", "home"]).status, 4)
        let request = try run(["request", "site", "GET", "/cookies/require/session", "--session", "work"])
        XCTAssertEqual(request.status, 0, request.stderr)
        let check = try run(["check", "site", "--live", "--only", "me", "--session", "work"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
    }

    func testASessionNeverReachesAnotherAPIOrOrigin() throws {
        XCTAssertEqual(try run(["call", "site", "login", "--session", "work"]).status, 0)
        // Another API's session of the same name is its own, though it has the same origin.
        XCTAssertEqual(try run(["call", "other", "me", "--session", "work"]).status, 4)
        XCTAssertNil(server.receivedRequests.last?.value(of: "Cookie"))
        // The cookie is the host 127.0.0.1's alone (RFC 6265's host-only rule).
        let elsewhere = try run([
            "call", "site", "me", "--session", "work", "--base-url", "http://localhost:\(server.port)"
        ])
        XCTAssertEqual(elsewhere.status, 4, elsewhere.stderr)
        XCTAssertNil(server.receivedRequests.last?.value(of: "Cookie"))
    }

    func testAnUntrustworthySessionFileIsIgnoredAndABadNameRefused() throws {
        XCTAssertEqual(try run(["call", "site", "login", "--session", "work"]).status, 0)
        let file = state + "/moya-cli/sessions/site/work"
        XCTAssertEqual(chmod(file, 0o644), 0)
        let result = try run(["call", "site", "me", "--session", "work"])
        XCTAssertEqual(result.status, 4)
        XCTAssertEqual(
            result.stderr,
            "moya-cli: warning: ignoring the session \(file): its mode 644 lets others read or change it (it must be 600)\n"
                + "moya-cli: error: site.me: HTTP 401 failed the case's validation\n")
        // No download, -o or report may plant a session file (cookies another run would send).
        let planted = try run(["call", "site", "login", "-o", file, "--force"])
        XCTAssertEqual(planted.status, 64, planted.stderr)
        XCTAssertTrue(planted.stderr.contains("the token cache or the sessions"), planted.stderr)
        for name in ["../x", ".hidden", "a/b", ""] {
            XCTAssertEqual(try run(["call", "site", "me", "--session", name]).status, 64, name)
        }
        XCTAssertEqual(try run(["call", "site", "me", "--session", "work", "--no-cookies"]).status, 64)
    }

    func testTheSessionCommandListsShowsRedactedAndClears() throws {
        XCTAssertEqual(try run(["call", "site", "login", "--session", "work"]).status, 0)
        XCTAssertEqual(try run(["call", "site", "login", "--session", "home"]).status, 0)
        assertRun(try run(["session", "list", "site"]), status: 0, stdout: "home\nwork\n", stderr: "")
        assertRun(try run(["session", "list", "other"]), status: 0, stdout: "", stderr: "")
        assertRun(
            try run(["session", "show", "site", "work"]), status: 0,
            stdout: "127.0.0.1 / session=<redacted> (host only, until the session ends)\n", stderr: "")
        assertRun(
            try run(["session", "show", "site", "work", "--reveal"]), status: 0,
            stdout: "127.0.0.1 / session=server-s3cr3t (host only, until the session ends)\n", stderr: "")
        assertRun(
            try run(["session", "show", "site", "nope"]), status: 64, stdout: "",
            stderr: "moya-cli: error: API 'site' has no session 'nope'; its sessions: home, work\n")
        assertRun(
            try run(["session", "clear", "site", "work"]), status: 0, stdout: "",
            stderr: "moya-cli: removed the session work of site\n")
        assertRun(try run(["session", "list", "site"]), status: 0, stdout: "home\n", stderr: "")
        XCTAssertEqual(try run(["session", "clear", "site"]).status, 0)
        assertRun(try run(["session", "list", "site"]), status: 0, stdout: "", stderr: "")
        XCTAssertEqual(try run(["session", "show", "../etc", "passwd"]).status, 64)
        XCTAssertEqual(try run(["session", "remove", "site"]).status, 64)
    }
}
