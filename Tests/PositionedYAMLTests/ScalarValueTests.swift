import PositionedYAML
import XCTest

/// The core-schema resolution the format promises: JSON-like, YAML 1.2, decimal only.
final class ScalarValueTests: XCTestCase {
    private func resolve(_ text: String, plain: Bool = true, tag: String? = nil) -> ScalarValue {
        scalar(text, 1, 1, plain: plain, tag: tag).resolved
    }

    func testPlainNulls() {
        for text in ["", "~", "null", "Null", "NULL"] {
            XCTAssertEqual(resolve(text), .null, text)
        }
        XCTAssertEqual(resolve("nULL"), .string("nULL"))
    }

    func testPlainBoolsAreOnlyTrueAndFalse() {
        for text in ["true", "True", "TRUE"] { XCTAssertEqual(resolve(text), .bool(true), text) }
        for text in ["false", "False", "FALSE"] { XCTAssertEqual(resolve(text), .bool(false), text) }
        for text in ["yes", "no", "on", "off", "y", "n", "tRUE"] { XCTAssertEqual(resolve(text), .string(text), text) }
    }

    func testPlainIntegersAreDecimalWithAnOptionalSign() {
        XCTAssertEqual(resolve("42"), .int(42))
        XCTAssertEqual(resolve("-12"), .int(-12))
        XCTAssertEqual(resolve("+7"), .int(7))
        XCTAssertEqual(resolve("007"), .int(7))
        XCTAssertEqual(resolve("9223372036854775807"), .int(.max))
        for text in ["0x1F", "0o17", "1_000", "12abc", "-", "+", "9223372036854775808"] {
            XCTAssertEqual(resolve(text), .string(text), text)
        }
    }

    func testPlainDecimalsAreDoubles() {
        XCTAssertEqual(resolve("1.5"), .double(1.5))
        XCTAssertEqual(resolve("-0.25"), .double(-0.25))
        XCTAssertEqual(resolve("1e3"), .double(1000))
        XCTAssertEqual(resolve("2.5E-1"), .double(0.25))
        XCTAssertEqual(resolve(".5"), .double(0.5))
        XCTAssertEqual(resolve("1."), .double(1))
        for text in [".inf", "-.inf", ".nan", ".", "1e", "e3", "1.2.3", "1e999", "1.5x", "1,5"] {
            XCTAssertEqual(resolve(text), .string(text), text)
        }
    }

    func testQuotedScalarsAreAlwaysStrings() {
        for text in ["true", "42", "1.5", "null", ""] {
            XCTAssertEqual(resolve(text, plain: false), .string(text), text)
        }
    }

    func testStrTagAndUnknownTagsMakeStrings() {
        XCTAssertEqual(resolve("42", tag: "tag:yaml.org,2002:str"), .string("42"))
        XCTAssertEqual(resolve("true", tag: "!"), .string("true"))
        XCTAssertEqual(resolve("1", tag: "!custom"), .string("1"))
    }

    func testCoreTagsForceTheirTypeWhenTheTextFits() {
        XCTAssertEqual(resolve("3", plain: false, tag: "tag:yaml.org,2002:int"), .int(3))
        XCTAssertEqual(resolve("3", tag: "tag:yaml.org,2002:float"), .double(3))
        XCTAssertEqual(resolve("true", plain: false, tag: "tag:yaml.org,2002:bool"), .bool(true))
        XCTAssertEqual(resolve("~", tag: "tag:yaml.org,2002:null"), .null)
        XCTAssertEqual(resolve("abc", tag: "tag:yaml.org,2002:int"), .string("abc"))
    }

    func testResolutionOfLoadedScalars() throws {
        let node = try XCTUnwrap(loadNode("a: [1, '1', !!str 1, 1.0, true, ~, x]\n"))
        guard case .mapping(let pairs, _) = node, case .sequence(let items, _) = pairs.first?.value else {
            return XCTFail("unexpected \(node)")
        }
        let values = items.compactMap { item -> ScalarValue? in
            guard case .scalar(let scalar) = item else { return nil }
            return scalar.resolved
        }
        XCTAssertEqual(values, [.int(1), .string("1"), .string("1"), .double(1), .bool(true), .null, .string("x")])
    }
}
