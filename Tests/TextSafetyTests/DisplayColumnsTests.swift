import TextSafety
import XCTest

/// Text measured and wrapped in terminal columns: wide characters take two, marks none; a line
/// never breaks inside an escape or a grapheme and is never wider than asked.
final class DisplayColumnsTests: XCTestCase {
    func testWidthsInColumns() {
        XCTAssertEqual(DisplayColumns.width(of: "plain"), 5)
        XCTAssertEqual(DisplayColumns.width(of: "日本語"), 6)
        XCTAssertEqual(DisplayColumns.width(of: "ｆｕｌｌ"), 8)
        XCTAssertEqual(DisplayColumns.width(of: "e\u{301}te\u{301}"), 3, "a combining mark joins its letter")
        XCTAssertEqual(DisplayColumns.width(of: "\u{1F600}\u{1F44D}\u{1F3FD}"), 4, "emoji, with a skin tone")
        XCTAssertEqual(DisplayColumns.width(of: "\u{2764}\u{FE0F}"), 2, "emoji presentation selector")
        XCTAssertEqual(DisplayColumns.width(of: "\u{200B}"), 0)
        XCTAssertEqual(DisplayColumns.width(of: "한국어 café"), 11)
    }

    func testTextThatFitsIsKeptAsItIsAndEscaped() {
        XCTAssertEqual(DisplayColumns.wrapped("two  spaces ", width: 20), ["two  spaces "])
        XCTAssertEqual(DisplayColumns.wrapped("bell\u{7}", width: 20), ["bell\\a"])
        XCTAssertEqual(DisplayColumns.wrapped("", width: 5), [""])
    }

    func testWordsWrapAtSpacesWithAHangingIndent() {
        XCTAssertEqual(
            DisplayColumns.wrapped("the quick brown fox jumps over the lazy dog", width: 16),
            ["the quick brown", "fox jumps over", "the lazy dog"])
        XCTAssertEqual(
            DisplayColumns.wrapped("the quick brown fox jumps over the lazy dog", width: 16, indent: 4),
            ["the quick brown", "fox jumps", "over the", "lazy dog"])
        XCTAssertEqual(
            DisplayColumns.wrapped("name: string, page: int = 1, sort: name|price", width: 20, separator: ", "),
            ["name: string,", "page: int = 1,", "sort: name|price"])
    }

    func testALongWordBreaksBetweenGraphemesAndEscapesOnly() {
        XCTAssertEqual(
            DisplayColumns.wrapped(String(repeating: "x", count: 25), width: 10), ["xxxxxxxxxx", "xxxxxxxxxx", "xxxxx"])
        XCTAssertEqual(DisplayColumns.wrapped("日本語日本語日", width: 5), ["日本", "語日", "本語", "日"])
        XCTAssertEqual(
            DisplayColumns.wrapped("e\u{301}e\u{301}e\u{301}e\u{301}", width: 3),
            ["e\u{301}e\u{301}e\u{301}", "e\u{301}"])
        // ESC [ 2 J, a right-to-left override and a C1 control: shown escaped, never cut inside.
        let hostile = "ab\u{1B}[2J\u{202E}cd\u{9B}31m"
        let lines = DisplayColumns.wrapped(hostile, width: 4)
        XCTAssertEqual(lines.joined(), DisplayText.escaped(hostile))
        XCTAssertEqual(lines, ["ab\\e", "[2J", "\\u{202e}", "cd", "\\u{9b}", "31m"])
        for line in lines { XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }) }
    }

    func testEveryLineFitsWhateverTheText() {
        let texts = [
            String(repeating: "a", count: 500), String(repeating: "語", count: 300) + " x",
            String(repeating: "\u{1B}[31m", count: 50),
            "mixed 日本 \u{1}\u{7F} text with a " + String(repeating: "w", count: 90)
        ]
        for text in texts {
            for width in [7, 20, 80] {
                let lines = DisplayColumns.wrapped(text, width: width, indent: min(2, width - 1))
                for (index, line) in lines.enumerated() {
                    let room = index == 0 ? width : width - min(2, width - 1)
                    XCTAssertLessThanOrEqual(DisplayColumns.width(of: line), max(room, 2), "\(width): \(line)")
                }
                XCTAssertEqual(
                    lines.joined().filter { $0 != " " }, DisplayText.escaped(text).filter { $0 != " " }, "nothing lost")
            }
        }
    }
}
