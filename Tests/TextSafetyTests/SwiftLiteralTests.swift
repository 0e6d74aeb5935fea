import TextSafety
import XCTest

final class SwiftLiteralTests: XCTestCase {
    func testQuotedLiteralNeitherEndsEarlyNorInterpolates() {
        XCTAssertEqual(SwiftLiteral.quoted("plain text"), "\"plain text\"")
        XCTAssertEqual(SwiftLiteral.quoted(#"a "b" \(c)"#), #""a \"b\" \\(c)""#)
        XCTAssertEqual(SwiftLiteral.quoted("line\nbreak\ttab\r\0"), #""line\nbreak\ttab\r\0""#)
    }

    func testHiddenCharactersAreEscapesAndTextBeyondASCIIStays() {
        XCTAssertEqual(SwiftLiteral.quoted("\u{1B}[31m"), #""\u{1B}[31m""#)
        XCTAssertEqual(SwiftLiteral.quoted("abc\u{202E}def"), #""abc\u{202E}def""#)
        XCTAssertEqual(SwiftLiteral.quoted("a\u{2028}b\u{00A0}c\u{200B}"), #""a\u{2028}b\u{A0}c\u{200B}""#)
        XCTAssertEqual(SwiftLiteral.quoted("café 日本 ü"), "\"café 日本 ü\"")
    }

    func testCommentTextIsOneLine() {
        XCTAssertEqual(SwiftLiteral.commentText("first\nsecond\r\nthird  "), "first second  third")
        XCTAssertEqual(SwiftLiteral.commentText("*/ \u{1B}[2J \u{202E}"), #"*/ \u{1B}[2J \u{202E}"#)
    }
}
