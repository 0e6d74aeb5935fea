import TextSafety
import XCTest

/// Issue 28, item 9: a text body streamed to a terminal is escaped as a whole one would be,
/// wherever the pieces are cut.
final class DisplayTextStreamTests: XCTestCase {
    /// `bytes` cut into pieces at `cuts` (offsets), escaped piece by piece.
    func streamed(_ bytes: [UInt8], cuts: [Int]) -> String {
        var stream = DisplayTextStream()
        var output = ""
        var start = 0
        for end in cuts + [bytes.count] {
            output += bytes[start..<end].withUnsafeBytes { stream.escape($0) }
            start = end
        }
        return output + stream.finish()
    }

    /// Every way of cutting `bytes` in two and in three gives `expected`.
    func assertEveryCut(_ bytes: [UInt8], _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        for first in 0...bytes.count {
            XCTAssertEqual(streamed(bytes, cuts: [first]), expected, "cut at \(first)", file: file, line: line)
            for second in first...bytes.count {
                XCTAssertEqual(
                    streamed(bytes, cuts: [first, second]), expected, "cut at \(first), \(second)", file: file,
                    line: line)
            }
        }
    }

    func testAnEscapeSequenceSplitAnywhereIsShownEscaped() {
        assertEveryCut(Array("red \u{1B}[31mX\u{1B}]0;title\u{07}\n".utf8), "red \\e[31mX\\e]0;title\\a\n")
    }

    func testMultiByteControlsSplitAnywhereAreStillEscaped() {
        // C1 CSI (two bytes), a right-to-left override (three), an emoji (four) left alone.
        assertEveryCut(Array("a\u{9B}2Jb\u{202E}c😀\n".utf8), "a\\u{9b}2Jb\\u{202e}c😀\n")
    }

    func testInvalidUTF8SplitAnywhereBecomesReplacementCharacters() {
        // A lead byte without its continuation, a stray continuation byte, a truncated ending.
        assertEveryCut([0x61, 0xC3, 0x41, 0x80, 0x62, 0xE2, 0x80], "a\u{FFFD}A\u{FFFD}b\u{FFFD}\n")
    }

    func testALineBreakSplitBetweenCRAndLFStaysALineBreak() {
        assertEveryCut(Array("one\r\ntwo\rthree\r".utf8), "one\r\ntwo\\rthree\r\n")
    }

    func testAFinalLineBreakIsAddedOnlyToTextWithoutOne() {
        XCTAssertEqual(streamed(Array("text".utf8), cuts: [2]), "text\n")
        XCTAssertEqual(streamed(Array("text\n".utf8), cuts: [5]), "text\n")
        XCTAssertEqual(streamed([], cuts: []), "", "nothing after an empty body")
    }

    func testTextIsEscapedAsAWholeBodyIs() {
        let text = "tab\there, ctl\u{01}, del\u{7F}, nul\u{0}, café\n"
        XCTAssertEqual(
            streamed(Array(text.utf8), cuts: [3, 17, 30]), DisplayText.escaped(text, keepingLineBreaks: true))
    }
}
