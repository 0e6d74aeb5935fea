import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 11, item 5: a header value or a multipart part's name, file name or MIME type with CR, LF
/// or NUL is refused before anything is sent: at load when the file holds it, when the request is
/// built when a bound value does.
final class LineInjectionTests: XCTestCase {
    /// Written in the file (YAML escapes), they are refused when the file is loaded: exit 65 with
    /// the place, for `validate`, `list` and `call` alike.
    func testLineBreaksWrittenInTheFileAreRefusedAtLoad() throws {
        let folder = try TemporaryFolder()
        try folder.write("targets/part.txt", "contents")
        let fields: [(String, String, String)] = [
            (
                "mime", #"{name: doc, file: part.txt, mimeType: "text/plain\r\nX-Injected: 1"}"#,
                "the mimeType of multipart part 'doc'"
            ),
            ("partName", #"{name: "a\nb", value: x}"#, #"the name of multipart part 'a\nb'"#),
            ("fileName", #"{name: doc, value: x, fileName: "a\0.txt"}"#, "the fileName of multipart part 'doc'")
        ]
        for (caseName, part, field) in fields {
            try folder.write(
                "targets/api.yaml",
                """
                api: api
                baseURL: http://127.0.0.1:9
                cases:
                  \(caseName):
                    method: POST
                    path: /post
                    task:
                      multipart:
                        - \(part)
                    sample: ok
                """)
            for words in [["validate", "targets/api.yaml"], ["call", "api", caseName, "--stub"]] {
                let result = try CLIRunner.run(
                    words, environment: ["HOME": folder.url.path], currentDirectory: folder.url)
                XCTAssertEqual(result.status, 65, "\(words): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("api.yaml:9:"), result.stderr)
                XCTAssertTrue(result.stderr.contains("\(field) holds a line break or NUL character"), result.stderr)
            }
        }
        for header in [#""Bearer x\r\nX-Injected: 1""#, #""a\u0000b""#, #""{tag}\n""#] {
            try folder.write(
                "targets/api.yaml",
                """
                api: api
                baseURL: http://127.0.0.1:9
                cases:
                  one:
                    values: [{tag: string}]
                    path: /get
                    headers: {X-Tag: \(header)}
                    sample: ok
                """)
            let result = try CLIRunner.run(
                ["validate", "targets/api.yaml"], environment: ["HOME": folder.url.path],
                currentDirectory: folder.url)
            XCTAssertEqual(result.status, 65, result.stderr)
            XCTAssertTrue(result.stderr.contains("api.yaml:7:"), result.stderr)
            XCTAssertTrue(result.stderr.contains("header 'X-Tag' holds a line break or NUL character"), result.stderr)
        }
    }

    /// A value bound from the command line is refused when the request is built: exit 64.
    func testLineBreaksInBoundValuesAreRefusedBeforeSending() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write(
            "targets/api.yaml",
            """
            api: api
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              tagged:
                values: [{tag: string}]
                path: /get
                headers: {X-Tag: "{tag}"}
                sample: ok
            """)
        for extra in [[], ["--stub"]] {
            let result = try CLIRunner.run(
                ["call", "api", "tagged", "ok\r\nX-Injected: 1"] + extra,
                environment: ["HOME": folder.url.path], currentDirectory: folder.url)
            XCTAssertEqual(result.status, 64, result.stderr)
            XCTAssertTrue(
                result.stderr.hasPrefix("moya-cli: error: header 'X-Tag' holds a line break or NUL character"),
                result.stderr)
        }
        XCTAssertTrue(server.receivedRequests.isEmpty, "nothing was sent")
        let fine = try CLIRunner.run(
            ["call", "api", "tagged", "plain"], environment: ["HOME": folder.url.path],
            currentDirectory: folder.url)
        XCTAssertEqual(fine.status, 0, fine.stderr)
        XCTAssertEqual(server.receivedRequests.last?.values(of: "X-Tag"), ["plain"])
    }
}

/// Issue 11, item 5: what `list`, case help, `validate` and `check` print from a target file or a
/// server shows control characters escaped, and each check stays one line.
final class DisplayEscapingTests: XCTestCase {
    func testListAndHelpShowFileTextEscaped() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "targets/evil.yaml",
            #"""
            api: evil
            description: "API \e]0;pwned\a title"
            baseURL: http://127.0.0.1:9
            cases:
              one:
                description: "case \e[2J clears \u202e"
                values: [{id: {type: int, description: "the \u0007 id"}}]
                path: /things/{id}
                sample: ok
            """#)
        for words in [["list"], ["list", "evil"], ["call", "evil", "--help"], ["call", "evil", "one", "--help"]] {
            let result = try CLIRunner.run(words, environment: ["HOME": folder.url.path], currentDirectory: folder.url)
            XCTAssertEqual(result.status, 0, "\(words): \(result.stderr)")
            XCTAssertFalse(
                result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E },
                "\(words): \(result.stdout)")
            XCTAssertTrue(
                result.stdout.contains(#"\e"#) || result.stdout.contains(#"\a"#), "\(words): \(result.stdout)")
        }
    }

    func testDiagnosticsQuoteValuesEscaped() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "targets/evil.yaml",
            #"""
            api: evil
            baseURL: http://127.0.0.1:9
            cases:
              one: {method: "GE\e[2JT", path: /x, sample: ok}
            """#)
        let result = try CLIRunner.run(
            ["validate", "targets/evil.yaml"], environment: ["HOME": folder.url.path],
            currentDirectory: folder.url)
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains(#"GE\e[2JT"#), result.stderr)
        XCTAssertFalse(result.stderr.contains("\u{1B}[2J"), result.stderr)
    }

    func testEachCheckStaysOneLineWhateverTheServerSends() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let body = #"{"name":"x","k\u001b]0;t\u0007\nnext line":1}"#
        try folder.write(
            "targets/evil.yaml",
            """
            api: evil
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              drift:
                path: /status/200
                task: {parameters: {body: '\(body)'}, encoding: url}
                sample: {json: {name: x}}
            """)
        let result = try CLIRunner.run(
            ["check", "evil", "--live", "--strict"], environment: ["HOME": folder.url.path],
            currentDirectory: folder.url)
        XCTAssertEqual(result.status, 8, result.stderr)
        let lines = result.stderr.split(separator: "\n")
        // The check's line, its one reason, the totals and the error line: the key's newline
        // did not start a line of its own.
        XCTAssertEqual(lines.count, 4, result.stderr)
        XCTAssertTrue(lines[1].contains(#"$["k\e]0;t\a\nnext line"]: unexpected key"#), result.stderr)
        XCTAssertFalse(result.stderr.contains("\u{1B}"), result.stderr)
    }
}
