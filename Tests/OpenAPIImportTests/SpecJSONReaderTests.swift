import PositionedYAML
import TargetSpec
import XCTest

@testable import OpenAPIImport

/// JSON specs are read as JSON (issue 26, item 9), into the same tree the YAML loader gives,
/// within the importer's limits.
final class SpecJSONReaderTests: XCTestCase {
    func read(_ text: String, limits: YAMLLimits = OpenAPIImporter.limits) throws -> Node {
        do throws(SpecJSONReader.Failure) {
            return try SpecJSONReader.read(Array(text.utf8), file: "spec.json", limits: limits)
        } catch {
            throw error
        }
    }

    func failure(_ text: String, limits: YAMLLimits = OpenAPIImporter.limits) -> SpecJSONReader.Failure? {
        do throws(SpecJSONReader.Failure) {
            _ = try SpecJSONReader.read(Array(text.utf8), file: "spec.json", limits: limits)
            return nil
        } catch {
            return error
        }
    }

    func testStringsAreQuotedScalarsAndNumbersPlainOnesWithTheirMarks() throws {
        let node = try read("{\n  \"a\": [1e400, \"1\", true, null],\n  \"ü\": {\"k\": -0}}")
        guard case .mapping(let entries, let mark) = node else { return XCTFail("a map") }
        XCTAssertEqual(mark, Mark(line: 1, column: 1))
        XCTAssertEqual(entries.map(\.key.text), ["a", "ü"])
        XCTAssertEqual(entries[1].key.mark, Mark(line: 3, column: 3))
        guard case .sequence(let items, _) = entries[0].value else { return XCTFail("a list") }
        let scalars = items.compactMap { if case .scalar(let scalar) = $0 { scalar } else { nil } }
        XCTAssertEqual(scalars.map(\.text), ["1e400", "1", "true", "null"])
        XCTAssertEqual(scalars.map(\.isPlain), [true, false, true, true])
        XCTAssertEqual(scalars[1].mark, Mark(line: 2, column: 16))
        guard case .mapping(let inner, _) = entries[1].value, case .scalar(let zero) = inner[0].value else {
            return XCTFail("a map")
        }
        XCTAssertEqual(zero.mark, Mark(line: 3, column: 14), "columns count characters, not bytes")
    }

    func testEscapesAreResolved() throws {
        let node = try read(#"["\"\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00"]"#)
        guard case .sequence(let items, _) = node, case .scalar(let scalar) = items.first else {
            return XCTFail("a list")
        }
        XCTAssertEqual(scalar.text, "\"\\/\u{08}\u{0C}\n\r\tAé😀")
    }

    func testLimitsAreCheckedAsTheTextIsRead() {
        let limits = YAMLLimits(
            maximumFileSize: 4 << 20, maximumDepth: 4, maximumScalarLength: 1 << 20, maximumNodes: 10)
        XCTAssertEqual(
            failure("[[[[[1]]]]]", limits: limits)?.diagnostic.message, "objects and arrays nest more than 4 deep")
        XCTAssertEqual(
            failure("[0,0,0,0,0,0,0,0,0,0,0]", limits: limits)?.diagnostic.message,
            "the document has more than 10 values; at most that many are read")
        XCTAssertEqual(
            failure("[\"" + String(repeating: "x", count: (1 << 20) + 1) + "\"]", limits: limits)?.diagnostic.message,
            "a string is longer than 1 MiB")
        XCTAssertTrue(failure("[[[[[1]]]]]", limits: limits)?.isOverLimit == true)
        XCTAssertNotNil(try? read("[[[[1]]]]", limits: limits))
    }

    func testAMinifiedDocumentOfManyMembersIsReadInLinearTime() throws {
        // One line of 200,000 members: marks are counted from the last one, not the line's start.
        let members = (0..<200_000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let start = Date()
        guard case .mapping(let entries, _) = try read("{" + members + "}") else { return XCTFail("a map") }
        XCTAssertEqual(entries.count, 200_000)
        XCTAssertLessThan(Date().timeIntervalSince(start), 30)
    }
}
