import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 28, item 6: curl's `-X`, `-d`, `-u`, `-L`, `-s`, `-f` and `-G` on `call` and `curl` are
/// taken with curl's meaning where it fits, or refused with the moya-cli way; never read as a
/// case value. Through the binary against the loopback server.
final class CurlHabitTests: XCTestCase {
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
            cases:
              page:
                values: [{page: {type: int, default: 1}}]
                path: /anything
                task: {parameters: {page: "{page}"}, encoding: url}
                sample: ok
              post:
                method: POST
                path: /post
                task: {json: {a: 1}}
                sample: ok
              moved:
                path: /redirect/1
                sample: ok
              login:
                values: [{user: string}, {pass: string}]
                path: /basic-auth/{user}/{pass}
                sample: ok
            """)
    }

    override func tearDown() {
        server.stop()
    }

    private func assertRefused(
        _ arguments: [String], _ message: String, usage command: String? = nil, line: UInt = #line
    ) throws {
        let result = try sandbox.run(arguments)
        let usage = command.map { "Usage: moya-cli \($0) [<options>] [<api-case-values> ...]\n" } ?? ""
        assertRun(result, status: 64, stdout: "", stderr: "moya-cli: error: \(message)\n" + usage, line: line)
    }

    func testXIsTheCasesMethodOrRefusedWithTheWayToSendAnother() throws {
        let same = try sandbox.run(["call", "hb", "post", "-X", "POST"])
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertEqual(server.receivedRequests.last?.method, "POST")
        for command in ["call", "curl"] {
            try assertRefused(
                [command, "hb", "page", "-X", "DELETE"],
                "-X DELETE: case 'hb.page' sends GET, and the case declares the method; use 'moya-cli request DELETE ...' for another"
            )
        }
        XCTAssertEqual(server.receivedRequests.count, 1)
    }

    func testDIsData() throws {
        let result = try sandbox.run(["call", "hb", "post", "-d", #"{"b":2}"#, "-H", "Content-Type: application/json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.receivedRequests.last.map { String(decoding: $0.body, as: UTF8.self) }, #"{"b":2}"#)
        let curl = try sandbox.run(["curl", "hb", "post", "-d", "x=1"])
        XCTAssertTrue(curl.stdout.contains("--data-binary 'x=1'"), curl.stdout)
    }

    func testUIsTheOneOffUser() throws {
        // `--user` stays the case's value `user`; `-u` is the credential.
        let result = try sandbox.run(["call", "hb", "login", "--user", "bob", "--pass", "pw-1234", "-u", "bob:pw-1234"])
        assertRun(result, status: 0, stdout: #"{"authenticated":true,"user":"bob"}"#, stderr: "")
    }

    func testLChangesNothingSinceRedirectsAreFollowed() throws {
        let followed = try sandbox.run(["call", "hb", "moved", "-L"])
        XCTAssertEqual(followed.status, 0, followed.stderr)
        XCTAssertEqual(server.receivedRequests.map(\.path), ["/redirect/1", "/get"])
        let curl = try sandbox.run(["curl", "hb", "moved", "-L"])
        assertRun(
            curl, status: 0,
            stdout: "curl -L --max-redirs 10 --connect-timeout 10 --speed-limit 1 --speed-time 60 --compressed "
                + "-H 'User-Agent: moya-cli/0.1.0' 'http://127.0.0.1:\(server.port)/redirect/1'\n", stderr: "")
        try assertRefused(
            ["call", "hb", "moved", "-L", "--no-follow"], "-L follows redirects and --no-follow does not; give one",
            usage: "call")
    }

    func testSIsQuiet() throws {
        let output = sandbox.path("out.json")
        let noisy = try sandbox.run(["call", "hb", "page", "-o", output])
        assertRun(
            noisy, status: 0, stdout: "",
            stderr: "moya-cli: wrote \(try Data(contentsOf: URL(fileURLWithPath: output)).count) bytes to \(output)\n")
        let quiet = try sandbox.run(["call", "hb", "page", "-s", "-o", output, "--force"])
        assertRun(quiet, status: 0, stdout: "", stderr: "")
        let retried = try sandbox.run([
            "call", "hb", "page", "-s", "--retry", "1", "--base-url", "http://127.0.0.1:\(server.port)/status/503"
        ])
        assertRun(
            retried, status: 5, stdout: "", stderr: "moya-cli: error: hb.page: HTTP 503 failed the case's validation\n")
        // Errors still show.
        assertRun(
            try sandbox.run(["call", "hb", "nope", "-s"]), status: 64, stdout: "",
            stderr: "moya-cli: error: unknown case 'nope' in API 'hb'; valid cases: page, post, moved, login\n")
        assertRun(
            try sandbox.run(["curl", "hb", "page", "-s"]), status: 0,
            stdout: "curl -L --max-redirs 10 --connect-timeout 10 --speed-limit 1 --speed-time 60 --compressed "
                + "-H 'User-Agent: moya-cli/0.1.0' 'http://127.0.0.1:\(server.port)/anything?page=1'\n", stderr: "")
    }

    func testFAndGAreRefusedWithTheMoyaWay() throws {
        for command in ["call", "curl"] {
            try assertRefused(
                [command, "hb", "page", "-f"],
                "-f: moya-cli fails on an HTTP error already: a status the case's validation "
                    + "refuses exits 3, 4 or 5 (2xx only when the file writes no 'validation'), with the body printed; leave -f out"
            )
            try assertRefused(
                [command, "hb", "page", "-G"],
                "-G: the case declares where its parameters go; add or replace a query parameter with --query NAME=VALUE"
            )
        }
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    /// Negative numbers and `--` still reach the case's values.
    func testCaseValuesStillParse() throws {
        for arguments in [["-5"], ["--page", "-5"], ["--page=-5"], ["--", "-5"], ["-s", "-L", "--", "-5"]] {
            let result = try sandbox.run(["call", "hb", "page"] + arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertEqual(server.receivedRequests.last?.target, "/anything?page=-5", "\(arguments)")
        }
        // A word that is a curl option after `--` is a value, and says so as before.
        assertRun(
            try sandbox.run(["call", "hb", "page", "--", "-u"]), status: 64, stdout: "",
            stderr:
                "moya-cli: error: '-u' is not an int for value 'page'\nusage: moya-cli call hb page [--page <int>]\n")
    }
}
