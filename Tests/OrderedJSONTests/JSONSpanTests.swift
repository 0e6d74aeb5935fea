import Foundation
import OrderedJSON
import XCTest

/// `JSONSpan` reads text in place where `JSONValue` builds a tree: whatever it answers must be
/// what the tree answers. The tree parser is the oracle, over hand-picked hostile texts and
/// generated ones written with noise (whitespace, escapes where none are needed).
final class JSONSpanTests: XCTestCase {
    /// Texts whose strings and keys hold what writers treat specially.
    let hostileTexts = [
        "[\"" + String(repeating: "\u{7F}", count: 100) + String(repeating: "é\u{85}", count: 50) + "\"]",
        #"{"a":"x\u0041\/y\n\u001b\u007f\u0085 \ud83d\ude00 \"q\" \\ \b\f\r\t","b":[1,-0,1E2,2.50,12345678901234567890,-9223372036854775808]}"#,
        "{\"dup\":1,\"dup\":{\"x\":[]},\"K\":1,\"\\u212A\":2,\"e\\u0301\":3,\"\u{E9}\":4}",
        "{\"raw\":\"del\u{7F} c1\u{85}\u{9F} bidi\u{202E} nul\\u0000\"}",
        " \n\t[ 1 , [ ] , { } , \"\" , null , true , false , -0.5e-3 ]\r\n",
        #""just a string""#, "42", "null", #"{"":{"":[""]}}"#,
        String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    ]

    func testCompactBytesAreTheParsedValueSerialized() throws {
        var generator = SeededGenerator(seed: 26)
        var texts = hostileTexts
        for _ in 0..<300 {
            texts.append(Self.noisyText(of: Self.randomValue(depth: 4, using: &generator), using: &generator))
        }
        for text in texts {
            let data = Data(text.utf8)
            let span = try JSONSpan(validating: data)
            let value = try JSONValue(parsing: data)
            XCTAssertEqual(span.compactBytes(), value.serializedBytes(), text)
            XCTAssertEqual(span.value, value, text)
            XCTAssertEqual(
                span.compactBytes(escapingC1: true), Array(Self.escapingC1(value.serializedString()).utf8), text)
            for escapingC1 in [false, true] {
                var pieces: [[UInt8]] = []
                span.writeCompact(escapingC1: escapingC1, chunkSize: 7) { pieces.append($0) }
                XCTAssertEqual(Array(pieces.joined()), span.compactBytes(escapingC1: escapingC1), text)
                XCTAssertTrue(pieces.dropLast().allSatisfy { $0.count >= 7 }, "pieces of at least the chunk size")
                XCTAssertTrue(
                    pieces.allSatisfy { $0.count <= 7 + 16 + 6 },
                    "no piece much over the chunk size: \(pieces.map(\.count))")
            }
        }
    }

    func testLookupsAgreeWithTheTree() throws {
        var generator = SeededGenerator(seed: 9)
        var texts = hostileTexts
        for _ in 0..<200 {
            texts.append(Self.noisyText(of: Self.randomValue(depth: 3, using: &generator), using: &generator))
        }
        let keyPaths = [
            "", "a", "b", "b.1", "b.5", "b.-1", "b.+1", "dup", "dup.x", "K", "\u{212A}", "e\u{301}", "\u{E9}", "raw",
            "0", "1", "0.0", "2.k", "k", "k.k", "k.0", ".", "a..b"
        ]
        for text in texts {
            let span = try JSONSpan(validating: Data(text.utf8))
            let value = try JSONValue(parsing: text)
            for keyPath in keyPaths {
                XCTAssertEqual(
                    span.value(atKeyPath: keyPath)?.value, value.value(atKeyPath: keyPath), "\(text) at \(keyPath)")
            }
            XCTAssertEqual(span.elements?.map(\.value), value.arrayValue, text)
            XCTAssertEqual(span.stringValue, value.stringValue, text)
            for index in -1..<4 { XCTAssertEqual(span.element(at: index)?.value, value[index], text) }
        }
    }

    func testValidationThrowsWhatParsingThrows() throws {
        var generator = SeededGenerator(seed: 3)
        var texts = [
            "", " ", "{\"a\":1,}", "{\"a\":1} x", "[\"\u{FF}\"]", "[\"\\ud800\"]", "[1, 2", "01", "-", "1.", "\"\\x\"",
            "\"\\u12G4\"", "[\"a\u{01}\"]", "tru", "nul", "{1:2}",
            String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        ]
        // Valid texts with one byte changed: most become invalid somewhere inside.
        for _ in 0..<300 {
            var bytes = Array(Self.noisyText(of: Self.randomValue(depth: 3, using: &generator), using: &generator).utf8)
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            bytes[index] =
                [
                    UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: ","), UInt8(ascii: "}"), 0xFF, 0xC2, 0x01,
                    UInt8(ascii: "u")
                ]
                .randomElement(using: &generator) ?? 0
            texts.append(String(decoding: bytes, as: UTF8.self))
            XCTAssertEqual(
                Self.outcome { try JSONValue.validate(bytes) }, Self.outcome { _ = try JSONValue(parsing: bytes) })
        }
        for text in texts {
            XCTAssertEqual(
                Self.outcome { try JSONValue.validate(Data(text.utf8)) },
                Self.outcome { _ = try JSONValue(parsing: text) }, text)
        }
    }

    func testUTF8ValidationAgreesWithTheStandardLibrary() {
        var generator = SeededGenerator(seed: 8)
        var samples: [[UInt8]] = [
            [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0xA0, 0x80], [0xED, 0x9F, 0xBF],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80], [0xC2], [0xE2, 0x82], [0x80], [0xFF], Array("plain ascii, longer than eight".utf8)
        ]
        for _ in 0..<5000 {
            let count = Int.random(in: 0..<24, using: &generator)
            // Mostly bytes of multi-byte forms, so that valid sequences come up too.
            samples.append(
                (0..<count).map { _ in
                    Bool.random(using: &generator)
                        ? UInt8.random(in: 0x80...0xBF, using: &generator)
                        : UInt8.random(in: 0...0xFF, using: &generator)
                })
        }
        for sample in samples {
            let expected = String(validating: sample, as: UTF8.self) != nil
            XCTAssertEqual(sample.withUnsafeBufferPointer(UTF8Validation.isValid), expected, "\(sample)")
        }
    }

    /// A span keeps the text and a range: items of a page cost a few words each, not a tree.
    func testASpanRetainsNoCopyOfTheText() throws {
        let text = Data(
            ("[" + Array(repeating: #"{"name":"an item","tags":["a","b"],"n":1}"#, count: 1000).joined(separator: ",")
                + "]").utf8)
        let items = try XCTUnwrap(JSONSpan(validating: text).elements)
        XCTAssertEqual(items.count, 1000)
        // A `Data` (sharing the text's storage) and a range: a few words an item.
        XCTAssertLessThanOrEqual(MemoryLayout<JSONSpan>.stride, 32)
        // Every item shares the one text.
        XCTAssertTrue(
            items.allSatisfy { $0.text.withUnsafeBytes { $0.baseAddress } == text.withUnsafeBytes { $0.baseAddress } })
    }

    // MARK: - Shared by the tests above

    static func outcome(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "valid"
        } catch {
            return "\(error)"
        }
    }

    /// The C1 controls written `\u0080`…, as `call --all` writes items.
    static func escapingC1(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            if (0x80...0x9F).contains(scalar.value) {
                output += "\\u00" + String(scalar.value, radix: 16)
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    static func randomString(using generator: inout SeededGenerator) -> String {
        let pool: [Unicode.Scalar] = [
            "a", "K", "\u{212A}", "é", "e", "\u{301}", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1B}", "\u{7F}",
            "\u{85}", "\u{9F}", "\u{A0}", "\u{202E}", "😀", "0", "."
        ]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0..<6, using: &generator) {
            scalars.append(pool.randomElement(using: &generator) ?? "a")
        }
        return String(scalars)
    }

    static func randomValue(depth: Int, using generator: inout SeededGenerator) -> JSONValue {
        let numbers = ["0", "-0", "7", "-12", "1E2", "2.50", "12345678901234567890", "-9223372036854775808", "1e-400"]
        switch Int.random(in: 0..<(depth > 0 ? 8 : 6), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2, 3: return (try? JSONValue(parsing: numbers.randomElement(using: &generator) ?? "0")) ?? .null
        case 4, 5: return .string(randomString(using: &generator))
        case 6:
            return .array(
                (0..<Int.random(in: 0..<4, using: &generator)).map { _ in
                    randomValue(depth: depth - 1, using: &generator)
                })
        default:
            let keys = ["k", "0", "dup", "K", "\u{212A}", "e\u{301}", "é"]
            return .object(
                (0..<Int.random(in: 0..<4, using: &generator)).map { _ in
                    (keys.randomElement(using: &generator) ?? "k", randomValue(depth: depth - 1, using: &generator))
                })
        }
    }

    /// `value` as JSON text with whitespace between tokens and characters escaped that need not be.
    static func noisyText(of value: JSONValue, using generator: inout SeededGenerator) -> String {
        let space = [" ", "", "\n", "\t ", "\r\n"].randomElement(using: &generator) ?? ""
        switch value {
        case .string(let text): return space + noisyQuoted(text, using: &generator) + space
        case .array(let elements):
            return space + "[" + elements.map { noisyText(of: $0, using: &generator) }.joined(separator: ",") + space
                + "]"
        case .object(let members):
            return space + "{"
                + members.map {
                    noisyQuoted($0.0, using: &generator) + space + ":" + noisyText(of: $0.1, using: &generator)
                }
                .joined(separator: ",") + space + "}"
        default: return space + value.serializedString() + space
        }
    }

    static func noisyQuoted(_ text: String, using generator: inout SeededGenerator) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
            if mustEscape || Int.random(in: 0..<3, using: &generator) == 0 {
                if scalar.value > 0xFFFF {
                    for unit in String(scalar).utf16 { output += String(format: "\\u%04X", unit) }
                } else if scalar == "/" {
                    output += "\\/"
                } else {
                    output += String(format: Bool.random(using: &generator) ? "\\u%04x" : "\\u%04X", scalar.value)
                }
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}

/// A small deterministic generator (SplitMix64), so a failure can be run again.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49EB_1133_11EB
        return value ^ (value >> 31)
    }
}
