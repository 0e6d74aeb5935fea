import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 28, item 8: `--keypath` takes the target file's JSON path (`$.a[0].b`, `$['dotted.key']`)
/// besides Moya's dotted form (`a.0.b`); a miss says which part missed, in moya-cli's words (exit
/// 1); with `--all --format jsonl` a selected string prints unquoted, as a single call prints it.
final class KeyPathDialectTests: XCTestCase {
    var sandbox: Sandbox!
    var server: HTTPTestServer!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        server = try HTTPTestServer()
        try sandbox.write(
            "targets/kp.yaml",
            """
            api: kp
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              slides: {path: /json, sample: {json: {}}}
              text: {path: /bytes/3, sample: {text: "not json"}}
              dotted:
                path: /json
                sample: {json: {meta.version: "2.1", meta: {version: "1"}, "it's": {a\\b: 1}}}
              users:
                path: /users
                pagination: {next: {body: "$.next"}, items: "$.users"}
                samples:
                  page1: {json: {users: [{login: "ann", id: 1}, {login: "bob\\tby", id: 2}], next: "/users?page=2"}}
                  evil: {json: {users: [{login: "e\\e[31mvil"}], next: null}}
                  page2: {json: {users: [{login: "cy", id: 3}, {id: 4}], next: null}}
            """)
    }

    override func tearDown() {
        server.stop()
    }

    func call(_ arguments: [String]) throws -> CLIResult {
        try sandbox.run(["call", "kp"] + arguments)
    }

    func testBothDialectsReachTheSameValues() throws {
        for path in [
            "slideshow.slides.1.items.0", "$.slideshow.slides[1].items[0]", "$['slideshow']['slides'][1][\"items\"][0]"
        ] {
            assertRun(
                try call(["slides", "--keypath", path]), status: 0, stdout: "Why WonderWidgets are great\n", stderr: "")
        }
        assertRun(
            try call(["slides", "--keypath", "$.slideshow.slides[0]"]), status: 0,
            stdout: #"{"title":"Wake up to WonderWidgets!","type":"all"}"# + "\n", stderr: "")
        assertRun(
            try call(["slides", "--keypath", "$"]), status: 0, stdout: HTTPTestServer.jsonDocument + "\n", stderr: "")
    }

    /// A key holding a dot is reached only by the JSON path's quoted form; the dotted form reads
    /// the dot as a step, as Moya does.
    func testADottedKeyNeedsTheQuotedForm() throws {
        assertRun(
            try call(["dotted", "--stub", "--keypath", "$['meta.version']"]), status: 0, stdout: "2.1\n", stderr: "")
        assertRun(try call(["dotted", "--stub", "--keypath", "meta.version"]), status: 0, stdout: "1\n", stderr: "")
        assertRun(
            try call(["dotted", "--stub", "--keypath", #"$['it\'s']['a\\b']"#]), status: 0, stdout: "1\n", stderr: "")
    }

    func testAMissNamesThePartThatMissed() throws {
        let misses: [(String, String)] = [
            ("$.slideshow.slides[5].title", "no element [5] in the array at $.slideshow.slides, which has 2 elements"),
            ("slideshow.slides.5.title", "no element '5' in the array at slideshow.slides, which has 2 elements"),
            ("$.slideshow.autor", "no member .autor in the object at $.slideshow; did you mean 'author'?"),
            ("$['slideshow']['no.such']", "no member ['no.such'] in the object at $.slideshow"),
            ("slideshow.title.x", "slideshow.title is a string, not an object or an array, so it has no 'x'"),
            ("$.slideshow.slides.title", "$.slideshow.slides is an array, not an object, so it has no .title"),
            ("slideshow.slides.first", "'first' is not an index, and slideshow.slides is an array (of 2 elements)"),
            ("$.slideshow[0]", "$.slideshow is an object, not an array, so it has no [0]"),
            ("nope", "no member 'nope' in the object at the body")
        ]
        for (path, reason) in misses {
            assertRun(
                try call(["slides", "--keypath", path]), status: 1, stdout: "",
                stderr: "moya-cli: error: key path '\(path)' not found in the response body: \(reason)\n")
        }
        assertRun(
            try call(["text", "--keypath", "$.a"]), status: 1, stdout: "",
            stderr: "moya-cli: error: key path '$.a' not found in the response body: the body is not JSON\n")
        XCTAssertFalse(try call(["text", "--keypath", "a"]).stderr.contains("Failed to map"), "never Moya's words")
    }

    /// A JSON path that does not parse is a usage error, refused before anything is sent.
    func testAnInvalidJSONPathIsAUsageError() throws {
        let cases: [(String, String)] = [
            (
                "$.items[*]",
                "'[*]' selects many values; the items of a page are an array: name the array, like $.data (at character 9)"
            ),
            ("$..name", "'..' (descendants) selects many values; name one value, like $.data (at character 2)"),
            ("$['open", "unclosed quote in '[...]' (at character 2)")
        ]
        for (path, reason) in cases {
            assertRun(
                try call(["slides", "--keypath", path]), status: 64, stdout: "",
                stderr: "moya-cli: error: --keypath '\(path)': \(reason); "
                    + "write a JSON path ($.items[0].name, $['dotted.key']) or a dotted one (items.0.name)\n"
                    + "Usage: moya-cli call [<options>] [<api-case-values> ...]\n")
        }
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    /// One value a line, a string unquoted (as a single call prints it, and `jq -r`); a miss is
    /// `null`; inside the `--all` array (a JSON document) strings stay JSON.
    func testJSONLinesPrintSelectedStringsAsASingleCallDoes() throws {
        assertRun(
            try call(["users", "--stub", "--all", "--format", "jsonl", "--keypath", "$.login"]), status: 0,
            stdout: "ann\nbob\tby\ncy\nnull\n", stderr: "")
        assertRun(
            try call(["users", "--stub", "--all", "--format", "jsonl", "--keypath", "id"]), status: 0,
            stdout: "1\n2\n3\n4\n", stderr: "")
        assertRun(
            try call(["users", "--stub", "--all", "--keypath", "login"]), status: 0,
            stdout: "[\n\"ann\",\n\"bob\\tby\",\n\"cy\",\nnull\n]\n", stderr: "")
        assertRun(
            try call(["users", "--stub", "--keypath", "$.users[1].login"]), status: 0, stdout: "bob\tby\n", stderr: "")
    }

    /// On a terminal an unquoted string shows its control characters escaped, as a single call does.
    func testUnquotedStringsOnATerminalShowControlsEscaped() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) is needed for a pseudo-terminal"
        )
        let command =
            "\(CLIRunner.binaryURL.path) call kp users --stub --sample evil --all --format jsonl --keypath login"
        let result = try CLIRunner.run(
            ["-qec", command, "/dev/null"], environment: ["HOME": sandbox.home.path, "TERM": "xterm"],
            currentDirectory: sandbox.root, binary: URL(fileURLWithPath: "/usr/bin/script"))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "e\\e[31mvil\r\n")
        // To a pipe, the bytes as they are.
        assertRun(
            try call(["users", "--stub", "--sample", "evil", "--all", "--format", "jsonl", "--keypath", "login"]),
            status: 0,
            stdout: "e\u{1B}[31mvil\n", stderr: "")
    }
}
