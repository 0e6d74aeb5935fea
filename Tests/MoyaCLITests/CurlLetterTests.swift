import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 47, item 1: every single-letter option of curl (`CurlLetters+Generated.swift`, from the one
/// table `CurlLetter.all`) is taken by `call`, `curl`, `check` and `request` with curl's meaning,
/// or refused with exit 64 and the moya-cli way; never read as a case value. Through the binary,
/// against the loopback server, which counts what is sent.
final class CurlLetterTests: XCTestCase {
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
              anything:
                values: [{word: string}]
                path: /anything/{word}
                sample: {json: {url: sample}}
              post:
                method: POST
                path: /post
                task: {json: {a: 1}}
                sample: ok
            """)
    }

    override func tearDown() {
        server.stop()
    }

    static let commands = ["call", "curl", "check", "request"]

    /// The line of `command` with `letter` (and a value, when curl's takes one).
    func line(_ command: String, _ letter: CurlLetterRow) -> [String] {
        let given = [letter.name] + (letter.takesValue ? ["v"] : [])
        switch command {
        case "check": return ["check", "hb"] + given
        case "request": return ["request", "hb", "GET", "/anything/x"] + given
        default: return [command, "hb", "anything"] + given + ["--", "x"]
        }
    }

    func testEveryRefusedLetterExits64AndSendsNothing() throws {
        // `curl --help all` of curl 7.88 to 8 lists 59.
        XCTAssertEqual(Self.letters.count, 59)
        for letter in Self.letters {
            for (index, command) in Self.commands.enumerated() where Array(letter.outcomes)[index] == "R" {
                let result = try sandbox.run(line(command, letter))
                XCTAssertEqual(result.status, 64, "\(command) \(letter.name): \(result.stderr)")
                XCTAssertEqual(result.stdout, "", "\(command) \(letter.name)")
                if command == "call" || command == "curl" || (letter.name != "-#" && letter.name != "-:") {
                    XCTAssertTrue(
                        result.stderr.hasPrefix("moya-cli: error: \(letter.name)"), "\(command): \(result.stderr)")
                }
            }
        }
        XCTAssertEqual(server.receivedRequests.count, 0, "\(server.receivedRequests.map(\.target))")
    }

    /// A value that is one of curl's letters reaches the case after `--`.
    func testALetterAfterDoubleDashIsAValue() throws {
        for letter in ["-I", "-O", "-4", "-Z"] {
            let result = try sandbox.run(["call", "hb", "anything", "--", letter])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(server.receivedRequests.last?.path, "/anything/\(letter)")
        }
        XCTAssertEqual(server.receivedRequests.count, 4)
    }

    /// The issue's line: `-I` was the case's value, and the call sent /anything/-I.
    func testTheIssuesLineIsRefusedNow() throws {
        assertRun(
            try sandbox.run(["call", "hb", "anything", "-I", "--keypath", "url"]), status: 64, stdout: "",
            stderr: "moya-cli: error: missing value 'word' (string)\nusage: moya-cli call hb anything <word>\n")
        let result = try sandbox.run(["call", "hb", "anything", "x", "-I", "--keypath", "url"])
        assertRun(
            result, status: 64, stdout: "",
            stderr: "moya-cli: error: -I (as --headers-only): --headers-only and --keypath cannot be combined\n")
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    func testTakenLettersAreNeverCaseValues() throws {
        let values = [
            "-A": "probe/1", "-e": "http://127.0.0.1/from", "-m": "5", "-x": "", "-o": "out.bin", "-u": "a:b",
            "-H": "X-A: 1", "-d": "x", "-p": "b", "-D": "head.txt", "-w": "%{http_code}"
        ]
        for letter in Self.letters where letter.outcomes.first == "M" && letter.name != "-h" {
            if letter.name == "-x" || letter.name == "-E" || letter.name == "-d" || letter.name == "-X" { continue }
            // -6 sends to the IPv4 loopback server over IPv6 only: no connection (ConnectionOptionsTests).
            if letter.name == "-6" { continue }
            // -n needs a ~/.netrc (NetrcTests).
            if letter.name == "-n" { continue }
            // -p is HTTPie's --print here, which takes its letters (curl's takes none).
            let takesValue = letter.takesValue || letter.name == "-p"
            let given = [letter.name] + (takesValue ? [values[letter.name] ?? "v"] : [])
            let result = try sandbox.run(["call", "hb", "anything"] + given + ["--", "x"])
            XCTAssertEqual(result.status, 0, "\(letter.name): \(result.stderr)")
            XCTAssertEqual(server.receivedRequests.last?.path, "/anything/x", letter.name)
        }
    }

    func testAAndESendUserAgentAndReferer() throws {
        for command in ["call", "request"] {
            let line =
                command == "call" ? ["call", "hb", "anything", "x"] : ["request", "hb", "GET", "/anything/x"]
            let result = try sandbox.run(line + ["-A", "probe/1", "-e", "http://127.0.0.1/from"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(server.receivedRequests.last?.values(of: "User-Agent"), ["probe/1"])
            XCTAssertEqual(server.receivedRequests.last?.values(of: "Referer"), ["http://127.0.0.1/from"])
        }
        // -H wins, as in curl; -A '' sends none.
        _ = try sandbox.run(["call", "hb", "anything", "x", "-A", "probe/1", "-H", "User-Agent: other/2"])
        XCTAssertEqual(server.receivedRequests.last?.values(of: "User-Agent"), ["other/2"])
        _ = try sandbox.run(["call", "hb", "anything", "x", "-A", ""])
        XCTAssertEqual(server.receivedRequests.last?.values(of: "User-Agent"), [])
        let curl = try sandbox.run(["curl", "hb", "anything", "x", "-A", "probe/1"])
        XCTAssertTrue(curl.stdout.contains("-H 'User-Agent: probe/1'"), curl.stdout)
        // A line break in -A is no second header line: the sender blanks it, as in -H.
        let injected = try sandbox.run(["call", "hb", "anything", "x", "-A", "a\r\nX-Evil: 1"])
        XCTAssertEqual(injected.status, 0, injected.stderr)
        XCTAssertEqual(server.receivedRequests.last?.values(of: "X-Evil"), [])
        XCTAssertEqual(server.receivedRequests.last?.values(of: "User-Agent"), ["a  X-Evil: 1"])
    }

    func testMIsTheTimeoutAndXTheProxy() throws {
        let curl = try sandbox.run(["curl", "hb", "anything", "x", "-m", "2.5"])
        XCTAssertTrue(curl.stdout.contains("--max-time 2.5"), curl.stdout)
        assertRun(
            try sandbox.run(["call", "hb", "anything", "x", "-m", "1e9"]), status: 64, stdout: "",
            stderr: "moya-cli: error: --timeout must be a number of seconds from 0 (no limit) to 2147483\n"
                + "Usage: moya-cli call [<options>] [<api-case-values> ...]\n")
        let proxy = try HTTPTestServer()
        defer { proxy.stop() }
        let result = try sandbox.run([
            "call", "hb", "anything", "x", "--base-url", "http://far.invalid", "-x", proxy.baseURL.absoluteString
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(proxy.receivedRequests.last?.target, "http://far.invalid/anything/x")
    }

    func testIPrintsHeadersOnCallAndSendsHeadOnRequest() throws {
        let call = try sandbox.run(["call", "hb", "anything", "x", "-I"])
        XCTAssertEqual(call.status, 0, call.stderr)
        XCTAssertTrue(call.stdout.hasPrefix("HTTP/1.1 200"), call.stdout)
        XCTAssertFalse(call.stdout.contains("\"url\""), call.stdout)
        XCTAssertEqual(server.receivedRequests.last?.method, "GET")
        for line in [
            ["request", "-I", "hb", "/anything/x"], ["request", "-I", "hb", "HEAD", "/anything/x"],
            ["request", "-I", "http://127.0.0.1:\(server.port)/anything/x"]
        ] {
            let result = try sandbox.run(line)
            XCTAssertEqual(result.status, 0, "\(line): \(result.stderr)")
            XCTAssertTrue(result.stdout.hasPrefix("HTTP/1.1 200"), result.stdout)
            XCTAssertEqual(server.receivedRequests.last?.method, "HEAD", "\(line)")
        }
        let sent = server.receivedRequests.count
        assertRun(
            try sandbox.run(["request", "-I", "hb", "POST", "/anything/x"]), status: 64, stdout: "",
            stderr: "moya-cli: error: -I sends HEAD, and the line says POST; leave out -I or the METHOD\n")
        assertRun(
            try sandbox.run(["request", "-X", "PUT", "hb", "POST", "/post"]), status: 64, stdout: "",
            stderr: "moya-cli: error: -X PUT: the request's METHOD is POST; give the method once, as METHOD\n")
        XCTAssertEqual(server.receivedRequests.count, sent)
        let same = try sandbox.run(["request", "-X", "POST", "hb", "POST", "/post"])
        XCTAssertEqual(same.status, 0, same.stderr)
    }

    /// `-sS`, `-sSL` and the other letters accepted as curl users give them.
    func testAcceptedLettersChangeNothing() throws {
        for given in [["-sS"], ["-sSL"], ["-q"], ["-g"], ["-N"], ["-S"]] {
            let result = try sandbox.run(["call", "hb", "anything", "x"] + given)
            XCTAssertEqual(result.status, 0, "\(given): \(result.stderr)")
            XCTAssertEqual(server.receivedRequests.last?.path, "/anything/x")
        }
        XCTAssertEqual(try sandbox.run(["check", "hb", "-S", "-L", "-A", "x"]).status, 0)
        XCTAssertEqual(server.receivedRequests.count, 6)
    }

    func testRefusalsNameTheMoyaWay() throws {
        assertRun(
            try sandbox.run(["call", "hb", "anything", "x", "-b", "a=1"]), status: 64, stdout: "",
            stderr: "moya-cli: error: -b: send cookies as a header: -H 'Cookie: NAME=VALUE; NAME2=VALUE2'\n")
        assertRun(
            try sandbox.run(["check", "hb", "-d", "x"]), status: 64, stdout: "",
            stderr:
                "moya-cli: error: -d: check sends each case's own body; change it in the case's task (see moya-targets(5))\n"
        )
        assertRun(
            try sandbox.run(["curl", "hb", "anything", "x", "-v"]), status: 64, stdout: "",
            stderr:
                "moya-cli: error: -v: moya-cli curl prints the command only; moya-cli call -v shows the exchange\n")
        assertRun(
            try sandbox.run(["request", "hb", "GET", "/x", "-G"]), status: 64, stdout: "",
            stderr: "moya-cli: error: -G: give query parameters as NAME==VALUE items, or with --query NAME=VALUE\n")
        XCTAssertEqual(server.receivedRequests.count, 0)
    }
}
