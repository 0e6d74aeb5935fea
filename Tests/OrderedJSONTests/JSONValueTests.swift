import Foundation
import OrderedJSON
import XCTest

final class JSONValueTests: XCTestCase {
    func testParsingKeepsObjectKeyOrderAndTypes() throws {
        let value = try JSONValue(parsing: #" {"b": 1, "a": [true, false, null], "c": {"z": "x", "y": 1.5, "w": -0}} "#)
        let expected: JSONValue = [
            "b": 1, "a": [true, false, nil], "c": ["z": "x", "y": 1.5, "w": .number(try XCTUnwrap(JSONNumber("-0")))]
        ]
        XCTAssertEqual(value, expected)
        XCTAssertEqual(value.objectValue?.map(\.0), ["b", "a", "c"])
    }

    func testParsingStringEscapes() throws {
        let value = try JSONValue(parsing: Data(#""\u00e9\n\"\\\/\t\ud83d\ude00 plain""#.utf8))
        XCTAssertEqual(value, .string("é\n\"\\/\t😀 plain"))
    }

    func testParsingNumbers() throws {
        // Plain integers that fit are plain `Int`s; every other number keeps its text.
        XCTAssertEqual(try JSONValue(parsing: "-12"), .int(-12))
        XCTAssertEqual(try JSONValue(parsing: "9223372036854775807"), .int(.max))
        XCTAssertEqual(try JSONValue(parsing: "-9223372036854775808"), .int(.min))
        XCTAssertEqual(try JSONValue(parsing: "0.25"), .double(0.25))
        for text in [
            "1e3", "-1.5E-2", "-0", "9223372036854775808", "-9223372036854775809", "12345678901234567890", "1e400"
        ] {
            XCTAssertEqual(try JSONValue(parsing: text), .number(try XCTUnwrap(JSONNumber(text))), text)
        }
        XCTAssertNotEqual(try JSONValue(parsing: "1E2"), .int(100))
        XCTAssertNotEqual(try JSONValue(parsing: "1.0"), .int(1))
        XCTAssertEqual(JSONValue.number(try XCTUnwrap(JSONNumber("7"))), .int(7))
        XCTAssertEqual(Set<JSONValue>([.number(try XCTUnwrap(JSONNumber("7"))), .int(7)]).count, 1)
    }

    func testNumbersRoundTripAsWritten() throws {
        let literals = [
            "12345678901234567890", "-12345678901234567890123", "-0", "1E2", "1e-7", "0.1", "1.0", "2.50", "1e+400", "0"
        ]
        for literal in literals {
            let value = try JSONValue(parsing: " \(literal) ")
            XCTAssertEqual(value.serializedString(), literal)
            XCTAssertEqual(value.serializedString(options: .prettyPrinted), literal)
            XCTAssertEqual(value.coloredString(), "\u{1B}[36m\(literal)\u{1B}[0m")
        }
        let document = try JSONValue(parsing: "{\"ids\": [" + literals.joined(separator: ", ") + "]}")
        XCTAssertEqual(document.serializedString(), #"{"ids":["# + literals.joined(separator: ",") + "]}")
        XCTAssertEqual(
            document.serializedString(options: .prettyPrinted),
            "{\n  \"ids\": [\n" + literals.map { "    " + $0 }.joined(separator: ",\n") + "\n  ]\n}")
        XCTAssertEqual(document.value(atKeyPath: "ids.0")?.serializedString(), "12345678901234567890")
    }

    func testNumberConversions() throws {
        func parsed(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }
        XCTAssertEqual(try parsed("1E2").intValue, 100)
        XCTAssertEqual(try parsed("1.0").intValue, 1)
        XCTAssertEqual(try parsed("-0").intValue, 0)
        XCTAssertNil(try parsed("1.5").intValue)
        XCTAssertNil(try parsed("12345678901234567890").intValue)
        XCTAssertEqual(try parsed("12345678901234567890").doubleValue, 1.2345678901234567e19)
        XCTAssertEqual(try parsed("1e-7").doubleValue, 1e-7)
        XCTAssertNil(try parsed("1e400").doubleValue)
        XCTAssertEqual(try parsed("-0").numberValue?.text, "-0")
        XCTAssertEqual(JSONValue.int(42).numberValue?.text, "42")
        // Doubles made in Swift take their shortest form; JSON has no NaN.
        XCTAssertEqual(JSONValue.double(1).serializedString(), "1.0")
        XCTAssertEqual(JSONValue.double(1e-7).serializedString(), "1e-07")
        XCTAssertEqual(JSONValue.double(.infinity), .null)
        XCTAssertEqual(try JSONValue(converting: UInt64.max).serializedString(), "18446744073709551615")
    }

    func testNumberLiteralsAndDecimals() {
        for valid in ["0", "-0", "12", "1.50", "1e5", "1E+5", "-1.5e-07"] {
            XCTAssertEqual(JSONNumber(valid)?.text, valid)
        }
        for invalid in ["", "-", "+1", "01", ".5", "5.", "1e", "0x10", "inf", "NaN", "1 ", "１"] {
            XCTAssertNil(JSONNumber(invalid), invalid)
        }
        let decimals = [
            "2.50": "2.50", "+7": "7", "-.5": "-0.5", "007": "7", "000": "0", "5.": "5", "5.e3": "5e3", "1E-3": "1E-3"
        ]
        for (written, spelled) in decimals {
            XCTAssertEqual(JSONNumber(decimal: written)?.text, spelled, written)
        }
        for invalid in ["", "+", ".", "e3", "0x1p3", "0x10", "inf", "nan", "1e", "1.2.3", " 1", "1_000"] {
            XCTAssertNil(JSONNumber(decimal: invalid), invalid)
        }
    }

    func testParsingScalarsAtTopLevel() throws {
        XCTAssertEqual(try JSONValue(parsing: " true "), .bool(true))
        XCTAssertEqual(try JSONValue(parsing: "null"), .null)
        XCTAssertEqual(try JSONValue(parsing: #""text""#), .string("text"))
    }

    func testParseErrorsReportReasonAndLocation() {
        assertParseError("[1, 2,]", .unexpectedCharacter(found: "']'", expected: "a JSON value"), line: 1, column: 7)
        assertParseError(
            "{\n  \"a\": tru\n}", .unexpectedCharacter(found: "byte 0xA", expected: "'true'"), line: 2, column: 11)
        assertParseError(
            "{\"a\" 1}", .unexpectedCharacter(found: "'1'", expected: "':' after an object key"), line: 1, column: 6)
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
        // After ASCII (made without validation) and inside a key: still refused, wherever it is.
        let invalid: [[UInt8]] = [
            [0x22, 0x61, 0x62, 0xC3, 0x22], [0x7B, 0x22, 0x6B, 0xED, 0xA0, 0x80, 0x22, 0x3A, 0x31, 0x7D],
            [0x22, 0x61, 0x80, 0x22]
        ]
        for bytes in invalid {
            XCTAssertThrowsError(try JSONValue(parsing: Data(bytes)), "\(bytes)") { error in
                XCTAssertEqual((error as? JSONParseError)?.reason, .invalidUTF8)
            }
        }
        // ASCII strings and valid UTF-8 come through whole.
        XCTAssertEqual(
            try JSONValue(parsing: Data(#"{"login":"moya","caf\#u{E9}":"\#u{1F600}"}"#.utf8)),
            ["login": "moya", "caf\u{E9}": "\u{1F600}"])
    }

    func testParseErrorDescription() {
        XCTAssertThrowsError(try JSONValue(parsing: "{\n  \"a\": 1,\n}")) { error in
            XCTAssertEqual("\(error)", "line 3, column 1: unexpected '}'; expected a string key")
        }
    }

    func testCompactAndPrettySerialization() {
        let value: JSONValue = ["name": "Moya", "tags": ["a", 1, 2.5, true, nil], "empty": [:], "list": []]
        XCTAssertEqual(value.serializedString(), #"{"name":"Moya","tags":["a",1,2.5,true,null],"empty":{},"list":[]}"#)
        XCTAssertEqual(
            value.serializedString(options: .prettyPrinted),
            """
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
        XCTAssertEqual(
            value.serializedString(options: .sortedKeys),
            #"{"empty":{},"list":[],"name":"Moya","tags":["a",1,2.5,true,null]}"#)
    }

    func testSerializationEscapesAndRoundTrips() throws {
        let value: JSONValue = ["quote\"": "line\nbreak\u{01}\\ é/😀", "nan": .double(.nan)]
        let text = value.serializedString()
        XCTAssertEqual(text, #"{"quote\"":"line\nbreak\u0001\\ é/😀","nan":null}"#)
        XCTAssertEqual(try JSONValue(parsing: text)["quote\""], value["quote\""])
        // Strings with nothing to escape go in whole; the escaping of each byte that needs it,
        // next to plain text, is the byte-by-byte path's.
        for (string, written) in [
            ("plain ascii", #""plain ascii""#), ("é😀 ~ {}", #""é😀 ~ {}""#), ("", #""""#),
            ("a\u{7F}b", #""a\u007fb""#), ("\u{1F}", #""\u001f""#), ("tab\there", #""tab\there""#),
            ("slash\\", #""slash\\""#), ("say \"hi\"", #""say \"hi\"""#)
        ] {
            XCTAssertEqual(JSONValue.string(string).serializedString(), written, string.debugDescription)
        }
    }

    func testCompactWritingOfIntegersAndNesting() throws {
        for number in [0, 7, -7, 10, -10, 1_000_000, Int.max, Int.min, Int.min + 1] {
            XCTAssertEqual(JSONValue.int(number).serializedString(), String(number))
        }
        let nested: JSONValue = ["a": [[], [[:]], ["b": [1, ["c": nil]]]], "": [-1, "x"], "d": [:]]
        XCTAssertEqual(nested.serializedString(), #"{"a":[[],[{}],{"b":[1,{"c":null}]}],"":[-1,"x"],"d":{}}"#)
        XCTAssertEqual(
            nested.serializedString(options: .sortedKeys), #"{"":[-1,"x"],"a":[[],[{}],{"b":[1,{"c":null}]}],"d":{}}"#)
        // Compact text reads back as the pretty text does, for values of every kind and depth.
        var generator = SystemRandomNumberGenerator()
        func random(_ depth: Int) -> JSONValue {
            switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &generator) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &generator))
            case 2: return .int(Int.random(in: Int.min...Int.max, using: &generator))
            case 3:
                return .string(
                    String(
                        (0..<Int.random(in: 0..<6, using: &generator)).map { _ in
                            "a\"\\\u{1}\u{7F}é😀 ".randomElement(using: &generator)!
                        }))
            case 4: return .number(JSONNumber(Double(Int.random(in: -999...999, using: &generator)) / 8)!)
            case 5: return .array((0..<Int.random(in: 0..<4, using: &generator)).map { _ in random(depth + 1) })
            default:
                return .object(
                    (0..<Int.random(in: 0..<4, using: &generator)).map { index in ("k\(index)", random(depth + 1)) })
            }
        }
        // The pretty text (the general writer) less its layout is the compact text, byte for byte,
        // in order and with keys sorted.
        for _ in 0..<300 {
            let value = random(0)
            for options: JSONWritingOptions in [[], [.sortedKeys]] {
                let compact = value.serializedBytes(options: options)
                XCTAssertEqual(
                    compact, Self.withoutLayout(value.serializedBytes(options: options.union(.prettyPrinted))),
                    String(decoding: compact, as: UTF8.self))
                XCTAssertEqual(
                    try JSONValue(parsing: compact),
                    try JSONValue(parsing: value.serializedBytes(options: .prettyPrinted)))
            }
        }
    }

    /// Pretty JSON text without the line breaks, indentation and spaces after colons that
    /// pretty-printing adds outside strings.
    private static func withoutLayout(_ text: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var inString = false
        var escaped = false
        for byte in text {
            if inString {
                result.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
                result.append(byte)
            } else if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\n") {
                result.append(byte)
            }
        }
        return result
    }

    func testColoredOutput() {
        let value: JSONValue = ["a": "x", "b": [1, true, nil]]
        let esc = "\u{1B}["
        XCTAssertEqual(
            value.coloredString(),
            """
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
            "flag": true, "count": 3, "ratio": 0.5, "name": "n", "list": [1, 2],
            "nested": ["b": 1, "a": "x"] as [String: any Sendable],
            "point": Point(x: 4), "missing": missing as any Sendable, "json": JSONValue.object([("z", 1), ("y", 2)]),
            "small": UInt8(7)
        ]
        let value = try JSONValue(parameters: parameters)
        XCTAssertEqual(
            value.serializedString(),
            #"{"count":3,"flag":true,"json":{"z":1,"y":2},"list":[1,2],"missing":null,"name":"n","nested":{"a":"x","b":1},"point":{"x":4},"ratio":0.5,"small":7}"#
        )
    }

    func testConversionErrorsNameTheKeyPath() {
        final class Opaque: @unchecked Sendable {}
        XCTAssertThrowsError(
            try JSONValue(parameters: ["outer": ["list": [1, Opaque()] as [any Sendable]] as [String: any Sendable]])
        ) { error in
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

    private func assertParseError(
        _ text: String, _ reason: JSONParseError.Reason, line: Int, column: Int,
        file: StaticString = #filePath, testLine: UInt = #line
    ) {
        XCTAssertThrowsError(try JSONValue(parsing: text), file: file, line: testLine) { error in
            guard let error = error as? JSONParseError else {
                return XCTFail("not a JSONParseError: \(error)", file: file, line: testLine)
            }
            XCTAssertEqual(error.reason, reason, file: file, line: testLine)
            XCTAssertEqual(error.line, line, "line", file: file, line: testLine)
            XCTAssertEqual(error.column, column, "column", file: file, line: testLine)
        }
    }
}
