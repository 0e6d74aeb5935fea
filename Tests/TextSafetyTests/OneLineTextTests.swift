import XCTest

@testable import TextSafety

/// The one rule every importer uses for a description: its first paragraph, on one line.
final class OneLineTextTests: XCTestCase {
    func testTheFirstParagraphIsJoinedOnOneLine() {
        XCTAssertEqual(
            OneLineText.firstParagraph("Lists the notes\nof the user.\n\n## Paging\nmore"),
            "Lists the notes of the user.")
        XCTAssertEqual(OneLineText.firstParagraph("Gets one note.\r\n\r\nA second paragraph."), "Gets one note.")
        XCTAssertEqual(OneLineText.firstParagraph("\n\n  Indented\n  wrapped line\n"), "Indented wrapped line")
        XCTAssertEqual(OneLineText.firstParagraph("one\u{2028}two"), "one two")
        XCTAssertEqual(OneLineText.firstParagraph("  \n\r\n \u{2028} "), "")
        XCTAssertEqual(OneLineText.firstParagraph("red \u{1B}[31mtext\u{7}"), "red [31mtext")
    }

    func testALongParagraphIsCutAfterASentenceOrAtAWord() {
        let sentence = String(repeating: "word ", count: 12) + "end. "
        XCTAssertEqual(
            OneLineText.firstParagraph(sentence + String(repeating: "more ", count: 40)), String(sentence.dropLast()))
        let words = OneLineText.firstParagraph(String(repeating: "abcdefg ", count: 40))
        XCTAssertTrue(words.hasSuffix("abcdefg…"), words)
        XCTAssertLessThanOrEqual(words.count, 160)
    }
}
