import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 45: within one run, the cookies an API's responses set are kept and sent back by RFC
/// 6265's rules (libcurl's engine), as Alamofire's session does under Moya; `--no-cookies` and a
/// file's `cookies: false` turn it off. Through the binary against the loopback server.
final class CookieTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
        try sandbox.write(
            "targets/site.yaml",
            """
            api: site
            baseURL: http://127.0.0.1:\(server.port)
            validation: successCodes
            pagination: {next: link}
            cases:
              login:
                path: /cookies/set
                task: {parameters: {session: s3cr3t-cookie}, encoding: url}
                pagination: none
              me:
                path: /cookies/require/session
                pagination: none
                examples: [{after: login}]
              serverLogin: {path: /cookies/login, pagination: none}
              pages:
                path: /pages/link
                task: {parameters: {cookie: pager-cookie}, encoding: url}
            """)
        try sandbox.write(
            "targets/nocookies.yaml",
            """
            api: nocookies
            baseURL: http://127.0.0.1:\(server.port)
            cookies: false
            cases:
              login: {path: /cookies/set, task: {parameters: {k: v}, encoding: url}}
            """)
    }

    override func tearDown() {
        server.stop()
    }

    private var base: String { "http://127.0.0.1:\(server.port)" }

    func testACookieSetOnARedirectHopIsSentToTheTarget() throws {
        assertRun(
            try sandbox.run(["request", "GET", base + "/cookies/set?k=v"]), status: 0,
            stdout: #"{"cookies":{"k":"v"}}"#, stderr: "")
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Cookie"), "k=v")
        assertRun(
            try sandbox.run(["call", "site", "login"]), status: 0, stdout: #"{"cookies":{"session":"s3cr3t-cookie"}}"#,
            stderr: "")
    }

    func testNoCookiesAndAFileLevelCookiesFalseKeepNone() throws {
        assertRun(
            try sandbox.run(["request", "GET", base + "/cookies/set?k=v", "--no-cookies"]), status: 0,
            stdout: #"{"cookies":{}}"#, stderr: "")
        assertRun(try sandbox.run(["call", "site", "login", "--no-cookies"]), status: 0, stdout: #"{"cookies":{}}"#, stderr: "")
        assertRun(try sandbox.run(["call", "nocookies", "login"]), status: 0, stdout: #"{"cookies":{}}"#, stderr: "")
        XCTAssertTrue(server.receivedRequests.allSatisfy { $0.value(of: "Cookie") == nil })
    }

    func testACheckChainPassesOnlyWithTheLoginCookie() throws {
        let passed = try sandbox.run(["check", "site", "--live", "--only", "me"])
        XCTAssertEqual(passed.status, 0, passed.stdout + passed.stderr)
        XCTAssertEqual(server.receivedRequests.last?.target, "/cookies/require/session")
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Cookie"), "session=s3cr3t-cookie")
        let failed = try sandbox.run(["check", "site", "--live", "--only", "me", "--no-cookies"])
        XCTAssertEqual(failed.status, 8, failed.stdout + failed.stderr)
    }

    func testEveryPageOfAllCarriesTheCookieTheFirstSet() throws {
        let result = try sandbox.run(["call", "site", "pages", "--all"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            server.receivedRequests.map { $0.value(of: "Cookie") ?? "-" }, ["-", "pager=pager-cookie", "pager=pager-cookie"])
    }

    func testCookieValuesAreRedactedInVerboseOutputAndCurlCommands() throws {
        let result = try sandbox.run(["call", "site", "serverLogin", "-v", "--curl"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, #"{"cookie":"server-s3cr3t"}"#)
        XCTAssertFalse(result.stderr.contains("server-s3cr3t"), result.stderr)
        XCTAssertTrue(result.stderr.contains("< Set-Cookie: <redacted>"), result.stderr)
        XCTAssertTrue(result.stderr.contains("> Cookie: <redacted>"), result.stderr)
    }
}
