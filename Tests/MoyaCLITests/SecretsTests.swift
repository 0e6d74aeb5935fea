import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 11, items 1 and 4: secrets stay with the origin they were meant for, and out of what is
/// printed about a request.
final class SecretsTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        server.stop()
    }

    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
        try CLIRunner.run(
            arguments, environment: ["HOME": folder.url.path].merging(environment) { _, new in new },
            currentDirectory: folder.url)
    }

    private func escaped(_ url: URL) -> String {
        url.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url.absoluteString
    }

    // MARK: Redirects (item 1)

    func testSecretHeadersDoNotFollowARedirectToAnotherHost() throws {
        let other = try HTTPTestServer(address: "127.0.0.2")
        defer { other.stop() }
        try folder.write(
            "targets/api.yaml",
            """
            api: api
            baseURL: http://127.0.0.1:\(server.port)
            sensitiveHeaders: [X-Session]
            auth: {type: bearer, token: "${secret:API_TOKEN}"}
            headers:
              X-Api-Key: "${API_KEY}"
              X-Signed: "sig-${secret:SIGNING_KEY}"
              X-Session: session-value-42
              X-Plain: kept
            cases:
              hop:
                values: [{to: string}]
                path: /redirect-to
                task: {parameters: {url: "{to}"}, encoding: url}
                sample: ok
            """)
        let target = other.url("/anything/landed")
        let result = try run(
            [
                "call", "api", "hop", target.absoluteString,
                "-H", "X-Auth-Token: cli-token-123", "-H", "Proxy-Authorization: Basic cHJveHk6cGFzcw=="
            ],
            environment: ["API_TOKEN": "bearer-token-123", "API_KEY": "api-key-123", "SIGNING_KEY": "signing-key-123"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let first = try XCTUnwrap(server.receivedRequests.first)
        XCTAssertEqual(
            first.value(of: "Authorization"), "Bearer bearer-token-123", "the API's own host gets every secret")
        XCTAssertEqual(first.value(of: "X-Signed"), "sig-signing-key-123")
        let landed = try XCTUnwrap(other.receivedRequests.first)
        XCTAssertEqual(landed.path, "/anything/landed")
        for name in [
            "Authorization", "X-Api-Key", "X-Signed", "X-Session", "X-Auth-Token", "Proxy-Authorization", "Cookie"
        ] {
            XCTAssertNil(landed.value(of: name), "\(name) must not reach 127.0.0.2")
        }
        XCTAssertEqual(landed.value(of: "X-Plain"), "kept")
        // Each secret whole: the raw head also holds the other server's port, which may have `123`
        // in it (this assertion looked for `123` alone and failed when the port did).
        let head = String(decoding: landed.rawHead, as: UTF8.self)
        for secret in [
            "bearer-token-123", "api-key-123", "signing-key-123", "session-value-42", "cli-token-123",
            "cHJveHk6cGFzcw=="
        ] {
            XCTAssertFalse(head.contains(secret), "\(secret) reached the other host:\n\(head)")
        }
    }

    func testSensitiveHeadersMustBeHeaderNames() throws {
        try folder.write(
            "targets/api.yaml",
            """
            api: api
            baseURL: http://127.0.0.1:\(server.port)
            sensitiveHeaders: ["X Bad"]
            cases:
              one: {path: /get, sample: ok}
            """)
        let result = try run(["validate", "targets/api.yaml"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("api.yaml:3:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("invalid header name 'X Bad' in sensitiveHeaders"), result.stderr)
    }

    // MARK: Output (item 4): what is printed about a request never shows its secrets

    func testASecretInATransportErrorIsRedactedInTheFinalErrorLine() throws {
        // A closed port from a secret: libcurl names it in its error message.
        let closed = try HTTPTestServer()
        let port = closed.port
        closed.stop()
        try folder.write(
            "targets/api.yaml",
            """
            api: api
            baseURL: "http://127.0.0.1:${secret:HIDDEN_PORT}"
            cases:
              one: {path: /get, sample: ok}
            """)
        let result = try run(["call", "api", "one"], environment: ["HIDDEN_PORT": String(port)])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("moya-cli: error: "), result.stderr)
        XCTAssertFalse(result.stderr.contains(String(port)), result.stderr)
        XCTAssertTrue(result.stderr.contains("<redacted>"), result.stderr)
        let shown = try run(["call", "api", "one", "--show-secrets"], environment: ["HIDDEN_PORT": String(port)])
        XCTAssertTrue(shown.stderr.contains(String(port)), "--show-secrets shows it: \(shown.stderr)")
    }

    func testASecretEchoedJSONEscapedIsRedactedInTheLog() throws {
        try folder.write(
            "targets/api.yaml",
            """
            api: api
            baseURL: http://127.0.0.1:\(server.port)
            headers: {X-Token: "${secret:ODD_TOKEN}"}
            cases:
              echo: {path: /anything, sample: ok}
            """)
        let secret = #"tok"en/ö\1"#
        let result = try run(["call", "api", "echo", "-v"], environment: ["ODD_TOKEN": secret])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains(#"tok\"en"#), "the server echoed it JSON-escaped: \(result.stdout)")
        for fragment in ["tok", "en/", #"\u00f6"#, "ö"] {
            XCTAssertFalse(result.stderr.contains(fragment), "\(fragment) in: \(result.stderr)")
        }
        XCTAssertTrue(result.stderr.contains("<redacted>"), result.stderr)
        XCTAssertTrue(result.stdout.contains(#"tok\"en"#), "standard output is never redacted")
    }

    func testUserinfoPasswordsInProxyAndBaseURLAreRedacted() throws {
        try folder.write(
            "targets/api.yaml",
            """
            api: api
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              one: {path: /get, sample: ok}
            """)
        let baseURL = "http://alice:base%2Dpass%40word@127.0.0.1:\(server.port)"
        let proxy = "http://bob:proxy-pass-123@127.0.0.1:9"
        let curl = try run(["curl", "api", "one", "--base-url", baseURL, "--proxy", proxy])
        XCTAssertEqual(curl.status, 0, curl.stderr)
        XCTAssertTrue(curl.stdout.contains("alice:<redacted>@"), curl.stdout)
        XCTAssertTrue(curl.stdout.contains("bob:<redacted>@"), curl.stdout)
        for secret in ["base%2Dpass%40word", "base-pass@word", "proxy-pass-123"] {
            XCTAssertFalse(curl.stdout.contains(secret), curl.stdout)
        }
        let verbose = try run(["call", "api", "one", "--base-url", baseURL, "-v", "--curl"])
        XCTAssertEqual(verbose.status, 0, verbose.stderr)
        XCTAssertTrue(verbose.stderr.contains("alice:<redacted>@"), verbose.stderr)
        XCTAssertFalse(verbose.stderr.contains("base%2Dpass%40word"), verbose.stderr)
        // `check` shares one redactor among targets without secrets of their own: it still
        // knows the command line's passwords, in the JSON report's URL as everywhere else.
        let report = folder.url.appendingPathComponent("report.json").path
        let swept = try run(["check", "api", "--live", "--base-url", baseURL, "--report", "json:" + report])
        XCTAssertEqual(swept.status, 0, swept.stderr)
        let written = try String(contentsOfFile: report, encoding: .utf8)
        XCTAssertTrue(written.contains("alice:<redacted>@"), written)
        for text in [swept.stdout, swept.stderr, written] {
            XCTAssertFalse(text.contains("base%2Dpass%40word"), text)
            XCTAssertFalse(text.contains("base-pass@word"), text)
        }
    }

    func testABasicAuthUserNameIsNoSecretAndShortValuesDoNotMangleText() throws {
        try folder.write(
            "targets/api.yaml",
            """
            api: api
            baseURL: http://127.0.0.1:\(server.port)
            auth: {type: basic, username: "${API_USER}", password: "${API_PASSWORD}"}
            headers: {X-Pin: "${secret:PIN}"}
            cases:
              list: {path: /anything/users-list, sample: ok}
            """)
        let result = try run(
            ["curl", "api", "list"], environment: ["API_USER": "users", "API_PASSWORD": "pa", "PIN": "123"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("/anything/users-list"), "the user name is no secret: \(result.stdout)")
        XCTAssertTrue(
            result.stdout.contains("X-Pin: <redacted>"),
            "a header built from a secret is hidden whole: \(result.stdout)")
        XCTAssertTrue(result.stdout.contains("Authorization: Basic <redacted>"), result.stdout)
        XCTAssertFalse(result.stdout.contains("<red<redacted>"), result.stdout)
    }
}
