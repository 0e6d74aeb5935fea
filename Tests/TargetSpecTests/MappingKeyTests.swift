import XCTest

@testable import TargetModel
@testable import TargetSpec

/// Keys are compared with a length check first (`isSameKey`); the answer must stay what it is:
/// equal UTF-8 lengths and `==` (so a Kelvin sign is not the key `K`).
final class MappingKeyTests: XCTestCase {
    func testSameKeyAgreesWithEquality() {
        let words = [
            "path", "paths", "Path", "method", "headers", "description", "values", "task", "", "K", "\u{212A}", "Å",
            "A\u{30A}",
            "\u{212B}", "x\u{212B}", "xA\u{30A}", "caf\u{E9}", "cafe\u{301}", ";", "\u{37E}",
            "a much longer key than fifteen bytes",
            "a much longer key than fifteen byteS", "\u{1F600}", "é", "e\u{301}"
        ]
        func reference(_ left: String, _ right: String) -> Bool { left.utf8.count == right.utf8.count && left == right }
        for left in words {
            for right in words {
                XCTAssertEqual(
                    left.isSameKey(as: right), reference(left, right),
                    "\(left.debugDescription) vs \(right.debugDescription)")
                XCTAssertEqual(left.isKey(in: [right, "zzz"]), reference(left, right) || left == "zzz")
            }
        }
        // Same length, canonically equivalent, different bytes: `==` decides, as before.
        XCTAssertTrue("xA\u{30A}".isSameKey(as: "x\u{212B}"))
        // Bridged and shared storage take the same path.
        let built = String(repeating: "pa", count: 1) + "th"
        XCTAssertTrue(built.isSameKey(as: "path"))
        XCTAssertTrue(Substring("xpathx").dropFirst().dropLast().description.isSameKey(as: "path"))
    }
}

/// Issue 16: the target builder compares header names without lowercased copies; the answer must
/// be `a.lowercased() == b.lowercased()`'s.
final class HeaderNameComparisonTests: XCTestCase {
    func testSameHeaderNameAgreesWithLowercasedEquality() {
        let names = [
            "Content-Type", "content-type", "CONTENT-TYPE", "Content-Typf", "Content-Typ", "X-Api-Key", "x-api-key",
            "@", "`", "[", "{",
            "Accept", "accept", "ACCEPT ", "", "K", "k", "\u{212A}", "Stra\u{DF}e", "STRASSE", "strasse",
            "\u{C9}T\u{C9}", "\u{E9}t\u{E9}",
            "A_B", "a_b", "a^b", "A~B", "a~b"
        ]
        for a in names {
            for b in names {
                XCTAssertEqual(
                    TargetBuilder.sameHeaderName(a, b), a.lowercased() == b.lowercased(),
                    "\(a.debugDescription) vs \(b.debugDescription)")
            }
        }
    }
}
