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
              loginHere: {path: /cookies/login-here, pagination: none, examples: [[]]}
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
        assertRun(
            try sandbox.run(["call", "site", "login", "--no-cookies"]), status: 0, stdout: #"{"cookies":{}}"#,
            stderr: "")
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
            server.receivedRequests.map { $0.value(of: "Cookie") ?? "-" },
            ["-", "pager=pager-cookie", "pager=pager-cookie"])
    }

    func testCookieValuesAreRedactedInVerboseOutputAndCurlCommands() throws {
        let result = try sandbox.run(["call", "site", "serverLogin", "-v", "--curl"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, #"{"cookie":"server-s3cr3t"}"#)
        XCTAssertFalse(result.stderr.contains("server-s3cr3t"), result.stderr)
        XCTAssertTrue(result.stderr.contains("< Set-Cookie: <redacted>"), result.stderr)
        XCTAssertTrue(result.stderr.contains("> Cookie: <redacted>"), result.stderr)
    }

    /// A URL on `host` that sets each of `lines` as a `Set-Cookie` field and redirects to `next`.
    private func setting(
        _ lines: [String], on host: String = "127.0.0.1", path: String = "/cookies/raw", then next: String
    )
        -> String
    {
        let escape = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text }
        return "http://\(host):\(server.port)\(path)?" + lines.map { "set=" + escape($0) }.joined(separator: "&")
            + "&to=" + escape(next)
    }

    private func echo(_ host: String = "127.0.0.1", _ path: String = "/cookies/echo") -> String {
        "http://\(host):\(server.port)\(path)"
    }

    /// RFC 6265's rules, each row one run of `request` following a redirect chain: where a cookie
    /// is set, and where it is (not) sent. `*.localhost` is loopback to libcurl; `localhost` and
    /// 127.0.0.1 count as secure origins (as browsers count them), `a.localhost` does not.
    func testCookiesAreSentByRFC6265sRules() throws {
        let rows: [(String, String, String)] = [
            ("host-only: the same host", setting(["k=v; Path=/"], then: echo()), #"{"k":"v"}"#),
            ("host-only: not another host", setting(["k=v; Path=/"], then: echo("localhost")), "{}"),
            ("host-only: not a subdomain", setting(["k=v; Path=/"], on: "localhost", then: echo("a.localhost")), "{}"),
            (
                "Domain: sent to its subdomains",
                setting(["k=v; Domain=x.localhost; Path=/"], on: "a.x.localhost", then: echo("b.x.localhost")),
                #"{"k":"v"}"#
            ),
            (
                "Domain: not a sibling's",
                setting(["k=v; Domain=b.x.localhost; Path=/"], on: "a.x.localhost", then: echo("b.x.localhost")), "{}"
            ),
            (
                "Domain: not a public suffix (localhost, by the list's default rule)",
                setting(["k=v; Domain=localhost; Path=/"], on: "a.x.localhost", then: echo("b.localhost")), "{}"
            ),
            (
                "Path: under it", setting(["k=v; Path=/cookies/echo/a"], then: echo("127.0.0.1", "/cookies/echo/a/b")),
                #"{"k":"v"}"#
            ),
            (
                "Path: not a prefix of a segment",
                setting(["k=v; Path=/cookies/echo/a"], then: echo("127.0.0.1", "/cookies/echo/ab")), "{}"
            ),
            ("Path: not above it", setting(["k=v; Path=/cookies/echo/a"], then: echo()), "{}"),
            ("default path: the setter's folder", setting(["k=v"], then: echo()), #"{"k":"v"}"#),
            (
                "Secure: refused from http",
                setting(["k=v; Secure; Path=/"], on: "a.localhost", then: echo("a.localhost")), "{}"
            ),
            ("Secure: loopback is a secure origin", setting(["k=v; Secure; Path=/"], then: echo()), #"{"k":"v"}"#),
            (
                "Expires: in the past", setting(["k=v; Expires=Thu, 01 Jan 1970 00:00:01 GMT; Path=/"], then: echo()),
                "{}"
            ),
            ("Max-Age: 0 is not kept", setting(["k=v; Max-Age=0; Path=/"], then: echo()), "{}"),
            ("Max-Age: later is kept", setting(["k=v; Max-Age=3600; Path=/"], then: echo()), #"{"k":"v"}"#),
            (
                "deletion: Max-Age=0 removes it",
                setting(["k=v; Path=/", "j=w; Path=/"], then: setting(["k=; Max-Age=0; Path=/"], then: echo())),
                #"{"j":"w"}"#
            ),
            (
                "replacement: the later value", setting(["k=1; Path=/"], then: setting(["k=2; Path=/"], then: echo())),
                #"{"k":"2"}"#
            )
        ]
        for (row, url, expected) in rows {
            let result = try sandbox.run(["request", "GET", url])
            XCTAssertEqual(result.status, 0, "\(row): \(result.stderr)")
            XCTAssertEqual(result.stdout, #"{"cookies":"# + expected + "}", row)
        }
    }

    /// A hostile server: thousands of cookies, huge ones, control characters. libcurl keeps at
    /// most 50 of one response, drops one over 4 KiB and one with a control character, and sends
    /// at most 150 in a Cookie field of at most 8 KiB; the run ends normally.
    func testAHostileServersCookiesAreBounded() throws {
        let flood = try sandbox.run(["request", "GET", "http://127.0.0.1:\(server.port)/cookies/flood/5000"])
        XCTAssertEqual(flood.status, 0, flood.stderr)
        let sent = try XCTUnwrap(server.receivedRequests.last?.value(of: "Cookie"))
        XCTAssertEqual(sent.split(separator: ";").count, 50)
        let huge = try sandbox.run(["request", "GET", "http://127.0.0.1:\(server.port)/cookies/flood/3?size=100000"])
        XCTAssertEqual(huge.status, 0, huge.stderr)
        XCTAssertEqual(huge.stdout, #"{"cookies":{}}"#)
        for hex in ["01", "0d0a582d496e6a6563743a2031", "7f", "1b5b326a"] {
            let control = try sandbox.run([
                "request", "GET", "http://127.0.0.1:\(server.port)/cookies/flood/1?hex=61\(hex)62"
            ])
            XCTAssertEqual(control.status, 0, control.stderr)
            XCTAssertEqual(control.stdout, #"{"cookies":{}}"#, hex)
        }
    }

    /// Every output that keeps or reports a response: a recorded sample (headers too), a saved
    /// case's sample, a check report. None holds the value of a cookie the server set.
    func testRecordsSavedSamplesAndReportsHoldNoCookieValue() throws {
        XCTAssertEqual(try sandbox.run(["call", "site", "loginHere", "--record", "--record-headers"]).status, 0)
        let saved = try sandbox.run([
            "request", "site", "GET", "/cookies/login-here", "--save-as", "probe", "--save-sample"
        ])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        let report = sandbox.path("report.json")
        let check = try sandbox.run(["check", "site", "--live", "--only", "loginHere", "--report", "json:" + report])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        let file = try String(contentsOfFile: sandbox.path("targets/site.yaml"), encoding: .utf8)
        XCTAssertTrue(file.contains("probe"), file)
        for (name, text) in [("target file", file), ("report", try String(contentsOfFile: report, encoding: .utf8))] {
            XCTAssertFalse(text.contains("server-s3cr3t"), "\(name): \(text)")
        }
    }
}
