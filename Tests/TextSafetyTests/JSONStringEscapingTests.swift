import TextSafety
import XCTest

/// Issue 27, item 5: the writer's JSON string rule and the other encoders' spellings.
final class JSONStringEscapingTests: XCTestCase {
    private func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONStringEscaping.appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func escaped(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x41]
        bytes.withUnsafeBufferPointer { JSONStringEscaping.appendEscaped($0, to: &output) }
        return output
    }

    func testQuotedEscapesQuotesBackslashAndEveryC0ControlAndDEL() {
        XCTAssertEqual(quoted(""), #""""#)
        XCTAssertEqual(quoted(#"say "hi" \ /"#), #""say \"hi\" \\ /""#)
        XCTAssertEqual(quoted("\u{8}\u{C}\n\r\t"), #""\b\f\n\r\t""#)
        XCTAssertEqual(quoted("\u{0}\u{1}\u{1B}\u{1F}\u{7F}"), #""\u0000\u0001\u001b\u001f\u007f""#)
        XCTAssertEqual(
            quoted("\u{85}\u{9B}\u{202E}\u{2028}é😀"), "\"\u{85}\u{9B}\u{202E}\u{2028}é😀\"",
            "C1, bidi and non-ASCII stay")
    }

    func testEscapedAppendsAndPassesBytesThatAreNotUTF8Through() {
        XCTAssertEqual(escaped([0xFF, 0xC3, 0x22, 0x80]), [0x41, 0xFF, 0xC3, 0x5C, 0x22, 0x80])
        XCTAssertEqual(escaped([]), [0x41])
        XCTAssertEqual(escaped(Array("plain".utf8)), Array("Aplain".utf8))
    }

    func testLongTextIsEscapedWhole() {
        let piece = "abc\"\n\u{1}"
        let text = String(repeating: piece, count: 100_000)
        XCTAssertEqual(quoted(text), "\"" + String(repeating: #"abc\"\n\u0001"#, count: 100_000) + "\"")
        let plain = String(repeating: "x", count: 1_000_000)
        XCTAssertEqual(quoted(plain), "\"" + plain + "\"")
    }

    func testScalarsAreEscapedByTheWritersRuleWithC1OnRequest() {
        func written(_ text: String, escapingC1: Bool) -> String {
            var bytes: [UInt8] = []
            for scalar in text.unicodeScalars {
                JSONStringEscaping.appendEscaped(scalar, escapingC1: escapingC1, to: &bytes)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        let hostile = "\"\\/\u{8}\u{C}\n\r\t\u{0}\u{1B}\u{7F}\u{80}\u{9F}\u{A0}\u{202E}\u{FEFF}😀"
        XCTAssertEqual(
            written(hostile, escapingC1: false),
            #"\"\\/\b\f\n\r\t\u0000\u001b\u007f"# + "\u{80}\u{9F}\u{A0}\u{202E}\u{FEFF}😀")
        XCTAssertEqual(
            written(hostile, escapingC1: true),
            #"\"\\/\b\f\n\r\t\u0000\u001b\u007f\u0080\u009f"# + "\u{A0}\u{202E}\u{FEFF}😀")
        XCTAssertEqual(
            written(hostile, escapingC1: false), String(quoted(hostile).dropFirst().dropLast()), "the writer's rule")
        var hex: [UInt8] = []
        JSONStringEscaping.appendHexEscape(0xAB, to: &hex)
        XCTAssertEqual(String(decoding: hex, as: UTF8.self), #"\u00ab"#)
    }

    func testOtherEncodersSpellings() {
        let scalars = Array("a/<b>&\"\\\u{1B}\u{7F}é😀\n".unicodeScalars)
        XCTAssertEqual(
            JSONStringEscaping.escaped(scalars, escapesSlash: false, nonASCII: .raw, escapesHTML: false),
            "a/<b>&\\\"\\\\\\u001b\u{7F}é😀\\n", "DEL stays, unlike the writer")
        XCTAssertEqual(
            JSONStringEscaping.escaped(scalars, escapesSlash: true, nonASCII: .lowercaseHex, escapesHTML: true),
            #"a\/\u003cb\u003e\u0026\"\\\u001b"# + "\u{7F}" + #"\u00e9\ud83d\ude00\n"#)
        XCTAssertEqual(
            JSONStringEscaping.escaped(scalars, escapesSlash: false, nonASCII: .uppercaseHex, escapesHTML: false),
            #"a/<b>&\"\\\u001B"# + "\u{7F}" + #"\u00E9\uD83D\uDE00\n"#)
        XCTAssertEqual(
            JSONStringEscaping.escaped([], escapesSlash: true, nonASCII: .uppercaseHex, escapesHTML: true), "")
    }

    func testOtherEncodersSpellingsAgreeWithTheWriterWithoutDEL() {
        let text = "x\"\\\u{0}\u{8}\u{C}\n\r\t\u{1F} é/<"
        XCTAssertEqual(
            "\""
                + JSONStringEscaping.escaped(
                    Array(text.unicodeScalars), escapesSlash: false, nonASCII: .raw, escapesHTML: false) + "\"",
            quoted(text))
    }
}
