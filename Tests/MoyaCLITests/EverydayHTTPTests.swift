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
