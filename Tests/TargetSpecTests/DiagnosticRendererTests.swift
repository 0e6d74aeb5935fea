import PositionedYAML
import TargetSpec
import XCTest

final class DiagnosticRendererTests: XCTestCase {
    private let source = "api: github\ncases:\n  zen:\n    pth: /zen\n"

    func testRendersLocationMessageLineAndCaret() {
        let diagnostic = Diagnostic(
            .error, file: "targets/github.yaml", mark: at(4, 5), message: "unknown key 'pth'; did you mean 'path'?")
        XCTAssertEqual(
            DiagnosticRenderer.render([diagnostic], source: source),
            """
            targets/github.yaml:4:5: error: unknown key 'pth'; did you mean 'path'?
                    pth: /zen
                    ^

            """)
    }

    func testWarningsSayWarning() {
        let diagnostic = Diagnostic(.warning, file: "t.yaml", mark: at(3, 3), message: "case 'zen' has no sample")
        XCTAssertEqual(
            DiagnosticRenderer.render([diagnostic], source: source),
            """
            t.yaml:3:3: warning: case 'zen' has no sample
                  zen:
                  ^

            """)
    }

    func testDiagnosticWithoutAMarkIsOneLine() {
        let diagnostic = Diagnostic(.error, file: "t.yaml", mark: nil, message: "empty target file")
        XCTAssertEqual(DiagnosticRenderer.render([diagnostic], source: source), "t.yaml: error: empty target file\n")
    }

    func testWithoutSourceOrPastItsEndOnlyTheFirstLineIsShown() {
        let diagnostic = Diagnostic(.error, file: "t.yaml", mark: at(9, 1), message: "m")
        XCTAssertEqual(DiagnosticRenderer.render([diagnostic], source: source), "t.yaml:9:1: error: m\n")
        XCTAssertEqual(DiagnosticRenderer.render([diagnostic], source: nil), "t.yaml:9:1: error: m\n")
    }

    func testCaretAfterTheLastCharacterOfALine() {
        let diagnostic = Diagnostic(.error, file: "t.yaml", mark: at(2, 7), message: "expected a value")
        XCTAssertEqual(
            DiagnosticRenderer.render([diagnostic], source: source),
            """
            t.yaml:2:7: error: expected a value
                cases:
                      ^

            """)
    }

    func testTabsBeforeTheColumnStayTabs() {
        let diagnostic = Diagnostic(.error, file: "t.yaml", mark: at(1, 4), message: "m")
        XCTAssertEqual(
            DiagnosticRenderer.render([diagnostic], source: "\ta:\tb\n"),
            "t.yaml:1:4: error: m\n    \ta:\tb\n    \t  ^\n")
    }

    func testSortsByFileLineColumnAndMessage() {
        let diagnostics = [
            Diagnostic(.error, file: "b.yaml", mark: at(1, 1), message: "in b"),
            Diagnostic(.error, file: "a.yaml", mark: at(2, 1), message: "second"),
            Diagnostic(.error, file: "a.yaml", mark: at(1, 2), message: "first, z"),
            Diagnostic(.error, file: "a.yaml", mark: at(1, 2), message: "first, a"),
            Diagnostic(.error, file: "a.yaml", mark: nil, message: "whole file")
        ]
        let sources = ["a.yaml": SourceLines("xyz\nline two\n"), "b.yaml": SourceLines("bee\n")]
        XCTAssertEqual(
            DiagnosticRenderer.render(diagnostics, source: { sources[$0] }),
            """
            a.yaml: error: whole file
            a.yaml:1:2: error: first, a
                xyz
                 ^
            a.yaml:1:2: error: first, z
                xyz
                 ^
            a.yaml:2:1: error: second
                line two
                ^
            b.yaml:1:1: error: in b
                bee
                ^

            """)
    }

    func testColoredOutputIsBoldWithRedErrorsAndYellowWarnings() {
        let diagnostics = [
            Diagnostic(.error, file: "t.yaml", mark: at(1, 1), message: "bad"),
            Diagnostic(.warning, file: "t.yaml", mark: nil, message: "meh")
        ]
        XCTAssertEqual(
            DiagnosticRenderer.render(diagnostics, source: "api: x\n", colored: true),
            "\u{1B}[1mt.yaml: \u{1B}[1;33mwarning:\u{1B}[0m\u{1B}[1m meh\u{1B}[0m\n"
                + "\u{1B}[1mt.yaml:1:1: \u{1B}[1;31merror:\u{1B}[0m\u{1B}[1m bad\u{1B}[0m\n"
                + "    api: x\n"
                + "    \u{1B}[1;31m^\u{1B}[0m\n")
    }

    func testSourceLinesSplitLikeLibyamlAndDropTheByteOrderMark() {
        let lines = SourceLines("\u{FEFF}a\r\nb\rc\u{85}d\u{2028}e\u{2029}f\ng")
        XCTAssertEqual(lines.count, 7)
        XCTAssertEqual((1...7).compactMap { lines.line($0).map(String.init) }, ["a", "b", "c", "d", "e", "f", "g"])
        XCTAssertNil(lines.line(0))
        XCTAssertNil(lines.line(8))
    }
}

/// A hostile file's one long line with thousands of problems stays cheap to report.
final class DiagnosticRendererBoundsTests: XCTestCase {
    func testALongLineIsShownAsAWindowAroundTheCaret() {
        let line = "    path: \"/" + String(repeating: "{x}", count: 2000) + "\""
        let diagnostic = Diagnostic(
            .error, file: "t.yaml", mark: Mark(line: 1, column: 3001), message: "unknown placeholder '{x}'")
        let text = DiagnosticRenderer.render([diagnostic], source: line)
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(rows.count, 4, text)
        XCTAssertLessThanOrEqual(rows[1].count, 4 + DiagnosticRenderer.snippetWidth + 2)
        XCTAssertTrue(rows[1].hasPrefix("    …") && rows[1].hasSuffix("…"), String(rows[1]))
        // The caret stands under the character the mark names.
        let caretColumn = rows[2].count - 1
        let lineScalars = Array(rows[1].unicodeScalars)
        XCTAssertEqual(lineScalars[caretColumn], Array(line.unicodeScalars)[3000])
    }

    func testAtMostAHundredProblemsOfAFileAreShown() {
        let diagnostics = (1...250).map {
            Diagnostic(.error, file: "t.yaml", mark: Mark(line: 1, column: $0), message: "problem \($0)")
        }
        let text = DiagnosticRenderer.render(diagnostics, source: String(repeating: "x", count: 300))
        XCTAssertEqual(text.components(separatedBy: ": error: ").count - 1, DiagnosticRenderer.maximumPerFile)
        XCTAssertTrue(
            text.hasSuffix("t.yaml: 150 more errors not shown (the first 100 errors are above)\n"),
            String(text.suffix(200)))
    }

    /// Issue 39: Microsoft Graph's import failed (70) behind 100 warnings and "69 more problems
    /// not shown"; the errors come first, the warnings left out are counted by kind.
    func testErrorsAreShownBeforeTheWarningsThatWouldHideThem() {
        var diagnostics = (1...150).map {
            Diagnostic(
                .warning, file: "t.yaml", mark: Mark(line: $0, column: 1), message: "case 'c\($0)' has no sample")
        }
        diagnostics += [
            Diagnostic(.error, file: "t.yaml", mark: Mark(line: 160, column: 1), message: "the cause"),
            Diagnostic(.error, file: "t.yaml", mark: Mark(line: 170, column: 1), message: "another cause")
        ]
        let text = DiagnosticRenderer.render(diagnostics, source: String(repeating: "x\n", count: 200))
        XCTAssertTrue(text.hasPrefix("t.yaml:160:1: error: the cause\n"), String(text.prefix(200)))
        XCTAssertTrue(
            text.contains("t.yaml:170:1: error: another cause\n    x\n    ^\nt.yaml:1:1: warning: case 'c1'"), text)
        XCTAssertEqual(text.components(separatedBy: ": warning: ").count - 1, 98)
        XCTAssertTrue(
            text.hasSuffix(
                "t.yaml: 52 warnings not shown\nt.yaml:   52 × case '…' has no sample\n"
            ),
            String(text.suffix(300)))
        // Where a command fails on the errors (an import), the warnings are only counted.
        let failing = DiagnosticRenderer.render(
            diagnostics, source: String(repeating: "x\n", count: 200), summarizingWarnings: true)
        XCTAssertEqual(failing.components(separatedBy: ": warning: ").count - 1, 0)
        XCTAssertTrue(
            failing.hasSuffix(
                "t.yaml:170:1: error: another cause\n    x\n    ^\nt.yaml: 150 warnings not shown\nt.yaml:   150 × case '…' has no sample\n"
            ), failing)
        // Few problems keep their line order.
        let few = DiagnosticRenderer.render(Array(diagnostics.suffix(3)), source: String(repeating: "x\n", count: 200))
        XCTAssertTrue(few.hasPrefix("t.yaml:150:1: warning:"), few)
    }
}

/// A mark, briefly.
private func at(_ line: Int, _ column: Int) -> Mark { Mark(line: line, column: column) }
