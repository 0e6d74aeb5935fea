import CLITestSupport
import Foundation
import TestServers
import XCTest

/// `call --capture` read by a real shell, and a create → get → delete chain in `check`, live over
/// loopback and offline from samples.
final class CaptureChainTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
        try sandbox.write(
            "targets/store.yaml",
            """
            api: store
            baseURL: http://127.0.0.1:\(server.port)
            validation: successCodes
            cases:
              create:
                method: POST
                path: /items
                values: [{name: string}]
                task: {json: {name: "{name}"}}
                captures:
                  id: "$.id"
                  name: "$.name"
                  location: {header: Location}
                  secretName: {body: "$.name", secret: true}
                sample:
                  status: 201
                  headers: {Location: /items/item-1}
                  json: {id: item-1, name: "{name}"}
                examples: [[widget-secret-name]]
              get:
                values: [{id: string}]
                path: /items/{id}
                captures: {id: "$.id"}
                sample: {json: {id: "{id}"}}
                examples:
                  - {after: create, with: {id: "{id}"}}
              delete:
                method: DELETE
                values: [{id: string}, {note: {type: string, default: ""}}]
                path: /items/{id}
                headers: {X-Note: "{note}"}
                sample: {status: 204}
                examples:
                  - {after: get, with: {id: "{id}", note: "{secretName}"}}
              missing:
                path: /json
                captures: {id: "$.nope"}
                sample: {json: {id: null}}
            """)
    }

    override func tearDown() {
        server.stop()
    }

    func testCaptureLinesAreEvaluatedSafelyBySh() throws {
        let hostile = "it's $(touch pwned) `touch pwned2`; touch pwned3\nsecond line"
        let result = try sandbox.run(["call", "store", "create", hostile, "--capture"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout,
            """
            id='item-1'
            name='it'\\''s $(touch pwned) `touch pwned2`; touch pwned3
            second line'
            location='/items/item-1'
            secretName='it'\\''s $(touch pwned) `touch pwned2`; touch pwned3
            second line'

            """)
        try sandbox.write("captured.sh", result.stdout)
        let shell = try CLIRunner.runShell(
            #"eval "$(cat captured.sh)"; printf '%s|%s|%s' "$id" "$location" "$name""#, in: sandbox.root)
        XCTAssertEqual(shell.status, 0, shell.stderr)
        XCTAssertEqual(shell.stdout, "item-1|/items/item-1|" + hostile)
        for file in ["pwned", "pwned2", "pwned3"] {
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: sandbox.path(file)), "\(file) was created: the shell ran a value"
            )
        }
    }

    func testAMissingCapturePrintsNothingAndExits1() throws {
        assertRun(
            try sandbox.run(["call", "store", "missing", "--capture"]), status: 1, stdout: "",
            stderr:
                "moya-cli: error: capture 'id': the response has nothing at $.nope\nmoya-cli: error: nothing captured\n"
        )
        assertRun(
            try sandbox.run(["call", "store", "get", "x", "--capture"]), status: 4, stdout: "",
            stderr: "moya-cli: error: store.get: HTTP 404 failed the case's validation; nothing captured\n")
        XCTAssertEqual(try sandbox.run(["call", "store", "delete", "x", "--capture"]).status, 64)
    }

    func testANULInACaptureIsRefused() throws {
        let result = try sandbox.run(["call", "store", "create", "a\u{1}b", "--capture", "--stub"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("name='a\u{1}b'"), result.stdout)
        try sandbox.write(
            "targets/nul.yaml",
            """
            api: nul
            baseURL: https://api.example.com
            cases:
              one: {path: /one, captures: {v: "$.v"}, sample: {text: "{\\"v\\": \\"a\\\\u0000b\\"}"}}
            """)
        assertRun(
            try sandbox.run(["call", "nul", "one", "--capture", "--stub"]), status: 1, stdout: "",
            stderr:
                "moya-cli: error: capture 'v' holds a NUL byte, which no shell variable can hold; refusing to print it; nothing captured\n"
        )
    }

    func testASecretHeaderCaptureIsRedactedInVerboseOutput() throws {
        try sandbox.write(
            "targets/token.yaml",
            """
            api: token
            baseURL: https://api.example.com
            cases:
              login:
                path: /login
                captures: {token: {header: X-Session-Token, secret: true}}
                sample: {headers: {X-Session-Token: s3ss10n-t0ken}, json: {}}
            """)
        let result = try sandbox.run(["call", "token", "login", "--capture", "--stub", "-v"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "token='s3ss10n-t0ken'\n", "printed because the user asked")
        XCTAssertTrue(result.stderr.contains("< X-Session-Token: <redacted>"), result.stderr)
        XCTAssertFalse(result.stderr.contains("s3ss10n-t0ken"), result.stderr)
    }

    func testLiveCheckRunsTheChainInOrderWithCapturedValues() throws {
        let report = sandbox.path("report.json")
        let result = try sandbox.run([
            "check", "store", "--live", "--include-unsafe", "--skip", "missing", "--report", "json:" + report
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            server.receivedRequests.map { "\($0.method) \($0.target)" },
            ["POST /items", "GET /items/item-1", "DELETE /items/item-1"])
        XCTAssertEqual(server.receivedRequests.last?.value(of: "X-Note"), "widget-secret-name")
        let results = try CheckFixtures.resultsByID(CheckFixtures.jsonReport(URL(fileURLWithPath: report)))
        XCTAssertEqual(results["store.delete#1"]?["outcome"] as? String, "passed")
        XCTAssertEqual(results["store.delete#1"]?["url"] as? String, "http://127.0.0.1:\(server.port)/items/item-1")
        XCTAssertEqual((results["store.delete#1"]?["arguments"] as? [String: Any])?["note"] as? String, "<redacted>")
    }

    func testWithoutIncludeUnsafeTheChainIsSkippedAfterItsFirstStep() throws {
        let result = try sandbox.run(["check", "store", "--live", "--skip", "missing"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(server.receivedRequests.isEmpty)
        XCTAssertEqual(
            CheckFixtures.line("store.get#1", in: result.stderr)?.contains(
                "runs after store.create#1, which was skipped"), true, result.stderr)
        XCTAssertEqual(
            CheckFixtures.line("store.delete#1", in: result.stderr)?.contains(
                "runs after store.get#1, which was skipped"), true, result.stderr)
    }

    func testOfflineCheckRunsTheChainAgainstSamples() throws {
        let result = try sandbox.run(["check", "store", "--only", "delete"])
        XCTAssertEqual(result.status, 0, result.stderr)
        // --only delete brings the steps it runs after.
        XCTAssertEqual(
            result.stderr.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) },
            ["store.create#1", "store.get#1", "store.delete#1", "check"])
        let failing = try sandbox.run(["check", "store", "--only", "missing"])
        XCTAssertEqual(failing.status, 8)
        XCTAssertTrue(failing.stderr.contains("capture 'id': the response has nothing at $.nope"), failing.stderr)
    }
}
