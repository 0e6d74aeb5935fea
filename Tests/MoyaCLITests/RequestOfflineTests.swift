import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 47, item 3: `request --offline` prints the request as `-v`'s `>` lines show it (secrets
/// redacted) and sends nothing; with `--curl` it prints the curl command; with `--save-as` it saves
/// the case unsent. The loopback server counts what is sent.
final class RequestOfflineTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
        try sandbox.write(
            "targets/hb.yaml",
            """
            api: hb
            baseURL: http://127.0.0.1:\(server.port)
            headers: {X-From-File: file}
            cases:
              zen: {path: /zen, sample: ok}
            """)
    }

    override func tearDown() {
        server.stop()
    }

    func testOfflinePrintsTheRequestAndSendsNothing() throws {
        let result = try sandbox.run([
            "request", "hb", "POST", "/post", "user[name]=Ada", "q==1", "-u", "bob:pw-1234", "-A", "probe/1",
            "--offline"
        ])
        assertRun(
            result, status: 0,
            stdout: """
                > POST /post?q=1 HTTP/1.1
                > Host: 127.0.0.1:\(server.port)
                > Content-Type: application/json
                > X-From-File: file
                > Authorization: Basic <redacted>
                > User-Agent: probe/1
                >
                {"user":{"name":"Ada"}}

                """, stderr: "")
        XCTAssertFalse(result.stdout.contains("pw-1234"))
        let url = try sandbox.run(["request", "GET", "http://127.0.0.1:\(server.port)/get", "--offline", "-v"])
        assertRun(
            url, status: 0,
            stdout: """
                > GET /get HTTP/1.1
                > Host: 127.0.0.1:\(server.port)
                > User-Agent: moya-cli/0.1.0
                >

                """, stderr: "")
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    func testCurlOfflineOnlyPrintsTheCommand() throws {
        let result = try sandbox.run([
            "request", "hb", "PUT", "/put", "a:=1", "X-Token:s3cret-token", "--curl", "--offline"
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(result.stdout.hasPrefix("curl "), result.stdout)
        XCTAssertTrue(result.stdout.contains("--data-binary '{\"a\":1}'"), result.stdout)
        XCTAssertTrue(result.stdout.contains("-X PUT"), result.stdout)
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    func testOfflineSaveAsSavesWithoutSending() throws {
        let result = try sandbox.run(["request", "hb", "POST", "/post", "tags[]=x", "--offline", "--save-as", "tagged"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "moya-cli: saved case 'tagged' in targets/hb.yaml (line 6)\n")
        XCTAssertEqual(server.receivedRequests.count, 0)
        let again = try sandbox.run(["call", "hb", "tagged"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(
            server.receivedRequests.last.map { String(decoding: $0.body, as: UTF8.self) }, #"{"tags":["x"]}"#)
        assertRun(
            try sandbox.run(["request", "hb", "GET", "/get", "--offline", "--save-as", "x", "--save-sample"]),
            status: 64,
            stdout: "",
            stderr: "moya-cli: error: --save-sample saves the response, and --offline sends nothing; give one\n")
        XCTAssertEqual(server.receivedRequests.count, 1)
    }
}
