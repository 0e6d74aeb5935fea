import XCTest

@testable import TargetCheck

/// `isJSONMediaType` reads ASCII Content-Types as bytes (issue 16); its answers must be those of
/// the general rule: the first non-empty `;` piece, blanks trimmed, lowercased, is
/// `application/json`, `text/json` or ends in `+json`.
final class MediaTypeTests: XCTestCase {
    /// The rule as it was written before the byte path: the reference.
    private func reference(_ contentType: String) -> Bool {
        let first = contentType.split(separator: ";").first ?? ""
        let mediaType = first.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
            .map(String.init).joined().lowercased()
        return mediaType == "application/json" || mediaType.hasSuffix("+json") || mediaType == "text/json"
    }

    func testAnswersAsTheGeneralRule() {
        let cases = [
            "application/json", "Application/JSON", "application/json; charset=utf-8", "  application/json\t;x",
            "application/problem+json", "APPLICATION/VND.API+JSON", "text/json", "TEXT/JSON ", "text/plain", "",
            ";", ";;", ";application/json", ";;application/json", " ;application/json", "\t", "+json", "json",
            "application/jsonx", "xapplication/json", "application/json;", "text/html; +json", "+JSON;", "a+json ; b",
            "application/json\u{0}", "appl\u{C9}cation/json", "application/j\u{212A}son", "\u{212A}+json",
            "application/\u{1F600}+json", "application /json", "application/ json"
        ]
        for contentType in cases {
            XCTAssertEqual(
                isJSONMediaType(contentType), reference(contentType), "Content-Type \(contentType.debugDescription)")
        }
        XCTAssertTrue(isJSONMediaType("application/json; charset=utf-8"))
        XCTAssertTrue(isJSONMediaType("application/problem+json"))
        XCTAssertFalse(isJSONMediaType(";"))
        XCTAssertFalse(isJSONMediaType("text/plain"))
    }
}
