import CLITestSupport
import Foundation
import TestServers
import XCTest

/// A loopback server and a folder whose `targets/web.yaml` each subclass writes (`webTarget`),
/// with `run` calling the built binary there.
class WebTargetTestCase: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    /// The target file, for the server's port.
    func webTarget(port: UInt16) -> String { "" }

    /// Environment variables every run gets besides HOME.
    var extraEnvironment: [String: String] { [:] }

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write("targets/web.yaml", webTarget(port: server.port))
    }

    override func tearDown() {
        server.stop()
    }

    func run(_ arguments: [String], stdin: Data? = nil) throws -> CLIResult {
        try CLIRunner.run(
            arguments, environment: ["HOME": folder.url.path].merging(extraEnvironment) { _, new in new },
            currentDirectory: folder.url, stdin: stdin)
    }
}

/// Issue 13: what curl and HTTPie users expect every day — a User-Agent, compressed bodies.
final class EverydayHTTPTests: WebTargetTestCase {
    override func webTarget(port: UInt16) -> String {
        """
        api: web
        baseURL: http://127.0.0.1:\(port)
        cases:
          echo: {path: /anything, sample: ok}
          named: {path: /anything, headers: {User-Agent: my-tool/2}, sample: ok}
          gzip: {path: /gzip, sample: ok}
          bomb:
            values: [{size: int}]
            path: /gzip-zeros/{size}
            sample: ok
        """
    }

    func testADefaultUserAgentThatTheFileAndTheCommandLineReplace() throws {
        XCTAssertEqual(try run(["call", "web", "echo"]).status, 0)
        XCTAssertEqual(try run(["call", "web", "named"]).status, 0)
        XCTAssertEqual(try run(["call", "web", "echo", "-H", "User-Agent: cli/3"]).status, 0)
        XCTAssertEqual(try run(["call", "web", "echo", "-H", "User-Agent:"]).status, 0)
        XCTAssertEqual(
            server.receivedRequests.map { $0.values(of: "User-Agent") },
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
final class VerboseLogTests: WebTargetTestCase {
    override func webTarget(port: UInt16) -> String {
        """
        api: web
        baseURL: http://127.0.0.1:\(port)
        headers: {X-Token: "${secret:WEB_TOKEN}"}
        cases:
          send:
            values: [{q: string}]
            method: POST
            path: /anything
            task: {json: {query: "{q}", note: "{q}"}}
            sample: {status: 201, json: {ok: true}}
          hop: {path: /redirect/1, sample: ok}
        """
    }

    override var extraEnvironment: [String: String] { ["WEB_TOKEN": "tok-123456"] }

    func testALiveExchangeIsShownAsHTTPWithTheBodyOnce() throws {
        let result = try run(["call", "web", "send", "hello", "-v"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let log = result.stderr
        for line in [
            "> POST /anything HTTP/1.1", "> Host: 127.0.0.1:\(server.port)", "> Content-Type: application/json",
            "> User-Agent: moya-cli/0.1.0", "> X-Token: <redacted>", #"{"query":"hello","note":"hello"}"#,
            "< HTTP/1.1 200 OK", "< Content-Type: application/json"
        ] {
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

/// Issue 13, item 2: one exploratory call may change the query and the body; `-v` and `--curl`
/// show the changed request.
final class AdHocOverrideTests: WebTargetTestCase {
    override func webTarget(port: UInt16) -> String {
        """
        api: web
        baseURL: http://127.0.0.1:\(port)
        cases:
          search:
            values: [{q: string}, {page: {type: int, default: 1}}]
            path: /get
            task: {parameters: {q: "{q}", page: "{page}"}, encoding: url}
            sample: ok
          create:
            method: POST
            path: /post
            task: {json: {name: from-file}}
            sample: ok
          upload:
            method: PUT
            path: /put
            task: {upload: body.txt}
            sample: ok
        """
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try folder.write("targets/body.txt", "file body")
        try folder.write("payload.json", #"{"name":"from-at-file"}"#)
    }

    func testQueryParametersAreSetAddedAndRemoved() throws {
        let result = try run([
            "call", "web", "search", "shoes", "--query", "page=3", "--query", "sort=price low", "--query", "q", "-v"
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.receivedRequests.last?.target, "/get?page=3&sort=price%20low")
        XCTAssertTrue(result.stderr.contains("> GET /get?page=3&sort=price%20low HTTP/1.1"), result.stderr)
        let curl = try run(["curl", "web", "search", "shoes", "--query", "page=9"])
        XCTAssertTrue(curl.stdout.contains("'http://127.0.0.1:\(server.port)/get?page=9&q=shoes'"), curl.stdout)
    }

    func testTheBodyIsReplacedByJSONOrDataFromTheArgumentAFileOrStdin() throws {
        XCTAssertEqual(try run(["call", "web", "create", "--json", #"{"name":"inline"}"#]).status, 0)
        XCTAssertEqual(try run(["call", "web", "create", "--json", "@payload.json"]).status, 0)
        XCTAssertEqual(
            try run(["call", "web", "create", "--json", "-"], stdin: Data(#"{"name":"stdin"}"#.utf8)).status, 0)
        XCTAssertEqual(
            try run(["call", "web", "create", "--data", "raw=1", "-H", "Content-Type: text/plain"]).status, 0)
        let received = server.receivedRequests
        XCTAssertEqual(
            received.map { String(decoding: $0.body, as: UTF8.self) },
            [#"{"name":"inline"}"#, #"{"name":"from-at-file"}"#, #"{"name":"stdin"}"#, "raw=1"])
        XCTAssertEqual(
            received.map { $0.value(of: "Content-Type") },
            ["application/json", "application/json", "application/json", "text/plain"])
        let curl = try run(["curl", "web", "create", "--json", #"{"x":1}"#])
        XCTAssertTrue(curl.stdout.contains(#"--data-binary '{"x":1}'"#), curl.stdout)
        // Standard input that cannot be read (a folder) is a usage error naming the option.
        let unreadable = try CLIRunner.runShell(
            "'\(CLIRunner.binaryURL.path)' call web create --json - < /", in: folder.url)
        XCTAssertEqual(unreadable.status, 64, unreadable.stderr)
        XCTAssertEqual(unreadable.stderr, "moya-cli: error: --json -: cannot read standard input: Is a directory\n")
        XCTAssertEqual(server.receivedRequests.count, 4, "nothing sent")
    }

    func testBadOverridesAreRefusedBeforeSending() throws {
        let notJSON = try run(["call", "web", "create", "--json", "{nope"])
        XCTAssertEqual(notJSON.status, 64, notJSON.stderr)
        XCTAssertTrue(notJSON.stderr.contains("--json is not JSON"), notJSON.stderr)
        let both = try run(["call", "web", "create", "--json", "{}", "--data", "x"])
        XCTAssertEqual(both.status, 64, both.stderr)
        let upload = try run(["call", "web", "upload", "--data", "x"])
        XCTAssertEqual(upload.status, 64, upload.stderr)
        XCTAssertTrue(upload.stderr.contains("file transfer (uploadFile)"), upload.stderr)
        let missing = try run(["call", "web", "create", "--json", "@nowhere.json"])
        XCTAssertEqual(missing.status, 64, missing.stderr)
        let noName = try run(["call", "web", "search", "x", "--query", "=1"])
        XCTAssertEqual(noName.status, 64, noName.stderr)
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }
}

/// Issue 13, item 7: typos in commands and options get a did-you-mean, not a puzzle.
final class TypoTests: XCTestCase {
    func testAMisspelledCommandSuggestsTheRightOne() throws {
        let result = try CLIRunner.run(["lst"])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(
            result.stderr.hasPrefix(
                "moya-cli: error: unknown command 'lst' (did you mean 'list'?); commands: list, validate, call, request, curl, check, import, generate, auth, serve, trust, session, help"
            ),
            result.stderr)
    }

    func testAMisspelledOptionIsNamedAsSuchWithTheRightOne() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "targets/api.yaml",
            """
            api: api
            baseURL: http://127.0.0.1:9
            cases:
              one: {values: [{name: string}], path: "/x/{name}", sample: ok}
            """)
        for command in ["call", "curl"] {
            let typo = try CLIRunner.run(
                [command, "api", "one", "x", "--timeot", "3"], environment: ["HOME": folder.url.path],
                currentDirectory: folder.url)
            XCTAssertEqual(typo.status, 64, typo.stderr)
            XCTAssertTrue(
                typo.stderr.hasPrefix("moya-cli: error: unknown option '--timeot'; did you mean '--timeout'?"),
                typo.stderr)
            XCTAssertTrue(typo.stderr.contains("an unknown --option is read as a value of the case"), typo.stderr)
        }
        let unknown = try CLIRunner.run(
            ["call", "api", "one", "x", "--frobnicate", "3"], environment: ["HOME": folder.url.path],
            currentDirectory: folder.url)
        XCTAssertEqual(unknown.status, 64, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("unknown value 'frobnicate'"), unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("'--frobnicate' is no option of call either"), unknown.stderr)
    }
}
