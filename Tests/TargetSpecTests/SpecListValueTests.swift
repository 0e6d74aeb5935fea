import MoyaKit
import OrderedJSON
import PositionedYAML
import XCTest

@testable import TargetModel
@testable import TargetSpec

/// List values (`[string]`, `[int]`, `[enum: [a, b]]`): declaring, binding, where they may stand
/// and how they are sent.
final class SpecListValueTests: XCTestCase {
    func testListTypesShortAndLongForm() throws {
        let yaml = SpecTest.file(
            case: """
                values:
                  - labels: [string]
                  - ids: {type: [int], optional: true}
                  - states: [enum: [open, closed]]
                  - flags: {type: [bool], default: [true, false]}
                path: /s
                task: {parameters: {labels: "{labels}", ids: "{ids}", states: "{states}", flags: "{flags}"}, encoding: url}
                sample: ok
                examples: [{labels: [a, b], states: [open]}]
                """)
        let result = SpecTest.load(yaml)
        XCTAssertEqual(result.renderedDiagnostics(), "")
        let spec = try XCTUnwrap(result.api?.cases.first)
        XCTAssertEqual(
            spec.values.map(\.type),
            [.list(.string), .list(.int), .list(.enumeration(["open", "closed"])), .list(.bool)])
        XCTAssertEqual(
            spec.values.map(\.signature),
            ["labels: [string]", "ids?: [int]", "states: [open|closed]", "flags: [bool] = true,false"])
        XCTAssertEqual(
            spec.examples,
            [
                [
                    "labels": .list([.string("a"), .string("b")]), "states": .list([.enumCase("open")]),
                    "flags": .list([.bool(true), .bool(false)])
                ]
            ])
    }

    func testRepeatedAndCommaSeparatedWordsMakeOneList() throws {
        let values = [
            ValueSpec(name: "ids", type: .list(.int), mark: Mark(line: 1, column: 1)),
            ValueSpec(name: "q", type: .string, mark: Mark(line: 2, column: 1))
        ]
        let binder = ArgumentBinder(caseName: "c", values: values)
        let bound = binder.bindReportingAll(positional: ["1,2"], namedWords: ["q": ["x"]])
        XCTAssertEqual(bound.errors, [])
        XCTAssertEqual(bound.arguments["ids"], .list([.int(1), .int(2)]))
        let named = binder.bindReportingAll(namedWords: ["ids": ["1,2", "3"], "q": ["x"]])
        XCTAssertEqual(named.arguments["ids"], .list([.int(1), .int(2), .int(3)]))
        XCTAssertEqual(binder.bindReportingAll(namedWords: ["ids": [""], "q": ["x"]]).arguments["ids"], .list([]))
        XCTAssertEqual(
            binder.bindReportingAll(namedWords: ["ids": ["1,x"], "q": ["x"]]).errors.map(\.description),
            ["'x' is not an int for value 'ids'"])
        XCTAssertEqual(
            binder.bindReportingAll(namedWords: ["ids": ["1"], "q": ["x", "y"]]).errors.map(\.description),
            ["value --q is given twice; only a list value can be repeated"])
    }

    func testSentAsAJSONArrayAndAJoinedHeader() throws {
        let yaml = SpecTest.file(
            case: """
                method: POST
                values: [{labels: [string]}, {ids: [int]}]
                path: /s
                headers: {X-Labels: "{labels}"}
                task: {json: {labels: "{labels}", ids: "{ids}"}}
                sample: ok
                """)
        let api = try XCTUnwrap(SpecTest.load(yaml).api)
        let spec = try XCTUnwrap(api.cases.first)
        let target = try TargetBuilder(api: api, processEnvironment: [:]).target(
            for: spec, arguments: ["labels": .list([.string("bug"), .string("ui")]), "ids": .list([.int(1), .int(2)])])
        guard case .requestCompositeData(let body, _) = target.task else { return XCTFail("\(target.task)") }
        XCTAssertEqual(String(decoding: body, as: UTF8.self), #"{"labels":["bug","ui"],"ids":[1,2]}"#)
        XCTAssertEqual(target.orderedHeaders.first { $0.name == "X-Labels" }?.value, "bug, ui")
    }

    func testAListCannotBeAPathPlaceholder() {
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "values: [{ids: [int]}]\npath: /items/{ids}\nsample: ok")),
            """
            t.yaml:5:18: error: list value 'ids' cannot be a path placeholder; send it as a parameter, a JSON member or a header
                    path: /items/{ids}
                                 ^

            """)
    }

    func testAListMustStandAloneOutsideMultipart() {
        let yaml = SpecTest.file(
            case: """
                method: POST
                values: [{tags: [string]}]
                path: /s
                task: {multipart: [{name: tags, value: "{tags}"}]}
                sample: ok
                """)
        XCTAssertEqual(
            SpecTest.errors(yaml),
            """
            t.yaml:7:45: error: list value 'tags' must stand alone as "{tags}" in a parameter, a JSON member or element, or a header; here it is part of a task
                    task: {multipart: [{name: tags, value: "{tags}"}]}
                                                            ^

            """)
    }

    func testBadListTypes() {
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "values: [{f: [file]}]\npath: /s\nsample: ok")),
            """
            t.yaml:4:19: error: a list of files is not supported; declare one file value per file
                    values: [{f: [file]}]
                                  ^

            """)
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "values: [{f: [string, int]}]\npath: /s\nsample: ok")),
            """
            t.yaml:4:18: error: a list type has one element type, such as [string] or [enum: [a, b]]
                    values: [{f: [string, int]}]
                                 ^

            """)
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "values: [{f: [strin]}]\npath: /s\nsample: ok")),
            """
            t.yaml:4:19: error: unknown value type 'strin'; did you mean 'string'?
                    values: [{f: [strin]}]
                                  ^

            """)
    }

    func testCommaArrayEncodingJoinsElements() throws {
        let base = try XCTUnwrap(URL(string: "https://example.com/s"))
        let encoding = TaskConverter.encoding(
            .url(destination: .queryString, arrayEncoding: .comma, boolEncoding: .literal))
        let parameters: [String: any Sendable] = [
            "labels": JSONValue.array([.string("bug"), .string("a b")]),
            "flags": JSONValue.array([.bool(true), .bool(false)])
        ]
        let request = try encoding.encode(URLRequest(url: base), with: parameters)
        XCTAssertEqual(request.url?.absoluteString, "https://example.com/s?flags=true,false&labels=bug,a%20b")
    }
}
