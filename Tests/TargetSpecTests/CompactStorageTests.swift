import MoyaKit
import OrderedJSON
import PositionedYAML
import XCTest

@testable import TargetModel
@testable import TargetSpec

/// Issue 16: the tables a large file's cases fill are kept compact (the YAML layer's are tested
/// in PositionedYAMLTests); each must answer as the case it replaces.
final class CompactStorageTests: XCTestCase {
    /// A digest answers what the checks across cases ask as its case does.
    func testDigestOutlinesItsCase() throws {
        let yaml = """
            baseURL: https://example.com
            pagination: {cursor: {from: "$.next", param: after}}
            cases:
              plain: {path: /p, sample: ok}
              valued: {path: "/v/{id}/{a_value_name_longer_than_fifteen}", values: [{id: int}, {a_value_name_longer_than_fifteen: string}], pagination: none, sample: ok}
              paged: {path: /pg, pagination: {cursor: {from: "$.n", param: cursor}}, sample: ok}
              captured: {path: /c, captures: {id: "$.id", token: "$.t"}, sample: ok}
              chained:
                path: "/items/{id}"
                values: [{id: string}]
                examples:
                  - {after: captured, with: {id: "{id}"}}
                  - {id: x}
              saved: {path: /f, task: {download: out.bin}, pagination: none, sample: ok}
            """
        let api = try XCTUnwrap(SpecTest.load(yaml).api)
        XCTAssertEqual(api.cases.count, 6)
        for spec in api.cases {
            let digest = CaseDigest(spec)
            XCTAssertEqual(digest.name, spec.name)
            XCTAssertEqual(digest.mark, spec.mark)
            XCTAssertEqual(String(describing: digest.paging), String(describing: spec.paging), spec.name)
            XCTAssertEqual(digest.isDownloadCase, spec.isDownloadCase, spec.name)
            XCTAssertEqual(digest.captureNames, spec.captureNames, spec.name)
            XCTAssertEqual(digest.exampleSteps.map(\.number), spec.exampleSteps.map(\.number), spec.name)
            func afters(_ steps: [ExampleStep]) -> [String] {
                steps.map { step in if case .chained(let chained) = step.kind { "\(chained.after)" } else { "-" } }
            }
            XCTAssertEqual(afters(digest.exampleSteps), afters(spec.exampleSteps), spec.name)
            for name in spec.values.map(\.name) + ["", "i", "idd", "a_value_name_longer_than_fifteen_", "x"] {
                XCTAssertEqual(digest.hasValue(named: name), spec.hasValue(named: name), "\(spec.name): \(name)")
            }
        }
    }
}

/// Issue 16: a sample's JSON without placeholders is held as its text (`JSONTemplate.literal`);
/// it must render, as a value and as bytes, what the tree it replaces renders.
final class LiteralJSONTests: XCTestCase {
    private let samples = [
        #"{id: 1, name: "Item 1", tags: [a, b], owner: {login: moya}}"#,
        #"[1, -2, 2.50, 1e3, -0.0, 12345678901234567890, true, false, null, ~]"#,
        #"{"caf\u00e9": "na\u00efve \U0001F600", "quote\"d": "back\\slash", "ctl": "\u0001\t\n", "braces": "{{not a placeholder}}", "dollar": "$${HOME}"}"#,
        #"{empty: {}, none: [], nested: [[[]], {a: [{b: {c: [1]}}]}], "": ""}"#
    ]

    func testLiteralRendersAsTheTree() throws {
        for sample in samples {
            let yaml = "baseURL: https://example.com\ncases:\n  c:\n    path: /c\n    sample: {json: \(sample)}\n"
            let result = TargetFileLoader.load(text: yaml, file: "t.yaml")
            let api = try XCTUnwrap(result.api, result.renderedDiagnostics())
            guard case .response(_, _, .json(let held)) = api.cases[0].samples[0].sample.outcome,
                case .literal(let literal) = held
            else { return XCTFail("\(sample): not held as text") }
            // The tree, as a sample with a (never given) placeholder keeps it.
            let treeYAML =
                "baseURL: https://example.com\ncases:\n  c:\n    path: /c\n    values: [{v: {type: string, optional: true}}]\n"
                + "    task: {parameters: {q: \"{v}\"}, encoding: url}\n    sample: {json: [\(sample), \"{v}\"]}\n"
            let treeAPI = try XCTUnwrap(TargetFileLoader.load(text: treeYAML, file: "t.yaml").api)
            guard case .response(_, _, .json(.array(let items))) = treeAPI.cases[0].samples[0].sample.outcome else {
                return XCTFail("\(sample): the tree")
            }
            let tree = items[0]
            XCTAssertNotEqual(tree, held)
            let expected = try tree.render(arguments: [:])
            XCTAssertEqual(try held.render(arguments: [:]), expected, sample)
            XCTAssertEqual(literal.bytes, Array(expected.serialized()), sample)
            XCTAssertEqual(held.compacted(), held)
        }
    }

    func testPlaceholdersAndDeepNestingStayTrees() {
        let withPlaceholder = JSONTemplate.object([
            JSONTemplate.Member(key: "id", value: .placeholder(name: "id", mark: Mark(line: 1, column: 1)))
        ])
        XCTAssertEqual(withPlaceholder.compacted(), withPlaceholder)
        let interpolated = JSONTemplate.array([
            .string(
                Template(
                    segments: [.literal("a"), .placeholder(name: "x", mark: Mark(line: 1, column: 2))],
                    source: "a{x}", mark: Mark(line: 1, column: 1)))
        ])
        XCTAssertEqual(interpolated.compacted(), interpolated)
        XCTAssertEqual(JSONTemplate.int(3).compacted(), .int(3))
        var deep = JSONTemplate.array([])
        for _ in 0..<JSONValue.maximumParsingDepth { deep = .array([deep]) }
        XCTAssertEqual(deep.compacted(), deep, "deeper than the parser reads back")
        var shallow = JSONTemplate.array([])
        for _ in 0..<(JSONValue.maximumParsingDepth - 2) { shallow = .array([shallow]) }
        guard case .literal(let literal) = shallow.compacted() else { return XCTFail("a literal within the limit") }
        XCTAssertEqual(literal.value.serialized(), try shallow.render(arguments: [:]).serialized())
    }
}
