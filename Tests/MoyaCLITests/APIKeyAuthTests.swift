import CLITestSupport
import Foundation
import TestServers
import XCTest

/// `auth: {type: apiKey, in: header|query, name: ..., key: "${secret:...}"}` over real HTTP: sent
/// where it belongs, secret everywhere moya-cli prints, kept from other origins, not needed to stub.
final class APIKeyAuthTests: XCTestCase {
    var server: HTTPTestServer!
    var other: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        other = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write(
            "targets/keys.yaml",
            """
            api: keys
            baseURL: http://127.0.0.1:\(server.port)
            auth:
              default: header
              schemes:
                header: {type: apiKey, in: header, name: X-API-Key, key: "${secret:KEYS_KEY}"}
                query: {type: apiKey, in: query, name: api key, key: "${secret:KEYS_KEY}"}
            cases:
              headerKey: {path: /anything/h, sample: ok}
              queryKey:
                values: [{q: string}]
                path: /anything/q
                auth: query
                task: {parameters: {q: "{q}"}, encoding: url}
                sample: ok
              away:
                path: /redirect-to
                task: {parameters: {url: "http://127.0.0.1:\(other.port)/anything/away"}, encoding: url}
                sample: ok
            """)
    }

    override func tearDown() {
        server.stop()
        other.stop()
    }

    private let environment = ["KEYS_KEY": "k3y/v@lue&x"]

    func run(_ arguments: [String], environment: [String: String]? = nil) throws -> CLIResult {
        try CLIRunner.run(arguments, environment: environment ?? self.environment, currentDirectory: folder.url)
    }

    func testAHeaderKeyIsSentAndRedacted() throws {
        let result = try run(["call", "keys", "headerKey", "-v"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(request.value(of: "X-API-Key"), "k3y/v@lue&x")
        XCTAssertNil(request.value(of: "Authorization"))
        XCTAssertFalse(result.stderr.contains("k3y"), result.stderr)
        XCTAssertTrue(result.stderr.contains("X-API-Key: <redacted>"), result.stderr)
    }

    func testAQueryKeyIsSentFirstEscapedAndRedacted() throws {
        let result = try run(["call", "keys", "queryKey", "moya", "-v"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(request.target, "/anything/q?api%20key=k3y/v%40lue%26x&q=moya")
        XCTAssertEqual(request.queryItems.first { $0.name == "api key" }?.value, "k3y/v@lue&x")
        XCTAssertFalse(result.stderr.contains("k3y"), result.stderr)
        let curl = try run(["curl", "keys", "queryKey", "moya"])
        XCTAssertEqual(curl.status, 0, curl.stderr)
        XCTAssertFalse(curl.stdout.contains("k3y"), curl.stdout)
        let shown = try run(["curl", "keys", "queryKey", "moya", "--show-secrets"])
        XCTAssertTrue(shown.stdout.contains("api%20key=k3y/v%40lue%26x"), shown.stdout)
    }

    func testAHeaderKeyDoesNotFollowARedirectToAnotherOrigin() throws {
        let result = try run(["call", "keys", "away"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let away = try XCTUnwrap(other.receivedRequests.last)
        XCTAssertEqual(away.path, "/anything/away")
        XCTAssertNil(away.value(of: "X-API-Key"), "the key stays with its origin")
    }

    func testStubsNeedNoKeyAndLiveCallsSayWhichIsMissing() throws {
        let stubbed = try run(["call", "keys", "queryKey", "moya", "--stub"], environment: [:])
        XCTAssertEqual(stubbed.status, 0, stubbed.stderr)
        XCTAssertEqual(stubbed.stdout, "ok")
        let checked = try run(["check", "keys"], environment: [:])
        XCTAssertEqual(checked.status, 0, checked.stderr)
        let live = try run(["call", "keys", "headerKey"], environment: [:])
        XCTAssertEqual(live.status, 64)
        XCTAssertTrue(live.stderr.contains("environment variable 'KEYS_KEY' is not set"), live.stderr)
    }

    func testAnAPIKeySchemeIsValidatedWithItsPlace() throws {
        try folder.write(
            "targets/keys.yaml",
            """
            api: keys
            baseURL: http://127.0.0.1:1
            auth: {type: apiKey, in: body, name: "X Key", key: literal}
            cases:
              a: {path: /a}
            """)
        let result = try run(["validate"])
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.stderr.contains("targets/keys.yaml:3:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("API key location"), result.stderr)
        XCTAssertTrue(result.stderr.contains("literal secret in file; use ${VAR}"), result.stderr)
        try folder.write(
            "targets/keys.yaml",
            """
            api: keys
            baseURL: http://127.0.0.1:1
            auth: {type: apiKey, in: header, name: "X Key", key: "${K}"}
            cases:
              a: {path: /a}
            """)
        let header = try run(["validate"])
        XCTAssertEqual(header.status, 65)
        XCTAssertTrue(header.stderr.contains("invalid API key header name 'X Key'"), header.stderr)
    }
}
