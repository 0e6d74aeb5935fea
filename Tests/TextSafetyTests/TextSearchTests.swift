import XCTest

@testable import TextSafety

final class TextSearchTests: XCTestCase {
    func testFindsAPartAnywhereByteForByte() {
        XCTAssertTrue(TextSearch.contains("Bearer s3cret-token", "s3cret"))
        XCTAssertTrue(TextSearch.contains("abc", "abc"))
        XCTAssertTrue(TextSearch.contains("xxabc", "abc"), "at the very end")
        XCTAssertTrue(TextSearch.contains("aaab", "aab"), "after a false start on the same first byte")
        XCTAssertTrue(TextSearch.contains("anything", ""), "the empty text is in every text")
        XCTAssertTrue(TextSearch.contains("café au lait"[...], "é a"))
        XCTAssertFalse(TextSearch.contains("ab", "abc"), "longer than the text")
        XCTAssertFalse(TextSearch.contains("", "a"))
        XCTAssertFalse(TextSearch.contains("application/json", "JSON"), "bytes, not case-folded")
        // As bytes: a combining accent after `e` still contains `e`, which Character search would not find.
        XCTAssertTrue(TextSearch.contains("e\u{301}", "e"))
        XCTAssertFalse("e\u{301}".contains("e"))
    }

    func testReplacesEveryOccurrenceAndLeavesOtherTextAsItIs() {
        XCTAssertEqual(
            TextSearch.replacing("pw", with: "<redacted>", in: "user pw and pw"), "user <redacted> and <redacted>")
        XCTAssertEqual(TextSearch.replacing("pw", with: "x", in: "nothing here"), "nothing here")
        XCTAssertEqual(TextSearch.replacing("", with: "x", in: "same"), "same")
    }
}
