import MoyaKit
import OrderedJSON
import TargetSpec
import XCTest

/// `optional: true` values: binding, where they may stand, and what is left out when not given.
final class SpecOptionalValueTests: XCTestCase {
    private static let stateCase = """
        values: [{q: string}, {state: {type: string, optional: true}}]
        path: /search
        headers: {X-State: "{state}"}
        task: {parameters: {q: "{q}", state: "{state}"}, encoding: url}
        sample: ok
        """

    func testAnOptionalValueNotGivenIsAbsent() throws {
        let spec = try XCTUnwrap(SpecTest.load(SpecTest.file(case: Self.stateCase)).api?.cases.first)
        XCTAssertEqual(spec.values.map(\.isOptional), [false, true])
        XCTAssertEqual(spec.values.map(\.isRequired), [true, false])
        XCTAssertEqual(spec.values.map(\.signature), ["q: string", "state?: string"])
        XCTAssertEqual(try spec.argumentBinder().bind(positional: ["x"]), ["q": .string("x")])
        XCTAssertEqual(
            try spec.argumentBinder().bind(positional: ["x", "open"]), ["q": .string("x"), "state": .string("open")])
        XCTAssertEqual(
            try spec.argumentBinder().bind(positional: ["x"], named: ["state": ""]),
            ["q": .string("x"), "state": .string("")])
    }

    func testExamplesMayLeaveAnOptionalValueOut() throws {
        let result = SpecTest.load(SpecTest.file(case: Self.stateCase + "\nexamples: [[x], {q: y, state: open}]"))
        XCTAssertEqual(result.renderedDiagnostics(), "")
        XCTAssertEqual(
            result.api?.cases.first?.examples, [["q": .string("x")], ["q": .string("y"), "state": .string("open")]])
    }

    func testLeftOutOfParametersJSONMembersAndHeaders() throws {
        let yaml = SpecTest.file(
            case: """
                method: POST
                values: [{state: {type: int, optional: true}}, {tag: {type: string, optional: true}}]
                path: /items
                headers: {X-Tag: "{tag}"}
                task: {json: {state: "{state}", nested: {tag: "{tag}", keep: 1}, list: ["{tag}", 2]}, query: {tag: "{tag}"}}
                sample: {json: {state: "{state}"}}
                """, header: "headers: {X-Tag: api-wide}\n")
        let api = try XCTUnwrap(SpecTest.load(yaml).api)
        let spec = try XCTUnwrap(api.cases.first)
        let builder = TargetBuilder(api: api, processEnvironment: [:])

        let bare = try builder.target(for: spec, arguments: [:])
        guard case .requestCompositeData(let body, let query) = bare.task else { return XCTFail("\(bare.task)") }
        XCTAssertEqual(String(decoding: body, as: UTF8.self), #"{"nested":{"keep":1},"list":[2]}"#)
        XCTAssertTrue(query.isEmpty)
        XCTAssertEqual(bare.orderedHeaders.first { $0.name == "X-Tag" }?.value, "api-wide")

        let full = try builder.target(for: spec, arguments: ["state": .int(3), "tag": .string("t")])
        guard case .requestCompositeData(let fullBody, let fullQuery) = full.task else {
            return XCTFail("\(full.task)")
        }
        XCTAssertEqual(
            String(decoding: fullBody, as: UTF8.self), #"{"state":3,"nested":{"tag":"t","keep":1},"list":["t",2]}"#)
        XCTAssertEqual(fullQuery["tag"] as? JSONValue, .string("t"))
        XCTAssertEqual(full.orderedHeaders.first { $0.name == "X-Tag" }?.value, "t")
    }

    func testMultipartPartsOfOptionalValuesAreLeftOut() throws {
        let yaml = SpecTest.file(
            case: """
                method: POST
                values: [{title: string}, {note: {type: string, optional: true}}]
                path: /up
                task: {multipart: [{name: title, value: "{title}"}, {name: note, value: "{note}"}]}
                sample: ok
                """)
        let api = try XCTUnwrap(SpecTest.load(yaml).api)
        let spec = try XCTUnwrap(api.cases.first)
        let target = try TargetBuilder(api: api, processEnvironment: [:]).target(
            for: spec, arguments: ["title": .string("a")])
        guard case .uploadMultipart(let parts) = target.task else { return XCTFail("\(target.task)") }
        XCTAssertEqual(parts.map(\.name), ["title"])
    }

    func testAnOptionalValueCannotBeAPathPlaceholder() {
        XCTAssertEqual(
            SpecTest.errors(
                SpecTest.file(case: "values: [{id: {type: int, optional: true}}]\npath: /items/{id}\nsample: ok")),
            """
            t.yaml:5:18: error: optional value 'id' cannot be a path placeholder; a path needs every part (give it a default, or make it a parameter)
                    path: /items/{id}
                                 ^

            """)
    }

    func testAnOptionalValueMustStandAlone() {
        let yaml = SpecTest.file(
            case: """
                values: [{q: {type: string, optional: true}}]
                path: /s
                task: {parameters: {q: "is:{q}"}, encoding: url}
                sample: ok
                """)
        XCTAssertEqual(
            SpecTest.errors(yaml),
            """
            t.yaml:6:32: error: optional value 'q' must stand alone as "{q}" (a parameter, a JSON member or element, a header or a multipart part) so that it can be left out; here it is part of a task
                    task: {parameters: {q: "is:{q}"}, encoding: url}
                                               ^

            """)
    }

    func testAnOptionalValueCannotHaveADefault() {
        XCTAssertEqual(
            SpecTest.errors(
                SpecTest.file(
                    case: "values: [{q: {type: string, optional: true, default: a}}]\npath: /s/{q}\nsample: ok")),
            """
            t.yaml:4:58: error: value 'q' is optional and has a default; drop one (an optional value is left out when not given, a default is sent)
                    values: [{q: {type: string, optional: true, default: a}}]
                                                                         ^

            """)
    }

    func testANullDefaultPointsAtOptional() {
        XCTAssertEqual(
            SpecTest.errors(
                SpecTest.file(case: "values: [{q: {type: string, default: null}}]\npath: /s/{q}\nsample: ok")),
            """
            t.yaml:4:42: error: value 'q' cannot default to null; write 'optional: true' to leave it out when not given
                    values: [{q: {type: string, default: null}}]
                                                         ^

            """)
    }
}
