import Foundation
import TestSupport
import XCTest

/// Issue 11, items 1 and 4: secrets stay with the origin they were meant for and out of output.
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
        try CLIRunner.run(arguments, environment: ["HOME": folder.url.path].merging(environment) { _, new in new },
                          currentDirectory: folder.url)
    }

    private func escaped(_ url: URL) -> String {
        url.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url.absoluteString
    }

    // MARK: Redirects (item 1)

    func testSecretHeadersDoNotFollowARedirectToAnotherHost() throws {
        let other = try HTTPTestServer(address: "127.0.0.2")
        defer { other.stop() }
        try folder.write("targets/api.yaml", """
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
        let result = try run(["call", "api", "hop", target.absoluteString,
                              "-H", "X-Auth-Token: cli-token-123", "-H", "Proxy-Authorization: Basic cHJveHk6cGFzcw=="],
                             environment: ["API_TOKEN": "bearer-token-123", "API_KEY": "api-key-123", "SIGNING_KEY": "signing-key-123"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let first = try XCTUnwrap(server.receivedRequests.first)
        XCTAssertEqual(first.value(of: "Authorization"), "Bearer bearer-token-123", "the API's own host gets every secret")
        XCTAssertEqual(first.value(of: "X-Signed"), "sig-signing-key-123")
        let landed = try XCTUnwrap(other.receivedRequests.first)
        XCTAssertEqual(landed.path, "/anything/landed")
        for name in ["Authorization", "X-Api-Key", "X-Signed", "X-Session", "X-Auth-Token", "Proxy-Authorization", "Cookie"] {
            XCTAssertNil(landed.value(of: name), "\(name) must not reach 127.0.0.2")
        }
        XCTAssertEqual(landed.value(of: "X-Plain"), "kept")
        XCTAssertFalse(String(decoding: landed.rawHead, as: UTF8.self).contains("123"), "no secret value at all reached the other host")
    }

    func testSensitiveHeadersMustBeHeaderNames() throws {
        try folder.write("targets/api.yaml", """
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
}
