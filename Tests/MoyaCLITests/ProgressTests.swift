import CLITestSupport
import Foundation
import TestServers
import XCTest

/// The progress line of a transfer that lasts (issue 28, item 9), on a pseudo-terminal against
/// `/trickle` and `/gated-upload`: the line shows once the transfer has run about a second, and
/// each test opens the server's gate only after it saw what it waits for, so nothing is timed.
final class ProgressTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: URL!

    /// 1,000 bytes of text, then 1,000 more once the gate opens.
    static let first = Data(repeating: UInt8(ascii: "a"), count: 999) + Data("\n".utf8)
    static let rest = Data(repeating: UInt8(ascii: "b"), count: 999) + Data("\n".utf8)

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try makeTemporaryFolder()
        let targets = folder.appendingPathComponent("targets")
        try FileManager.default.createDirectory(at: targets, withIntermediateDirectories: true)
        try """
        api: local
        baseURL: \(server.baseURL.absoluteString)
        validation: none
        cases:
          trickle:
            values:
              - {gate: string}
              - {first: {type: string, default: ""}}
              - {rest: {type: string, default: ""}}
              - {length: {type: string, default: exact}}
              - {type: {type: string, default: text/plain}}
              - {wait: {type: string, default: ""}}
            path: /trickle/{gate}
            task:
              parameters: {first: "{first}", rest: "{rest}", length: "{length}", type: "{type}", wait: "{wait}"}
              encoding: url
            sample: ok
          download:
            values: [{gate: string}, {first: string}]
            path: /trickle/{gate}
            task: {download: "saved.txt", parameters: {first: "{first}", rest: "{first}"}}
            sample: ok
          upload:
            values: [{gate: string}, {file: file}]
            method: POST
            path: /gated-upload/{gate}
            task: {upload: "{file}"}
            sample: ok
        """.write(to: targets.appendingPathComponent("local.yaml"), atomically: true, encoding: .utf8)
    }

    override func tearDown() {
        server?.stop()
    }

    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }

    /// `call local trickle GATE` with both parts and `options`.
    func trickle(_ gate: String, first: Data = first, rest: Data = rest, _ options: [String] = []) -> [String] {
        ["call", "local", "trickle", gate, "--first", Self.hex(first), "--rest", Self.hex(rest)] + options
    }

    /// Waits for a whole progress line holding `pattern`, then opens `gate`.
    func barThenOpen(_ gate: String, _ pattern: String = "ETA") -> [PseudoTerminalRun.Step] {
        [.waitFor("\r[^\r]*" + pattern + "[^\r]*\u{1B}\\[K"), .open(server.url("/gate/" + gate))]
    }

    /// After the last line drawn, the line was cleared ("\r" ESC "[K") before `following`.
    func assertClearedBefore(
        _ following: String, in run: PseudoTerminalRun, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let text = run.text
        guard let lastDrawn = text.range(of: "\u{1B}[K", options: .backwards, range: nil),
            let clear = text.range(of: "\r\u{1B}[K", options: .backwards)
        else {
            return XCTFail("no progress line was drawn or cleared:\n\(text.debugDescription)", file: file, line: line)
        }
        XCTAssertEqual(
            lastDrawn.lowerBound, text.index(after: clear.lowerBound), "the last write to the line clears it",
            file: file, line: line)
        // Every line drawn is followed by the next redraw or the clear, never by other output.
        XCTAssertNil(
            text.range(of: "[^\r]\u{1B}\\[K[^\r]", options: .regularExpression), "output over a drawn line",
            file: file, line: line)
        let after = String(text[clear.upperBound...])
        XCTAssertTrue(after.hasPrefix(following), "after the clear: \(after.debugDescription)", file: file, line: line)
    }

    // MARK: - The line

    func testOutputFileShowsBytesTotalPercentRateAndTimeLeftThenClearsTheLine() throws {
        let run = try PseudoTerminalRun(trickle("known", ["-o", "out.txt"]), in: folder, steps: barThenOpen("known"))
        XCTAssertTrue(run.sawEverything, run.text.debugDescription)
        XCTAssertEqual(run.status, 0, run.text)
        let line = try XCTUnwrap(run.progressLines().first { $0.contains("ETA") })
        XCTAssertTrue(line.hasPrefix("down  50%  ["), line)
        XCTAssertTrue(line.contains("]  1000 B / 1.9 KiB  "), line)
        XCTAssertNotNil(
            line.range(of: #"  \d+(\.\d)? (B|KiB)/s  ETA (\d+:\d\d|--:--)$"#, options: .regularExpression), line)
        assertClearedBefore("moya-cli: wrote 2000 bytes to out.txt", in: run)
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("out.txt")), Self.first + Self.rest)
    }

    func testUnknownLengthShowsBytesRateAndTimeSpent() throws {
        let run = try PseudoTerminalRun(
            trickle("none", ["--length", "none", "-o", "out.txt"]), in: folder, steps: barThenOpen("none", "/s"))
        XCTAssertTrue(run.sawEverything, run.text.debugDescription)
        XCTAssertEqual(run.status, 0, run.text)
        let line = try XCTUnwrap(run.progressLines().first)
        XCTAssertNotNil(
            line.range(of: #"^down  1000 B  \d+(\.\d)? (B|KiB)/s  \d+:\d\d$"#, options: .regularExpression), line)
        XCTAssertFalse(run.progressLines().contains { $0.contains("%") || $0.contains("ETA") }, run.text)
        assertClearedBefore("moya-cli: wrote 2000 bytes to out.txt", in: run)
    }

    func testAPlainBodyPipedShowsTheLineOnTheTerminalAndPipesTheBodyByteForByte() throws {
        let body = folder.appendingPathComponent("body.out")
        let binary = Data([0x00, 0xFF, 0x1B, 0x5B, 0x32, 0x4A, 0x0D]) + Self.first
        let run = try PseudoTerminalRun(
            trickle("piped", first: binary, ["--type", "application/octet-stream"]), in: folder,
            steps: barThenOpen("piped"), stdout: .file(body))
        XCTAssertTrue(run.sawEverything, run.text.debugDescription)
        XCTAssertEqual(run.status, 0, run.text)
        XCTAssertEqual(try Data(contentsOf: body), binary + Self.rest)
        XCTAssertTrue(run.text.hasSuffix("\r\u{1B}[K"), run.text.debugDescription)
    }

    func testADeclaredDownloadShowsTheLine() throws {
        let run = try PseudoTerminalRun(
            ["call", "local", "download", "declared", Self.hex(Self.first)], in: folder,
            steps: barThenOpen("declared"))
        XCTAssertTrue(run.sawEverything, run.text.debugDescription)
        XCTAssertEqual(run.status, 0, run.text)
        XCTAssertTrue(try XCTUnwrap(run.progressLines().first).contains("%  [###"), run.text)
        assertClearedBefore("moya-cli: saved ", in: run)
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("saved.txt")), Self.first + Self.first)
    }

    func testAnUploadShowsItsSizeAndProgress() throws {
        // Larger than loopback's socket buffers: the upload stalls until the server reads it.
        let size = 48 * 1024 * 1024
        let file = folder.appendingPathComponent("big.bin")
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: Data(count: size)))
        let run = try PseudoTerminalRun(
            ["call", "local", "upload", "big", file.path], in: folder,
            steps: barThenOpen("big", "up  .*/ 48.0 MiB  .*ETA"))
        XCTAssertTrue(run.sawEverything, run.text.debugDescription)
        XCTAssertEqual(run.status, 0, run.text)
        XCTAssertTrue(run.progressLines().contains { $0.hasPrefix("up  ") && $0.contains("%  [") }, run.text)
        assertClearedBefore("received \(size) bytes", in: run)
    }

    func testWhatIsLoggedDuringTheTransferClearsTheLineFirst() throws {
        let file = folder.appendingPathComponent("big.bin")
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: Data(count: 48 * 1024 * 1024)))
        // The answer's head comes once the gate opens, while the line is up: -v logs it then.
        let run = try PseudoTerminalRun(
            ["call", "local", "upload", "logged", file.path, "-v"], in: folder,
            steps: barThenOpen("logged", "up  .*ETA"), environment: ["NO_COLOR": "1"])
        XCTAssertTrue(run.sawEverything, run.text.debugDescription)
        XCTAssertEqual(run.status, 0, run.text)
        // A drawn line, cleared, then the log's next line (libcurl's note or the answer's head);
        // and never a drawn line followed by anything but a carriage return.
        let all = NSRange(run.text.startIndex..., in: run.text)
        let drawnThenLogged = try NSRegularExpression(pattern: "ETA [^\r]*\u{1B}\\[K\r\u{1B}\\[K[*<] ")
        XCTAssertGreaterThanOrEqual(
            drawnThenLogged.numberOfMatches(in: run.text, range: all), 1, run.text.debugDescription)
        let drawnThenOverwritten = try NSRegularExpression(pattern: "[^\r]\u{1B}\\[K[^\r]")
        XCTAssertEqual(drawnThenOverwritten.numberOfMatches(in: run.text, range: all), 0, run.text.debugDescription)
        XCTAssertNotNil(run.text.range(of: "< HTTP/1.1 200"), run.text)
        XCTAssertTrue(run.text.contains("\r\nreceived 50331648 bytes\r\n"), run.text.debugDescription)
    }

    // MARK: - When it does not show

    func testSilentShowsNoLine() throws {
        let run = try PseudoTerminalRun(
            trickle("silent", ["--wait", "1500", "-s", "-o", "out.txt"]), in: folder)
        XCTAssertEqual(run.status, 0, run.text)
        XCTAssertEqual(run.text, "")
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("out.txt")), Self.first + Self.rest)
    }

    func testStderrOnAPipeGetsNoLineAndStdoutGetsTheBodyByteForByte() throws {
        let body = Data([0x1B, 0x5B, 0x33, 0x31, 0x6D, 0xC3]) + Self.first
        let result = try CLIRunner.run(
            trickle("pipe", first: body, ["--wait", "1500"]), currentDirectory: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.stdoutData, body + Self.rest)
    }

    // MARK: - Hostile servers and terminals

    func testAHugeContentLengthNeitherOverflowsNorDividesByZero() throws {
        let run = try PseudoTerminalRun(
            trickle("huge", ["--length", "9223372036854775807", "-o", "out.txt"]), in: folder,
            steps: barThenOpen("huge", "ETA"))
        XCTAssertTrue(run.sawEverything, run.text.debugDescription)
        let line = try XCTUnwrap(run.progressLines().first)
        XCTAssertTrue(line.hasPrefix("down  0%  ["), line)
        XCTAssertTrue(line.contains("1000 B / 8.0 EiB"), line)
        XCTAssertTrue(line.hasSuffix("ETA >99h"), line)
        // The server closed the connection long before that many bytes: a transport failure.
        XCTAssertEqual(run.status, 1, run.text)
        assertClearedBefore("moya-cli: error:", in: run)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.txt").path))
    }

    func testAContentLengthLongerThanTheBodyIsAFailureWithTheLineCleared() throws {
        let run = try PseudoTerminalRun(
            trickle("longer", ["--length", "5000", "-o", "out.txt"]), in: folder, steps: barThenOpen("longer", "20%"))
        XCTAssertTrue(run.sawEverything, run.text.debugDescription)
        XCTAssertTrue(try XCTUnwrap(run.progressLines().first).contains("1000 B / 4.8 KiB"), run.text)
        XCTAssertEqual(run.status, 1, run.text)
        assertClearedBefore("moya-cli: error:", in: run)
    }

    func testAContentLengthShorterThanTheBodyEndsTheBodyThere() throws {
        let result = try CLIRunner.run(trickle("shorter", ["--length", "500"]), currentDirectory: folder)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutData, Self.first.prefix(500))
    }

    func testAnEmptyBodyEndsAtOnceWithContentLengthZero() throws {
        let run = try PseudoTerminalRun(trickle("zero", first: Data(), rest: Data(), ["-o", "out.txt"]), in: folder)
        XCTAssertEqual(run.status, 0, run.text)
        XCTAssertEqual(run.textWithoutProgress, "moya-cli: wrote 0 bytes to out.txt\r\n")
    }

    func testAnEmptyBodyThatWaitsShowsNoPercentage() throws {
        let run = try PseudoTerminalRun(
            trickle("empty", first: Data(), rest: Data(), ["--length", "none", "-o", "out.txt"]), in: folder,
            steps: barThenOpen("empty", "/s"))
        XCTAssertTrue(run.sawEverything, run.text.debugDescription)
        XCTAssertEqual(run.status, 0, run.text)
        let line = try XCTUnwrap(run.progressLines().first)
        XCTAssertNotNil(line.range(of: #"^down  0 B  0 B/s  \d+:\d\d$"#, options: .regularExpression), line)
        assertClearedBefore("moya-cli: wrote 0 bytes to out.txt", in: run)
    }

    func testANarrowTerminalGetsLinesThatFit() throws {
        let run = try PseudoTerminalRun(
            trickle("narrow", ["-o", "out.txt"]), in: folder, steps: barThenOpen("narrow", "KiB"), columns: 100,
            environment: ["COLUMNS": "20"])
        XCTAssertTrue(run.sawEverything, run.text.debugDescription)
        XCTAssertEqual(run.status, 0, run.text)
        let lines = run.progressLines()
        XCTAssertFalse(lines.isEmpty)
        for line in lines { XCTAssertLessThanOrEqual(line.count, 19, line) }
        XCTAssertEqual(lines.first, "1000 B / 1.9 KiB")
    }

    func testAResizedWindowGetsLinesThatFitAtTheNextRedraw() throws {
        let run = try PseudoTerminalRun(
            trickle("resized", ["-o", "out.txt"]), in: folder,
            steps: [
                .waitFor("ETA[^\r]*\u{1B}\\[K"), .resize(columns: 30), .mark, .waitFor("\r[^\r]*\u{1B}\\[K"),
                .open(server.url("/gate/resized"))
            ], columns: 100)
        XCTAssertTrue(run.sawEverything, run.text.debugDescription)
        XCTAssertEqual(run.status, 0, run.text)
        XCTAssertTrue(run.progressLines().contains { $0.count > 40 }, "wide before")
        let after = run.progressLines(from: try XCTUnwrap(run.marks.first))
        XCTAssertFalse(after.isEmpty)
        for line in after { XCTAssertLessThanOrEqual(line.count, 29, line) }
    }

    func testCtrlCClearsTheLineAndLeavesNoFile() throws {
        let run = try PseudoTerminalRun(
            trickle("interrupted", ["-o", "out.txt"]), in: folder,
            steps: [.waitFor("ETA[^\r]*\u{1B}\\[K"), .interrupt])
        XCTAssertTrue(run.sawEverything, run.text.debugDescription)
        XCTAssertEqual(run.status, 130, run.text)
        assertClearedBefore("moya-cli: error:", in: run)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.txt").path))
        server.openGate("interrupted")
    }

    func testAClosedStdoutIsTheDocumentedFailureWithNoLineLeft() throws {
        let run = try PseudoTerminalRun(trickle("closed", ["--wait", "1500"]), in: folder, stdout: .closed)
        XCTAssertEqual(run.status, 74, run.text)
        XCTAssertTrue(run.textWithoutProgress.hasPrefix("moya-cli: error:"), run.text.debugDescription)
        XCTAssertTrue(run.text.contains("standard output"), run.text)
        // Drawn only if the machine was slow enough; then it was cleared before the error.
        if run.text.contains("\u{1B}[K") { assertClearedBefore("moya-cli: error:", in: run) }
    }

    // MARK: - Text bodies on a terminal, as they arrive

    /// Runs `call local trickle GATE` on the terminal: waits until the first part shows as
    /// `shown` (a regular expression), then opens the gate for the rest.
    func streamed(
        _ gate: String, first: Data, rest: Data, shown: String, _ options: [String] = [],
        environment: [String: String] = [:]
    ) throws -> PseudoTerminalRun {
        try PseudoTerminalRun(
            trickle(gate, first: first, rest: rest, options), in: folder,
            steps: [.waitFor(shown), .open(server.url("/gate/" + gate))], environment: environment)
    }

    func testATextBodyReachesTheTerminalBeforeItsLastPartIsSent() throws {
        let run = try streamed(
            "text", first: Data("first part\n".utf8), rest: Data("second part\n".utf8), shown: "first part\r\n")
        XCTAssertTrue(run.sawEverything, "the first part was on the screen before the rest was sent: \(run.text)")
        XCTAssertEqual(run.status, 0, run.text)
        XCTAssertEqual(run.textWithoutProgress, "first part\r\nsecond part\r\n")
        let firstShown = try XCTUnwrap(run.text.range(of: "first part"))
        XCTAssertFalse(run.text[firstShown.lowerBound...].contains("\u{1B}"), "no progress line once the body shows")
    }

    func testEscapeSequencesSplitAcrossPartsAreShownEscaped() throws {
        let first = Data("red \u{1B}[3".utf8) + Data([0xC2])
        let rest = Data([0x9B]) + Data("2J\u{1B}]0;title\u{07} nul\u{0} end".utf8)
        let run = try streamed("escapes", first: first, rest: rest, shown: #"red \\e\[3"#)
        XCTAssertTrue(run.sawEverything, run.text.debugDescription)
        XCTAssertEqual(run.status, 0, run.text)
        XCTAssertEqual(run.textWithoutProgress, #"red \e[3\u{9b}2J\e]0;title\a nul\0 end"# + "\r\n")
        let body = try XCTUnwrap(run.text.range(of: "red "))
        XCTAssertFalse(run.text[body.lowerBound...].unicodeScalars.contains { [0x1B, 0x07, 0x9B].contains($0.value) })
    }

    func testUTF8SplitAcrossPartsIsKeptAndInvalidUTF8IsReplaced() throws {
        let valid = try streamed(
            "valid", first: Data("caf".utf8) + Data([0xC3]), rest: Data([0xA9]) + Data(" 😀\n".utf8),
            shown: "caf")
        XCTAssertTrue(valid.sawEverything, valid.text.debugDescription)
        XCTAssertEqual(valid.textWithoutProgress, "café 😀\r\n")

        let invalid = try streamed(
            "invalid", first: Data("a".utf8) + Data([0xE2, 0x82]),
            rest: Data([0x41, 0x80]) + Data("b".utf8) + Data([0xF0]),
            shown: "a")
        XCTAssertTrue(invalid.sawEverything, invalid.text.debugDescription)
        XCTAssertEqual(invalid.status, 0, invalid.text)
        XCTAssertEqual(invalid.textWithoutProgress, "a\u{FFFD}A\u{FFFD}b\u{FFFD}\r\n")
    }

    func testTheHeadOfAStreamedBodyIsEscapedToo() throws {
        let run = try streamed(
            "head", first: Data("first\n".utf8), rest: Data("last\n".utf8), shown: "first\r\n",
            ["-i", "--type", "text/plain; x=\u{1B}]0;pwned\u{07}"])
        XCTAssertTrue(run.sawEverything, run.text.debugDescription)
        XCTAssertEqual(run.status, 0, run.text)
        XCTAssertTrue(run.textWithoutProgress.hasPrefix("HTTP/1.1 200 OK\r\n"), run.text)
        // The transport's head already has no controls in its values; the line is there, harmless.
        XCTAssertTrue(run.text.contains("Content-Type: text/plain; x="), run.text)
        XCTAssertTrue(run.textWithoutProgress.hasSuffix("\r\n\r\nfirst\r\nlast\r\n"), run.text)
        XCTAssertFalse(run.textWithoutProgress.contains("\u{1B}") || run.screen.contains(0x07))
    }

    func testAJSONBodyIsShownWholeWithTheProgressLineMeanwhile() throws {
        let run = try PseudoTerminalRun(
            trickle(
                "json", first: Data(#"{"a": 1, "#.utf8), rest: Data(#""b": [true]}"#.utf8),
                ["--type", "application/json"]),
            in: folder, steps: barThenOpen("json"), environment: ["NO_COLOR": "1"])
        XCTAssertTrue(run.sawEverything, run.text.debugDescription)
        XCTAssertEqual(run.status, 0, run.text)
        assertClearedBefore("{\r\n", in: run)
        let clear = try XCTUnwrap(run.text.range(of: "\r\u{1B}[K", options: .backwards))
        XCTAssertFalse(run.text[..<clear.lowerBound].contains("{"), "nothing of the body before it was whole")
        XCTAssertTrue(run.text.hasSuffix("\"a\": 1,\r\n  \"b\": [\r\n    true\r\n  ]\r\n}\r\n"), run.text)
    }
}
