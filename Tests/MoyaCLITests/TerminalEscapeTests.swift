import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 11, item 5: text from a target file or a server reaches a terminal with its control
/// characters escaped; pipes and files get a response's bytes as they are.
extension TerminalTests {
    /// A JSON body whose strings hold an OSC title change, a bell, a C1 CSI and a bidi override.
    private var hostileBodyURL: String {
        let body = #"{"title":"\u001b]0;pwned\u0007X\u009bY\u202eZ"}"#
        return "/status/200?body=" + (body.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }

    private func writeHostileTarget() throws {
        try folder.write(
            "targets/evil.yaml",
            """
            api: evil
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              body:
                path: /status/200
                task: {parameters: {body: '{"title":"\\u001b]0;pwned\\u0007X\\u009bY\\u202eZ"}', header: "X-Evil:a\\u001b[2Jb"}, encoding: url}
                sample: ok
            """)
    }

    func testKeypathValuesAreEscapedOnATerminalButNotInAPipe() throws {
        try writeHostileTarget()
        let screen = try runOnTerminal(["call", "evil", "body", "--keypath", "title"])
        XCTAssertEqual(screen.status, 0, screen.screen)
        XCTAssertTrue(screen.screen.contains(#"\e]0;pwned\aX\u{9b}Y\u{202e}Z"#), screen.screen)
        XCTAssertFalse(screen.screen.contains("\u{1B}]0;"), "no raw OSC reached the terminal")
        XCTAssertFalse(screen.screen.contains("\u{202E}"))

        let piped = try CLIRunner.run(
            ["call", "evil", "body", "--keypath", "title"], environment: ["HOME": folder.url.path],
            currentDirectory: folder.url)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stdout, "\u{1B}]0;pwned\u{07}X\u{9B}Y\u{202E}Z\n", "a pipe gets the value as it is")
    }

    func testHeadersAndPrettyBodiesAreEscapedOnATerminal() throws {
        try writeHostileTarget()
        let screen = try runOnTerminal(["call", "evil", "body", "-i"])
        XCTAssertEqual(screen.status, 0, screen.screen)
        // swift-http-types already turns a control character in a field value into a space.
        XCTAssertTrue(screen.screen.contains("X-Evil: a"), screen.screen)
        XCTAssertFalse(screen.screen.contains("\u{1B}[2J"), "the header could not clear the screen")
        XCTAssertTrue(screen.screen.contains(#"\u{9b}Y\u{202e}Z"#), screen.screen)
        XCTAssertFalse(screen.screen.contains("\u{202E}"))
        XCTAssertTrue(screen.screen.contains("\u{1B}[32m"), "the colors are still there: \(screen.screen)")
    }
}

extension TerminalTests {
    func testVerboseLogIsColoredOnATerminalUnlessNoColor() throws {
        let colored = try runOnTerminal(["call", "local", "user", "ash", "-v"], shellSuffix: " >/dev/null")
        XCTAssertEqual(colored.status, 0, colored.screen)
        XCTAssertTrue(colored.screen.contains("\u{1B}[1m> GET /anything/ash HTTP/1.1\u{1B}[0m"), colored.screen)
        XCTAssertTrue(colored.screen.contains("\u{1B}[1;32m< HTTP/1.1 200 OK\u{1B}[0m"), colored.screen)
        let plain = try runOnTerminal(
            ["call", "local", "user", "ash", "-v"], shellSuffix: " >/dev/null", environment: ["NO_COLOR": "1"])
        XCTAssertTrue(plain.screen.contains("> GET /anything/ash HTTP/1.1\n"), plain.screen)
        XCTAssertFalse(plain.screen.contains("\u{1B}["), plain.screen)
    }
}

extension TerminalTests {
    /// The `-v` log quotes the server's raw header lines (not the parsed fields): a control
    /// character in them is escaped before the log's own colors are added.
    func testVerboseLogEscapesServerControlCharactersBetweenItsColors() throws {
        try folder.write(
            "targets/evil.yaml",
            """
            api: evil
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              body:
                path: /status/200
                task: {parameters: {header: "X-Evil:a\\u001b[2Jb\\u001b]0;pwned\\u0007"}, encoding: url}
                sample: ok
            """)
        let screen = try runOnTerminal(["call", "evil", "body", "-v"], shellSuffix: " >/dev/null")
        XCTAssertEqual(screen.status, 0, screen.screen)
        XCTAssertTrue(
            screen.screen.contains("\u{1B}[1;32m< HTTP/1.1 200 OK"), "the log's colors stay: \(screen.screen)")
        XCTAssertTrue(
            screen.screen.contains(#"< X-Evil: a\e[2Jb\e]0;pwned\a"#), "the header arrived, escaped: \(screen.screen)")
        XCTAssertFalse(screen.screen.contains("\u{1B}[2J"), screen.screen)
        XCTAssertFalse(screen.screen.contains("\u{1B}]0;"), screen.screen)
    }
}

extension TerminalTests {
    /// Issue 13, item 8 (and issue 28, item 10): a table fits the terminal; a pipe gets it whole.
    func testListFitsTheTerminalWidthButAPipeGetsEveryCell() throws {
        let long = String(repeating: "a long description ", count: 12)
        try folder.write(
            "targets/wide.yaml",
            """
            api: wide
            description: "\(long)"
            baseURL: http://127.0.0.1:9
            cases:
              oneCaseWithAFairlyLongName: {description: "\(long)", path: /a/rather/long/path/for/this/case, sample: ok}
            """)
        for words in [["list"], ["list", "wide"]] {
            let screen = try runOnTerminal(words, environment: ["COLUMNS": "80"])
            XCTAssertEqual(screen.status, 0, screen.screen)
            let lines = screen.screen.split(separator: "\n")
            XCTAssertFalse(lines.isEmpty)
            for line in lines { XCTAssertLessThanOrEqual(line.count, 80, "\(words): \(line)") }
            XCTAssertFalse(screen.screen.contains("…"), "cells wrap or go, none is cut: \(screen.screen)")
            if words.count == 2 { XCTAssertTrue(screen.screen.contains("oneCaseWithAFairlyLongName"), screen.screen) }
            let piped = try CLIRunner.run(
                words, environment: ["HOME": folder.url.path, "COLUMNS": "80"], currentDirectory: folder.url)
            XCTAssertTrue(piped.stdout.contains(long.trimmingCharacters(in: .whitespaces)), piped.stdout)
        }
    }
}
