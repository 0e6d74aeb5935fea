import CLITestSupport
import Foundation
import TestServers
import XCTest

/// `auth: {type: command}`: a token a command prints, run only from a trusted target file.
final class CommandAuthTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        server.stop()
    }

    /// A script printing `body`'s output, and a target file running it.
    func writeTarget(script body: String, timeout: String = "") throws {
        let script = try folder.write("bin/token.sh", "#!/bin/sh\n" + body + "\n")
        chmod(script.path, 0o700)
        let target = try folder.write(
            "targets/tokened.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            auth: {type: command, command: ["\(script.path)", "--for", "tokened"]\(timeout)}
            cases:
              whoami: {path: /bearer, sample: ok}
              twice: {path: /anything/twice, sample: ok}
            """)
        chmod(target.path, 0o644)
    }

    var trusted: [String: String] { ["MOYA_TRUSTED_TARGETS": folder.url.appendingPathComponent("targets").path] }

    func call(_ arguments: [String], environment: [String: String]) throws -> CLIResult {
        try CLIRunner.run(arguments, environment: environment, currentDirectory: folder.url)
    }

    func testTheCommandsFirstLineIsTheBearerToken() throws {
        let log = folder.url.appendingPathComponent("runs.log").path
        try writeTarget(script: "echo \"$@\" >> \(log); echo 'cmd-token-1234'; echo 'second line'; echo 'a note' >&2")
        let result = try call(["call", "tokened", "whoami", "-v"], environment: trusted)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, #"{"authenticated":true,"token":"cmd-token-1234"}"#)
        // stderr passes through; the token is redacted from -v.
        XCTAssertTrue(result.stderr.contains("a note\n"), result.stderr)
        // A program a target file runs is never run silently, -v or not.
        let script = folder.url.appendingPathComponent("bin/token.sh").path
        let announcement =
            "moya-cli: running the token command of API 'tokened' (targets/tokened.yaml): \(script) --for tokened\n"
        XCTAssertTrue(result.stderr.hasPrefix(announcement), result.stderr)
        XCTAssertTrue(result.stderr.contains("Authorization: Bearer <redacted>"), result.stderr)
        XCTAssertFalse(result.stderr.contains("cmd-token-1234"), result.stderr)
        // The arguments arrived as written, and nothing is cached: a second run runs it again.
        XCTAssertEqual(try call(["call", "tokened", "whoami"], environment: trusted).status, 0)
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8), "--for tokened\n--for tokened\n")
    }

    func testCheckRunsTheCommandOncePerRun() throws {
        let log = folder.url.appendingPathComponent("runs.log").path
        try writeTarget(script: "echo run >> \(log); echo 'cmd-token-1234'")
        let check = try call(["check", "tokened", "--live"], environment: trusted)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertEqual(
            check.stderr.components(separatedBy: "moya-cli: running the token command").count, 2,
            "announced once: \(check.stderr)")
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8), "run\n")
    }

    func testAnUntrustedFileRunsNothing() throws {
        let marker = folder.url.appendingPathComponent("ran").path
        try writeTarget(script: "touch \(marker); echo tok")
        let result = try call(["call", "tokened", "whoami"], environment: [:])
        XCTAssertEqual(result.status, 7, result.stderr)
        XCTAssertTrue(result.stderr.contains("moya-cli: error: not running the token command"), result.stderr)
        XCTAssertTrue(result.stderr.contains("only from a target file you trust"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker))
        XCTAssertEqual(server.receivedRequests.count, 0)
        // Trusted, but writable by others: refused as well.
        chmod(folder.url.appendingPathComponent("targets/tokened.yaml").path, 0o666)
        let writable = try call(["call", "tokened", "whoami"], environment: trusted)
        XCTAssertEqual(writable.status, 7, writable.stderr)
        XCTAssertTrue(writable.stderr.contains("is writable by other users"), writable.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker))
    }

    func testFailingCommandsExit7() throws {
        let cases: [(script: String, timeout: String, message: String)] = [
            ("echo 'no such user' >&2; exit 3", "", "failed with exit status 3"),
            ("echo", "", "printed no token on its first line"),
            ("exec sleep 20", ", timeout: 0.3", "did not finish within 0.3 s; it was stopped")
        ]
        for (script, timeout, message) in cases {
            try writeTarget(script: script, timeout: timeout)
            let result = try call(["call", "tokened", "whoami"], environment: trusted)
            XCTAssertEqual(result.status, 7, "\(script): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(script): \(result.stderr)")
        }
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    /// A signal sent to moya-cli's pid alone (not to its terminal's group, as `kill PID` or a CI
    /// runner's timeout does) ends the token command and what it started, as a timeout does.
    func testASignalToMoyaCLIEndsTheTokenCommand() throws {
        let pids = folder.url.appendingPathComponent("pids").path
        // The script's own pid and a child's: both must be gone after moya-cli is. The child holds
        // none of moya-cli's pipes, so nothing but the kill can end it early.
        try writeTarget(
            script: "sleep 60 </dev/null >/dev/null 2>&1 & echo \"$$ $!\" > \(pids).tmp; mv \(pids).tmp \(pids); wait")
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            try? FileManager.default.removeItem(atPath: pids)
            let run = try CLIRunner.interrupt(
                ["call", "tokened", "whoami"], in: folder.url, signal: signal, environment: trusted,
                when: { FileManager.default.fileExists(atPath: pids) }, whileRunning: { _ in () })
            XCTAssertEqual(run.status, 128 + signal, run.stderr)
            let started = try String(contentsOfFile: pids, encoding: .utf8).split(separator: " ").compactMap {
                pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            XCTAssertEqual(started.count, 2, "the script wrote its pid and its child's")
            for pid in started {
                let deadline = Date().addingTimeInterval(5)
                while kill(pid, 0) == 0 && Date() < deadline { usleep(20_000) }
                XCTAssertNotEqual(
                    kill(pid, 0), 0, "process \(pid) of the token command outlived moya-cli (signal \(signal))")
            }
        }
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    /// A token command that runs over its timeout is stopped with what it started (here a child
    /// holding the pipe the token is read from, which kept moya-cli waiting when only the
    /// command itself was killed).
    func testATimedOutCommandsChildrenAreStoppedToo() throws {
        let pids = folder.url.appendingPathComponent("pids").path
        try writeTarget(script: "sleep 60 & echo $! > \(pids); wait", timeout: ", timeout: 0.5")
        let result = try call(["call", "tokened", "whoami"], environment: trusted)
        XCTAssertEqual(result.status, 7, result.stderr)
        let child = try XCTUnwrap(
            pid_t(try String(contentsOfFile: pids, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let deadline = Date().addingTimeInterval(5)
        while kill(child, 0) == 0 && Date() < deadline { usleep(20_000) }
        XCTAssertNotEqual(kill(child, 0), 0, "the command's child outlived its timeout")
    }

    func testAStubRunsNoCommand() throws {
        let marker = folder.url.appendingPathComponent("ran").path
        try writeTarget(script: "touch \(marker); echo tok")
        let result = try call(["call", "tokened", "whoami", "--stub"], environment: trusted)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "ok")
        let curl = try call(["curl", "tokened", "whoami"], environment: trusted)
        XCTAssertTrue(curl.stdout.contains("'Authorization: Bearer <redacted>'"), curl.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker))
    }

    func testInvalidCommandsAreLoadErrors() throws {
        try folder.write(
            "targets/tokened.yaml",
            """
            baseURL: http://127.0.0.1:1
            auth: {type: command, command: []}
            cases:
              a: {path: /a, sample: ok}
            """)
        let empty = try call(["validate", "targets/tokened.yaml"], environment: [:])
        XCTAssertEqual(empty.status, 65)
        XCTAssertTrue(empty.stderr.contains("tokened.yaml:2:32: error: 'command' is empty"), empty.stderr)
        try folder.write(
            "targets/tokened.yaml",
            """
            baseURL: http://127.0.0.1:1
            auth: {type: command, command: "gh auth token", token: x}
            cases:
              a: {path: /a, sample: ok}
            """)
        let shell = try call(["validate", "targets/tokened.yaml"], environment: [:])
        XCTAssertEqual(shell.status, 65)
        XCTAssertTrue(
            shell.stderr.contains("tokened.yaml:2:32: error: expected a list of the program and its arguments"),
            shell.stderr)
        XCTAssertTrue(shell.stderr.contains("auth type 'command' has no key 'token'"), shell.stderr)
    }
}
