import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 46, item 1: timeouts as URLSession has them. The idle limit ends a transfer that stalls;
/// a transfer that keeps moving outlives any idle limit, and the total limit, when set, is its
/// own; each failure names the limit it hit.
final class TransferTimeoutTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write(
            "targets/slow.yaml",
            """
            api: slow
            baseURL: http://127.0.0.1:\(server.port)
            idleTimeout: 1
            cases:
              drip:
                values: [{seconds: double}, {count: int}]
                path: /drip
                task: {parameters: {duration: "{seconds}", numbytes: "{count}"}, encoding: url}
              pause:
                values: [{milliseconds: int}]
                path: /trickle/none
                task: {parameters: {first: "6162", rest: "6364", wait: "{milliseconds}"}, encoding: url}
              patient:
                idleTimeout: 5
                values: [{milliseconds: int}]
                path: /trickle/none
                task: {parameters: {first: "6162", rest: "6364", wait: "{milliseconds}"}, encoding: url}
              bounded:
                timeout: 1
                idleTimeout: 30
                values: [{seconds: double}, {count: int}]
                path: /drip
                task: {parameters: {duration: "{seconds}", numbytes: "{count}"}, encoding: url}
            """)
    }

    override func tearDown() {
        server.stop()
    }

    func run(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(arguments, environment: ["HOME": folder.url.path], currentDirectory: folder.url)
    }

    func testATrickleLongerThanTheIdleLimitButNeverIdlePasses() throws {
        // 3 s in all, a byte every 0.3 s: three times the file's idle limit of 1 s, never idle
        // that long; there is no total limit unless one is set.
        let result = try run(["call", "slow", "drip", "3", "10"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, String(repeating: "*", count: 10))
    }

    func testATrickleLongerThanTheIdleOptionPassesToo() throws {
        let result = try run(["call", "slow", "drip", "2.4", "8", "--idle-timeout", "1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "********")
    }

    func testAnIdlePauseFailsNamingTheIdleLimit() throws {
        let result = try run(["call", "slow", "pause", "4000"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("idle timeout: nothing was sent or received for 1 s"), result.stderr)
        XCTAssertFalse(result.stderr.contains("total timeout"), result.stderr)
    }

    func testTheCaseAndTheCommandLineSetTheIdleLimit() throws {
        // The case's 5 s outlasts a 2 s pause; --idle-timeout 1 on the command line wins over it.
        let patient = try run(["call", "slow", "patient", "2000"])
        XCTAssertEqual(patient.status, 0, patient.stderr)
        XCTAssertEqual(patient.stdout, "abcd")
        let hurried = try run(["call", "slow", "patient", "3000", "--idle-timeout", "1"])
        XCTAssertEqual(hurried.status, 2, hurried.stderr)
        XCTAssertTrue(hurried.stderr.contains("idle timeout"), hurried.stderr)
    }

    func testTheTotalLimitStaysAndSaysSo() throws {
        // Never idle, but longer than the case's total `timeout: 1`: the file's meaning is kept.
        let bounded = try run(["call", "slow", "bounded", "4", "8"])
        XCTAssertEqual(bounded.status, 2, bounded.stderr)
        XCTAssertTrue(bounded.stderr.contains("total timeout: the request took more than 1 s"), bounded.stderr)
        let option = try run(["call", "slow", "drip", "4", "8", "-m", "1"])
        XCTAssertEqual(option.status, 2, option.stderr)
        XCTAssertTrue(option.stderr.contains("total timeout"), option.stderr)
        XCTAssertFalse(option.stderr.contains("idle timeout"), option.stderr)
    }

    func testCurlPrintsTheIdleLimitAsASpeedLimitAndTheTotalOneOnlyWhenSet() throws {
        let idle = try run(["curl", "slow", "drip", "1", "2"])
        XCTAssertEqual(idle.status, 0, idle.stderr)
        XCTAssertTrue(idle.stdout.contains("--speed-limit 1 --speed-time 1 "), idle.stdout)
        XCTAssertFalse(idle.stdout.contains("--max-time"), idle.stdout)
        let both = try run(["curl", "slow", "drip", "1", "2", "--idle-timeout", "2.5", "-m", "90"])
        XCTAssertTrue(both.stdout.contains("--speed-limit 1 --speed-time 3 --max-time 90 "), both.stdout)
    }

    func testABadIdleLimitIsRefused() throws {
        let option = try run(["call", "slow", "drip", "1", "2", "--idle-timeout", "0"])
        XCTAssertEqual(option.status, 64, option.stderr)
        XCTAssertTrue(
            option.stderr.contains("--idle-timeout must be a number of seconds greater than 0"), option.stderr)
        try folder.write(
            "targets/bad.yaml",
            """
            api: bad
            baseURL: http://127.0.0.1:\(server.port)
            idleTimeout: -1
            cases:
              zen: {path: /get, idleTimeout: forever}
            """)
        let file = try run(["validate", "targets/bad.yaml"])
        XCTAssertEqual(file.status, 65, file.stderr)
        XCTAssertTrue(
            file.stderr.contains("bad.yaml:3:14: error: expected a number of seconds greater than 0"), file.stderr)
        XCTAssertTrue(
            file.stderr.contains("bad.yaml:5:34: error: expected a number, found string \"forever\""), file.stderr)
    }
}
