import TextSafety
import XCTest

/// Issue 11, item 5: the one sanitiser for text shown to a person.
final class DisplayTextTests: XCTestCase {
    func testControlCharactersAreShownEscaped() {
        XCTAssertEqual(DisplayText.escaped("a\u{1B}]0;title\u{07}b"), #"a\e]0;title\ab"#)
        XCTAssertEqual(DisplayText.escaped("nul\u{0}del\u{7F}c1\u{9B}2J"), #"nul\0del\x7fc1\u{9b}2J"#)
        XCTAssertEqual(DisplayText.escaped("x\u{01}y"), #"x\x01y"#)
        XCTAssertEqual(DisplayText.escaped("abc\u{202E}fed\u{2066}"), #"abc\u{202e}fed\u{2066}"#)
        XCTAssertEqual(DisplayText.escaped("café, 日本, emoji 😀"), "café, 日本, emoji 😀", "printable text is left alone")
    }

    func testOneLineUnlessLineBreaksAreKept() {
        XCTAssertEqual(DisplayText.escaped("one\ntwo\r\nthree\tfour\rfive"), #"one\ntwo\r\nthree\tfour\rfive"#)
        XCTAssertEqual(
            DisplayText.escaped("one\ntwo\r\nthree\tfour\rfive", keepingLineBreaks: true),
            "one\ntwo\r\nthree\tfour\\rfive",
            "a CR that does not end a line could overwrite it")
    }

    func testOwnEscapesAreKeptOnlyWhenAsked() {
        let colored = "\u{1B}[32m\"a\u{9B}\"\u{1B}[0m"
        XCTAssertEqual(DisplayText.escaped(colored, keepingOwnEscapes: true), "\u{1B}[32m\"a\\u{9b}\"\u{1B}[0m")
        XCTAssertEqual(DisplayText.escaped(colored), #"\e[32m"a\u{9b}"\e[0m"#)
    }
}

/// Issue 27, item 5: paging's rule for server text in its one-line errors, kept as it was.
final class DisplayTextCutTests: XCTestCase {
    func testControlsAreEscapedAsSwiftSpellsThemAndBidiIsLeft() {
        XCTAssertEqual(
            DisplayText.escapedAndCut("a\u{1B}]0;t\u{07}\u{0}\u{1}\n\r\t\u{7F}\u{85}\u{9B}b"),
            #"a\u{1B}]0;t\u{07}\0\u{01}\n\r\t\u{7F}\u{0085}\u{009B}b"#)
        XCTAssertEqual(DisplayText.escapedAndCut("x\u{202E}y é"), "x\u{202E}y é")
        XCTAssertEqual(DisplayText.escapedAndCut(""), "")
    }

    func testLongTextIsCutAtTheLimitInScalars() {
        XCTAssertEqual(
            DisplayText.escapedAndCut(String(repeating: "é", count: 200)), String(repeating: "é", count: 200))
        XCTAssertEqual(
            DisplayText.escapedAndCut(String(repeating: "é", count: 201)), String(repeating: "é", count: 200) + "…")
        XCTAssertEqual(DisplayText.escapedAndCut("\u{1B}\u{1B}\u{1B}", limit: 2), #"\u{1B}\u{1B}…"#)
        XCTAssertEqual(DisplayText.escapedAndCut(String(repeating: "a", count: 1_000_000), limit: 3), "aaa…")
    }
}
