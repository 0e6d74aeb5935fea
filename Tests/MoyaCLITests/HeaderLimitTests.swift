import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 26, item 9: libcurl reads no header line over 100 KB (CURL_MAX_HTTP_HEADER) and, before
/// 8.6, calls that "Out of memory". A response with such a line (a long `Link`, here) fails
/// with exit 1 and a message naming the limit, for a call, `--all` and a live check; a line
/// under the limit is read.
final class HeaderLimitTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
        try sandbox.write(
            "targets/long.yaml",
            """
            api: long
            baseURL: http://127.0.0.1:\(server.port)
            validation: successCodes
            pagination: {next: link}
            cases:
              link:
                values: [{bytes: int}]
                path: /long-link/{bytes}
                sample: {json: []}
                examples: [[150000]]
            """)
    }

    override func tearDown() {
        server.stop()
    }

    let message =
        "moya-cli: error: the server sent a header line over libcurl's 100 KB limit "
        + "(or headers over its 300 KB total in libcurl 8 and later); the response cannot be read\n"

    func testAHeaderLineOverTheLimitIsNamedNotOutOfMemory() throws {
        assertRun(try sandbox.run(["call", "long", "link", "150000"]), status: 1, stdout: "", stderr: message)
        assertRun(try sandbox.run(["call", "long", "link", "1048576"]), status: 1, stdout: "", stderr: message)
        XCTAssertEqual(server.receivedRequests.count, 2)
    }

    func testPagingStopsAtTheLongHeaderWithTheSameMessage() throws {
        let result = try sandbox.run(["call", "long", "link", "150000", "--all"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stdout, "[]\n", "the array is closed")
        XCTAssertTrue(
            result.stderr.hasPrefix(
                "moya-cli: error: page 1: the server sent a header line over libcurl's 100 KB limit"), result.stderr)
        XCTAssertFalse(result.stderr.contains("Out of memory"), result.stderr)
    }

    func testALiveCheckFailsWithTheMessage() throws {
        let result = try sandbox.run(["check", "long", "--live"])
        XCTAssertEqual(result.status, 8, result.stderr)
        let line = try XCTUnwrap(CheckFixtures.line("long.link#1", in: result.stderr), result.stderr)
        XCTAssertTrue(line.contains("the server sent a header line over libcurl's 100 KB limit"), line)
    }

    func testALineUnderTheLimitIsRead() throws {
        let result = try sandbox.run(["call", "long", "link", "100000", "--headers-only"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let link = try XCTUnwrap(result.stdout.split(separator: "\n").first { $0.hasPrefix("Link: ") }, result.stdout)
        XCTAssertEqual(link.utf8.count, 100_000 - 2, "the whole line, without its CRLF")
    }
}
