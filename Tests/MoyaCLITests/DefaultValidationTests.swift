import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 28, item 3: a file that writes no `validation` fails a 3xx (after redirects), 4xx or 5xx
/// with exit 3, 4 or 5, as README and moya-cli(1) promise; `validation: none` written in the file
/// keeps Moya's behaviour, and so does `validation: []` (Moya's `.customCodes([])`). Through the
/// binary against the loopback server.
final class DefaultValidationTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
        let cases = """
            cases:
              status:
                values: [{code: int}]
                path: /status/{code}
                task: {parameters: {body: "body {code}"}, encoding: url}
                sample: {status: 404, text: missing}
                examples: [[200]]
            """
        try sandbox.write("targets/absent.yaml", "api: absent\nbaseURL: http://127.0.0.1:\(server.port)\n" + cases)
        try sandbox.write(
            "targets/none.yaml", "api: none\nbaseURL: http://127.0.0.1:\(server.port)\nvalidation: none\n" + cases)
        try sandbox.write(
            "targets/empty.yaml", "api: empty\nbaseURL: http://127.0.0.1:\(server.port)\nvalidation: []\n" + cases)
        try sandbox.write(
            "targets/own.yaml",
            """
            api: own
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              status:
                values: [{code: int}]
                path: /status/{code}
                task: {parameters: {body: "body {code}"}, encoding: url}
                validation: none
                sample: ok
            """)
    }

    override func tearDown() {
        server.stop()
    }

    private func assertLive(_ api: String, _ code: Int, _ extra: [String] = [], status: Int32, line: UInt = #line)
        throws
    {
        let result = try sandbox.run(["call", api, "status", String(code)] + extra)
        let error = status == 0 ? "" : "moya-cli: error: \(api).status: HTTP \(code) failed the case's validation\n"
        assertRun(result, status: status, stdout: "body \(code)", stderr: error, line: line)
    }

    func testAFileWithoutValidationFailsOutside2xx() throws {
        try assertLive("absent", 200, status: 0)
        try assertLive("absent", 404, status: 4)
        try assertLive("absent", 500, status: 5)
        // 300 has no Location: the final response is a 3xx.
        try assertLive("absent", 300, status: 3)
        try assertLive("absent", 301, ["--no-follow"], status: 3)
    }

    func testARedirectIsJudgedByTheResponseItLeadsTo() throws {
        let followed = try sandbox.run(["call", "absent", "status", "301"])
        XCTAssertEqual(followed.status, 0, followed.stderr)
        XCTAssertEqual(followed.stderr, "")
        XCTAssertTrue(followed.stdout.contains("\"url\":\"http://127.0.0.1:\(server.port)/get\""), followed.stdout)
    }

    func testValidationNoneWrittenAcceptsEveryStatus() throws {
        for api in ["none", "empty", "own"] {
            for code in [200, 300, 404, 500] {
                try assertLive(api, code, status: 0)
            }
            try assertLive(api, 301, ["--no-follow"], status: 0)
        }
    }

    func testTheStubFollowsTheSameRule() throws {
        assertRun(
            try sandbox.run(["call", "absent", "status", "1", "--stub"]), status: 4, stdout: "missing",
            stderr: "moya-cli: error: absent.status: HTTP 404 failed the case's validation\n")
        assertRun(try sandbox.run(["call", "none", "status", "1", "--stub"]), status: 0, stdout: "missing", stderr: "")
    }

    /// `check` keeps its rule (the default sample and a live status must pass the case's
    /// validation); the case's validation is now 2xx when the file writes none.
    func testCheckJudgesByTheSameDefault() throws {
        let offline = try sandbox.run(["check", "absent", "none"])
        XCTAssertEqual(offline.status, 8, offline.stderr)
        XCTAssertEqual(offline.stdout, "")
        XCTAssertTrue(
            offline.stderr.contains(
                "sample 'default', the default, answers HTTP 404, which fails the case's validation (2xx); "
                    + "the default sample must pass: put a success sample first"), offline.stderr)
        XCTAssertTrue(
            offline.stderr.contains("check (offline): 1 passed, 1 failed"),
            "validation: none lets the 404 sample pass: \(offline.stderr)")
    }

    /// Where it matters: a sample whose status the unwritten default fails; none where the file
    /// or the case writes `validation`, or no sample fails.
    func testValidateNotesTheDefaultWhereASampleFailsIt() throws {
        let note =
            "targets/absent.yaml:8:13: note: this sample's status 404 fails the validation of a file that writes none "
            + "(200...299: call exits 4); write 'validation: none' to accept every status\n"
        assertRun(
            try sandbox.run(["validate", "targets/absent.yaml"]), status: 0,
            stdout: "targets/absent.yaml: ok (API 'absent', 1 case)\n", stderr: note)
        assertRun(
            try sandbox.run(["validate", "targets/none.yaml", "targets/empty.yaml", "targets/own.yaml"]), status: 0,
            stdout: "targets/none.yaml: ok (API 'none', 1 case)\ntargets/empty.yaml: ok (API 'empty', 1 case)\n"
                + "targets/own.yaml: ok (API 'own', 1 case)\n", stderr: "")
        let discovered = try sandbox.run(["validate"])
        XCTAssertEqual(discovered.status, 0, discovered.stderr)
        XCTAssertEqual(discovered.stderr, note)
        try sandbox.write(
            "ok.yaml",
            "baseURL: http://127.0.0.1:1\ncases:\n  a: {path: /a, samples: {fine: {status: 201}, moved: {status: 200}}}\n"
        )
        assertRun(
            try sandbox.run(["validate", "ok.yaml"]), status: 0, stdout: "ok.yaml: ok (API 'ok', 1 case)\n", stderr: "")
    }

    func testAnInvalidFileGetsNoNote() throws {
        try sandbox.write("bad.yaml", "baseURL: http://127.0.0.1:1\ncases:\n  a: {path: /a, method: FETCH}\n")
        let result = try sandbox.run(["validate", "bad.yaml"])
        XCTAssertEqual(result.status, 65)
        XCTAssertFalse(result.stderr.contains("note:"), result.stderr)
    }
}
