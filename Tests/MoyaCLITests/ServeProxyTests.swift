import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 41: `serve --proxy` forwards what the mock does not answer to the live API (the loopback
/// test server) with the API's auth, `Prefer: proxy` forwards a declared case, and `--record`
/// writes the live answer as the case's sample.
final class ServeProxyTests: XCTestCase {
    private var live: HTTPTestServer!
    private var folder: TemporaryFolder!
    private let environment = ["LIVE_TOKEN": "live-t0ken-123", "MOYA_ALLOW_ENV": "LIVE_TOKEN"]

    override func setUpWithError() throws {
        live = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write(
            "targets/live.yaml",
            """
            api: live
            baseURL: http://127.0.0.1:\(live.port)/anything
            auth: {type: bearer, token: "${secret:LIVE_TOKEN}"}
            cases:
              item:
                values: [{id: int}]
                path: /items/{id}
                sample: {json: {id: "{id}", name: Lamp}}
            """)
    }

    private func body(_ answer: String) -> String {
        answer.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    }

    private func echoed(_ answer: String) throws -> EchoedRequest {
        try JSONDecoder().decode(EchoedRequest.self, from: Data(body(answer).utf8))
    }

    func testWhatNoCaseAnswersGoesToTheLiveAPIWithItsAuthAndComesBackAsItCame() throws {
        let server = try ServeProcess(["--proxy"], in: folder.url, environment: environment)
        let forwarded = try server.curl(
            "/anything/orders?page=2",
            [
                "-H", "Authorization: Bearer mock-token", "-H", "X-Trace: t1", "-H", "Content-Type: application/json",
                "-H", "Origin: http://localhost:3000", "--data-binary", #"{"sku": "L-1"}"#
            ])
        XCTAssertTrue(forwarded.hasPrefix("HTTP/1.1 200 OK\r\n"), forwarded)
        XCTAssertTrue(forwarded.contains("\r\nAccess-Control-Allow-Origin: http://localhost:3000\r\n"), forwarded)
        let request = try echoed(forwarded)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.path, "/anything/orders")
        XCTAssertEqual(request.args, [["page", "2"]])
        XCTAssertEqual(request.bodyText, #"{"sku": "L-1"}"#)
        let headers = request.headers.map { $0.joined(separator: ": ") }
        XCTAssertTrue(headers.contains("Authorization: Bearer live-t0ken-123"), "the API's auth: \(headers)")
        XCTAssertTrue(headers.contains("X-Trace: t1"), "\(headers)")
        XCTAssertFalse(headers.contains { $0.lowercased().hasPrefix("prefer") }, "\(headers)")

        // The live status as it came; a path outside the base URL's goes to its origin as it is.
        let teapot = try server.curl("/status/418")
        XCTAssertTrue(teapot.hasPrefix("HTTP/1.1 418 "), teapot)

        // A declared case is the mock's, unless asked for the live answer.
        let sample = try server.curl("/anything/items/7", ["-H", "Authorization: Bearer mock-token"])
        XCTAssertTrue(sample.hasSuffix(#"{"id":7,"name":"Lamp"}"#), sample)
        let liveAnswer = try server.curl(
            "/anything/items/7", ["-H", "Authorization: Bearer mock-token", "-H", "Prefer: proxy"])
        XCTAssertEqual(try echoed(liveAnswer).path, "/anything/items/7")

        server.waitFor("GET /anything/items/7 live.item 200 (proxied) ")
        XCTAssertTrue(server.stderr.contains("POST /anything/orders?page=2 - 200 (proxied) "), server.stderr)
        XCTAssertTrue(server.stderr.contains("GET /status/418 - 418 (proxied) "), server.stderr)
        XCTAssertFalse(server.stderr.contains("live-t0ken-123"), server.stderr)
        XCTAssertEqual(server.stop(), 130)
    }

    func testProxyURLReplacesTheBaseURLAndALiveAPIThatIsDownIs502() throws {
        try folder.write(
            "targets/live.yaml",
            """
            api: live
            baseURL: https://live.invalid/api
            cases:
              item:
                values: [{id: int}]
                path: /items/{id}
                sample: {json: {id: "{id}"}}
            """)
        let server = try ServeProcess(
            ["--proxy=http://127.0.0.1:\(live.port)/anything"], in: folder.url, environment: environment)
        let answer = try server.curl("/api/items/9", ["-H", "Prefer: proxy"])
        XCTAssertEqual(try echoed(answer).path, "/anything/items/9")
        XCTAssertEqual(server.stop(), 130)

        let closedPort = try HTTPTestServer()
        let port = closedPort.port
        closedPort.stop()
        let down = try ServeProcess(["--proxy=http://127.0.0.1:\(port)"], in: folder.url, environment: environment)
        let refused = try down.curl("/api/other")
        XCTAssertTrue(refused.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"), refused)
        down.waitFor("GET /api/other - 502 (proxy failed: ")
        XCTAssertEqual(down.stop(), 130)

        let wrong = try CLIRunner.run(["serve", "--proxy=ftp://x"], currentDirectory: folder.url)
        XCTAssertEqual(wrong.status, 64, wrong.stderr)
        let recordAlone = try CLIRunner.run(["serve", "--record"], currentDirectory: folder.url)
        XCTAssertEqual(recordAlone.status, 64, recordAlone.stderr)
        XCTAssertTrue(
            recordAlone.stderr.contains("serve --record records live answers; add --proxy"), recordAlone.stderr)
    }

    /// The live body is passed on as it comes: the client reads its first part while the live
    /// server holds the rest behind a gate (a mock that held the body whole would send nothing).
    func testALiveBodyIsStreamedAsItComes() throws {
        let server = try ServeProcess(["--proxy"], in: folder.url, environment: environment)
        let client = try LoopbackClient(port: server.port)
        XCTAssertTrue(
            client.send("GET /trickle/streamed?first=6669727374&rest=2d7265737421 HTTP/1.1\r\nHost: x\r\n\r\n"))
        let first = try XCTUnwrap(client.read(until: "first\r\n"), "the first part came before the gate opened")
        XCTAssertTrue(first.hasPrefix("HTTP/1.1 200 OK\r\n"), first)
        XCTAssertTrue(first.contains("\r\nTransfer-Encoding: chunked\r\n"), first)
        XCTAssertTrue(first.hasSuffix("\r\n\r\n5\r\nfirst\r\n"), first)
        let gate = try CLIRunner.run(
            ["request", "GET", "http://127.0.0.1:\(live.port)/gate/streamed"], currentDirectory: folder.url)
        XCTAssertEqual(gate.status, 0, gate.stderr)
        let rest = try XCTUnwrap(client.read(until: "0\r\n\r\n"))
        XCTAssertEqual(rest, "6\r\n-rest!\r\n0\r\n\r\n")
        // The connection is kept: the next request on it is answered.
        XCTAssertTrue(client.get("/anything/items/1"))
        server.waitFor("GET /trickle/streamed?first=6669727374&rest=2d7265737421 - 200 (proxied) ")
        XCTAssertEqual(server.stop(), 130)
    }

    /// An `oauth2` API: the proxy gets a token as `call` does, and after the live API revokes it,
    /// gets a new one once and sends again; the client sees only the answer that counts.
    func testAnOAuthTokenIsObtainedAndRenewedAfterA401AsCallDoes() throws {
        let oauth = try OAuthFixture()
        defer { oauth.stop() }
        var environment = oauth.environment
        environment["MOYA_ALLOW_ENV"] = "GUARDED_CLIENT_ID:GUARDED_CLIENT_SECRET"
        let server = try ServeProcess(["--proxy"], in: oauth.folder.url, environment: environment)
        let first = try server.curl("/oauth/protected", ["-H", "Prefer: proxy"])
        XCTAssertTrue(first.hasPrefix("HTTP/1.1 200 OK\r\n"), first)
        oauth.server.oauth.revokeAllTokens()
        let second = try server.curl("/oauth/protected", ["-H", "Prefer: proxy"])
        XCTAssertTrue(second.hasPrefix("HTTP/1.1 200 OK\r\n"), "renewed after the 401: \(second)")
        XCTAssertEqual(oauth.protectedRequestCount, 3, "one request, then a 401 and the same with a new token")
        server.waitFor("GET /oauth/protected guarded.protected 200 (proxied) ")
        oauth.assertNoSecret(server.stderr)
        XCTAssertEqual(server.stop(), 130)
    }

    func testProxyRecordWritesTheLiveAnswerToADeclaredCaseAsItsSample() throws {
        let server = try ServeProcess(["--proxy", "--record"], in: folder.url, environment: environment)
        let answer = try server.curl("/anything/items/7", ["-H", "Prefer: proxy", "-H", "Authorization: Bearer x"])
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), answer)
        server.waitFor("GET /anything/items/7 live.item 200 (proxied, recorded) ")
        XCTAssertTrue(
            server.stderr.contains("moya-cli: recorded HTTP 200 as the default sample of live.item in "), server.stderr)
        let file = try String(contentsOf: folder.url.appendingPathComponent("targets/live.yaml"), encoding: .utf8)
        XCTAssertTrue(file.contains("sample: {status: 200, json: {"), file)
        XCTAssertTrue(file.contains("path: /anything/items/7"), file)
        XCTAssertFalse(file.contains("live-t0ken-123"), "the token never reaches the file: \(file)")
        // Not declared: forwarded, never recorded.
        _ = try server.curl("/anything/elsewhere")
        server.waitFor("GET /anything/elsewhere - 200 (proxied) ")
        XCTAssertEqual(server.stop(), 130)
    }
}
