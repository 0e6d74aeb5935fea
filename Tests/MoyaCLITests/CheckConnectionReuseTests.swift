import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 16: a live sweep reuses its kept-alive connections across checks, as `curl --parallel`
/// does, instead of opening new ones as transfers come and go.
final class CheckConnectionReuseTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        server.stop()
    }

    /// Writes an API of `count` cases, each asking for its own path (so no two requests are
    /// identical and none is coalesced), each with a JSON sample whose shape the answer has.
    private func writeSweep(count: Int) throws {
        var text = """
            api: sweep
            baseURL: http://127.0.0.1:\(server.port)
            validation: successCodes
            cases:

            """
        for index in 1...count {
            text +=
                "  item\(index):\n    path: /anything/\(index)\n    sample: {json: {method: GET, path: /anything/\(index)}}\n"
        }
        try folder.write("targets/sweep.yaml", text)
    }

    func testLiveSweepReusesConnectionsAcrossChecks() throws {
        try writeSweep(count: 600)
        let result = try CLIRunner.run(
            ["check", "sweep", "--live", "--jobs", "16"], currentDirectory: folder.url, timeout: 120)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("600 passed, 0 failed; 600 checks in"), result.stderr)
        XCTAssertEqual(server.receivedRequests.count, 600, "every check sends its request")
        XCTAssertEqual(Set(server.receivedRequests.map(\.path)).count, 600)
        // Sixteen at a time over kept-alive connections: at most sixteen connections carry them
        // all (libcurl's per-host limit is 16). Before the fix, kept connections were closed
        // between checks and new ones opened: 45 for 1,000 requests against nginx.
        XCTAssertLessThanOrEqual(
            server.acceptedConnectionCount, 16,
            "\(server.acceptedConnectionCount) connections for 600 requests: connections are not reused")
    }

    func testSequentialLiveChecksShareOneConnection() throws {
        try writeSweep(count: 20)
        let result = try CLIRunner.run(
            ["check", "sweep", "--live", "--jobs", "1"], currentDirectory: folder.url, timeout: 120)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.receivedRequests.count, 20)
        XCTAssertEqual(server.acceptedConnectionCount, 1, "one check at a time: one kept-alive connection")
    }

    /// A server that closes each connection after answering: every check still passes, on a
    /// new connection each time (a kept connection the server closed is never used again).
    func testServerClosingConnectionsIsNoFailure() throws {
        var text = """
            api: closing
            baseURL: http://127.0.0.1:\(server.port)
            validation: successCodes
            headers: {Connection: close}
            cases:

            """
        for index in 1...30 {
            text += "  item\(index):\n    path: /anything/\(index)\n    sample: {json: {method: GET}}\n"
        }
        try folder.write("targets/closing.yaml", text)
        let result = try CLIRunner.run(
            ["check", "closing", "--live", "--jobs", "4"], currentDirectory: folder.url, timeout: 120)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("30 passed, 0 failed"), result.stderr)
        XCTAssertEqual(server.receivedRequests.count, 30)
        XCTAssertEqual(server.acceptedConnectionCount, 30, "a connection the server closed is not reused")
    }
}
