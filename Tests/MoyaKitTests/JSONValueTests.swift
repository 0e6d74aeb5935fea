import Foundation
import MoyaKit
import XCTest

final class JSONValueTests: XCTestCase {
    func testParsingKeepsObjectKeyOrderAndTypes() throws {
        let value = try JSONValue(parsing: #" {"b": 1, "a": [true, false, null], "c": {"z": "x", "y": 1.5, "w": -0}} "#)
        let expected: JSONValue = ["b": 1, "a": [true, false, nil], "c": ["z": "x", "y": 1.5, "w": 0]]
        XCTAssertEqual(value, expected)
        XCTAssertEqual(value.objectValue?.map(\.0), ["b", "a", "c"])
    }

    func testParsingStringEscapes() throws {
        let value = try JSONValue(parsing: Data(#""\u00e9\n\"\\\/\t\ud83d\ude00 plain""#.utf8))
        XCTAssertEqual(value, .string("é\n\"\\/\t😀 plain"))
    }

    func testParsingNumbers() throws {
        XCTAssertEqual(try JSONValue(parsing: "-12"), .int(-12))
        XCTAssertEqual(try JSONValue(parsing: "1e3"), .double(1000))
        XCTAssertEqual(try JSONValue(parsing: "0.25"), .double(0.25))
        XCTAssertEqual(try JSONValue(parsing: "-1.5E-2"), .double(-0.015))
        // Too large for Int: kept as a Double, as JavaScript does.
        XCTAssertEqual(try JSONValue(parsing: "12345678901234567890"), .double(1.2345678901234567e19))
    }

    func testParsingScalarsAtTopLevel() throws {
        XCTAssertEqual(try JSONValue(parsing: " true "), .bool(true))
        XCTAssertEqual(try JSONValue(parsing: "null"), .null)
        XCTAssertEqual(try JSONValue(parsing: #""text""#), .string("text"))
    }

    func testParseErrorsReportReasonAndLocation() {
        assertParseError("[1, 2,]", .unexpectedCharacter(found: "']'", expected: "a JSON value"), line: 1, column: 7)
        assertParseError("{\n  \"a\": tru\n}", .unexpectedCharacter(found: "byte 0xA", expected: "'true'"), line: 2, column: 11)
        assertParseError("{\"a\" 1}", .unexpectedCharacter(found: "'1'", expected: "':' after an object key"), line: 1, column: 6)
        assertParseError("[01]", .invalidNumber("01"), line: 1, column: 2)
        assertParseError("-", .invalidNumber("-"), line: 1, column: 1)
        assertParseError("1.", .invalidNumber("1."), line: 1, column: 1)
        assertParseError("\"abc", .unexpectedEndOfInput, line: 1, column: 5)
        assertParseError("\"a\tb\"", .unescapedControlCharacter(9), line: 1, column: 3)
        assertParseError(#""\x""#, .invalidEscape("x"), line: 1, column: 2)
        assertParseError(#""\ud800x""#, .invalidUnicodeEscape(#"\ud800"#), line: 1, column: 2)
        assertParseError("1 2", .trailingCharacters, line: 1, column: 3)
        assertParseError("  ", .emptyInput, line: 1, column: 3)
        assertParseError("[\"é\", x]", .unexpectedCharacter(found: "'x'", expected: "a JSON value"), line: 1, column: 7)
        assertParseError(String(repeating: "[", count: 600), .tooDeeplyNested(limit: 512), line: 1, column: 513)
    }

    func testParseErrorInvalidUTF8() {
        XCTAssertThrowsError(try JSONValue(parsing: Data([0x22, 0xFF, 0x22]))) { error in
            XCTAssertEqual((error as? JSONParseError)?.reason, .invalidUTF8)
        }
    }

    func testParseErrorDescription() {
        XCTAssertThrowsError(try JSONValue(parsing: "{\n  \"a\": 1,\n}")) { error in
            XCTAssertEqual("\(error)", "line 3, column 1: unexpected '}'; expected a string key")
        }
    }

    func testCompactAndPrettySerialization() {
        let value: JSONValue = ["name": "Moya", "tags": ["a", 1, 2.5, true, nil], "empty": [:], "list": []]
        XCTAssertEqual(value.serializedString(), #"{"name":"Moya","tags":["a",1,2.5,true,null],"empty":{},"list":[]}"#)
        XCTAssertEqual(value.serializedString(options: .prettyPrinted), """
            {
              "name": "Moya",
              "tags": [
                "a",
                1,
                2.5,
                true,
                null
              ],
              "empty": {},
              "list": []
            }
            """)
        XCTAssertEqual(value.serializedString(options: .sortedKeys), #"{"empty":{},"list":[],"name":"Moya","tags":["a",1,2.5,true,null]}"#)
    }

    func testSerializationEscapesAndRoundTrips() throws {
        let value: JSONValue = ["quote\"": "line\nbreak\u{01}\\ é/😀", "nan": .double(.nan)]
        let text = value.serializedString()
        XCTAssertEqual(text, #"{"quote\"":"line\nbreak\u0001\\ é/😀","nan":null}"#)
        XCTAssertEqual(try JSONValue(parsing: text)["quote\""], value["quote\""])
    }

    func testColoredOutput() {
        let value: JSONValue = ["a": "x", "b": [1, true, nil]]
        let esc = "\u{1B}["
        XCTAssertEqual(value.coloredString(), """
            {
              \(esc)1;34m"a"\(esc)0m: \(esc)32m"x"\(esc)0m,
              \(esc)1;34m"b"\(esc)0m: [
                \(esc)36m1\(esc)0m,
                \(esc)35mtrue\(esc)0m,
                \(esc)35mnull\(esc)0m
              ]
            }
            """)
    }

    func testConversionFromSwiftValues() throws {
        struct Point: Encodable { let x: Int }
        let missing: String? = nil
        let parameters: [String: any Sendable] = [
            "flag": true, "count": 3, "ratio": 0.5, "name": "n", "list": [1, 2], "nested": ["b": 1, "a": "x"] as [String: any Sendable],
            "point": Point(x: 4), "missing": missing as any Sendable, "json": JSONValue.object([("z", 1), ("y", 2)]),
            "small": UInt8(7),
        ]
        let value = try JSONValue(parameters: parameters)
        XCTAssertEqual(value.serializedString(),
                       #"{"count":3,"flag":true,"json":{"z":1,"y":2},"list":[1,2],"missing":null,"name":"n","nested":{"a":"x","b":1},"point":{"x":4},"ratio":0.5,"small":7}"#)
    }

    func testConversionErrorsNameTheKeyPath() {
        final class Opaque: @unchecked Sendable {}
        XCTAssertThrowsError(try JSONValue(parameters: ["outer": ["list": [1, Opaque()] as [any Sendable]] as [String: any Sendable]])) { error in
            XCTAssertEqual((error as? JSONConversionError)?.keyPath, "outer.list.1")
            XCTAssertTrue("\(error)".contains("the value at 'outer.list.1' has type Opaque"), "\(error)")
        }
        XCTAssertThrowsError(try JSONValue(parameters: ["x": Double.infinity])) { error in
            XCTAssertEqual((error as? JSONConversionError)?.reason, .nonFiniteNumber)
        }
    }

    func testKeyPathLookup() {
        let value: JSONValue = ["a": ["b": [["c": "deep"], 2]]]
        XCTAssertEqual(value.value(atKeyPath: "a.b.0.c"), "deep")
        XCTAssertEqual(value.value(atKeyPath: "a.b.1"), 2)
        XCTAssertNil(value.value(atKeyPath: "a.b.2"))
        XCTAssertNil(value.value(atKeyPath: "a.x"))
        XCTAssertEqual(value.value(atKeyPath: ""), value)
    }

    private func assertParseError(_ text: String, _ reason: JSONParseError.Reason, line: Int, column: Int,
                                  file: StaticString = #filePath, testLine: UInt = #line) {
        XCTAssertThrowsError(try JSONValue(parsing: text), file: file, line: testLine) { error in
            guard let error = error as? JSONParseError else { return XCTFail("not a JSONParseError: \(error)", file: file, line: testLine) }
            XCTAssertEqual(error.reason, reason, file: file, line: testLine)
            XCTAssertEqual(error.line, line, "line", file: file, line: testLine)
            XCTAssertEqual(error.column, column, "column", file: file, line: testLine)
        }
    }
}
