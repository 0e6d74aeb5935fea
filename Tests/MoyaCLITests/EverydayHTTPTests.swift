import Foundation
import TestSupport
import XCTest

/// Issue 13: what curl and HTTPie users expect every day — a User-Agent, compressed bodies.
final class EverydayHTTPTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write("targets/web.yaml", """
            api: web
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              echo: {path: /anything, sample: ok}
              named: {path: /anything, headers: {User-Agent: my-tool/2}, sample: ok}
              gzip: {path: /gzip, sample: ok}
              bomb:
                values: [{size: int}]
                path: /gzip-zeros/{size}
                sample: ok
            """)
    }

    override func tearDown() {
        server.stop()
    }

    private func run(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(arguments, environment: ["HOME": folder.url.path], currentDirectory: folder.url)
    }

    func testADefaultUserAgentThatTheFileAndTheCommandLineReplace() throws {
        XCTAssertEqual(try run(["call", "web", "echo"]).status, 0)
        XCTAssertEqual(try run(["call", "web", "named"]).status, 0)
        XCTAssertEqual(try run(["call", "web", "echo", "-H", "User-Agent: cli/3"]).status, 0)
        XCTAssertEqual(try run(["call", "web", "echo", "-H", "User-Agent:"]).status, 0)
        XCTAssertEqual(server.receivedRequests.map { $0.values(of: "User-Agent") },
                       [["moya-cli/0.1.0"], ["my-tool/2"], ["cli/3"], []])
        let curl = try run(["curl", "web", "echo"])
        XCTAssertTrue(curl.stdout.contains("-H 'User-Agent: moya-cli/0.1.0'"), curl.stdout)
    }

    func testCompressedBodiesAreAskedForAndDecoded() throws {
        let result = try run(["call", "web", "gzip", "--keypath", "slideshow.title"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "Sample Slide Show\n")
        let encodings = try XCTUnwrap(server.receivedRequests.first?.value(of: "Accept-Encoding"))
        XCTAssertTrue(encodings.contains("gzip"), encodings)
        let piped = try run(["call", "web", "gzip"])
        XCTAssertEqual(piped.stdout, HTTPTestServer.jsonDocument, "a pipe gets the decoded body")
        let curl = try run(["curl", "web", "gzip"])
        XCTAssertTrue(curl.stdout.contains("--compressed"), curl.stdout)
    }

    func testAGzipBombStopsAtTheBodySizeCeiling() throws {
        // 64 MiB of zeros, about 64 KiB compressed: the ceiling counts decoded bytes.
        let result = try run(["call", "web", "bomb", String(64 << 20), "--keypath", "x", "--max-body-size", "1M"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("--max-body-size"), result.stderr)
        let streamed = try run(["call", "web", "bomb", String(1 << 20), "-o", "zeros.bin"])
        XCTAssertEqual(streamed.status, 0, streamed.stderr)
        let written = try Data(contentsOf: folder.url.appendingPathComponent("zeros.bin"))
        XCTAssertEqual(written, Data(count: 1 << 20), "-o gets the decoded bytes")
    }
}

/// Issue 13, item 5: `-v` shows the exchange as HTTP, as curl and HTTPie do.
final class VerboseLogTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write("targets/web.yaml", """
            api: web
            baseURL: http://127.0.0.1:\(server.port)
            headers: {X-Token: "${secret:WEB_TOKEN}"}
            cases:
              send:
                values: [{q: string}]
                method: POST
                path: /anything
                task: {json: {query: "{q}", secret: "${secret:WEB_TOKEN}"}}
                sample: {status: 201, json: {ok: true}}
              hop: {path: /redirect/1, sample: ok}
            """.replacingOccurrences(of: "secret: \"${secret:WEB_TOKEN}\"", with: "note: \"{q}\""))
    }

    override func tearDown() {
        server.stop()
    }

    private func run(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(arguments, environment: ["HOME": folder.url.path, "WEB_TOKEN": "tok-123456"], currentDirectory: folder.url)
    }

    func testALiveExchangeIsShownAsHTTPWithTheBodyOnce() throws {
        let result = try run(["call", "web", "send", "hello", "-v"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let log = result.stderr
        for line in ["> POST /anything HTTP/1.1", "> Host: 127.0.0.1:\(server.port)", "> Content-Type: application/json",
                     "> User-Agent: moya-cli/0.1.0", "> X-Token: <redacted>", #"{"query":"hello","note":"hello"}"#,
                     "< HTTP/1.1 200 OK", "< Content-Type: application/json"] {
            XCTAssertTrue(log.contains(line + "\n"), "\(line) in:\n\(log)")
        }
        XCTAssertFalse(log.contains("tok-123456"), log)
        XCTAssertFalse(log.contains("Moya_Logger"), log)
        XCTAssertFalse(log.contains(#""method":"POST""#), "the response body is on stdout only: \(log)")
        XCTAssertTrue(result.stdout.contains(#""method":"POST""#), result.stdout)
    }

    func testEveryHopOfARedirectIsShown() throws {
        let result = try run(["call", "web", "hop", "-v"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("> GET /redirect/1 HTTP/1.1"), result.stderr)
        XCTAssertTrue(result.stderr.contains("< HTTP/1.1 302 Found"), result.stderr)
        XCTAssertTrue(result.stderr.contains("> GET /get HTTP/1.1"), result.stderr)
    }

    func testAStubbedExchangeIsShownTheSameWay() throws {
        let result = try run(["call", "web", "send", "hi", "--stub", "-v"])
        XCTAssertEqual(result.status, 0, result.stderr)
        for line in ["* stubbed", "> POST /anything HTTP/1.1", "> X-Token: <redacted>", "< HTTP/1.1 201 Created", "<"] {
            XCTAssertTrue(result.stderr.contains(line), "\(line) in:\n\(result.stderr)")
        }
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }
}
