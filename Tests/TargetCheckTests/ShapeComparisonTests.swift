import MoyaKit
import OrderedJSON
import TargetCheck
import XCTest

/// The contract check of `check --live`: the live body's shape against the sample's.
final class ShapeComparisonTests: XCTestCase {
    func drifts(_ sample: String, _ live: String, strict: Bool = false, limit: Int = 50) throws -> [String] {
        let comparison = ShapeComparison(isStrict: strict, limit: limit)
        return comparison.drifts(sample: try JSONValue(parsing: sample), live: try JSONValue(parsing: live)).map(
            \.description)
    }

    func testSameShapeWithOtherValuesHasNoDrift() throws {
        XCTAssertEqual(
            try drifts(
                #"{"login":"x","id":1,"admin":false,"tags":["a"]}"#,
                #"{"login":"octocat","id":583231,"admin":true,"tags":["b","c"]}"#), [])
    }

    func testIntegersAndDecimalsAreBothNumbers() throws {
        XCTAssertEqual(try drifts(#"{"ratio":1}"#, #"{"ratio":0.5}"#), [])
        XCTAssertEqual(try drifts(#"[1.5]"#, #"[2, 3]"#), [])
        // Numbers kept as written (beyond Int, -0, exponents) are numbers too.
        XCTAssertEqual(try drifts(#"{"id":1,"z":0,"e":100}"#, #"{"id":12345678901234567890,"z":-0,"e":1E2}"#), [])
        XCTAssertEqual(
            try drifts(#"{"id":12345678901234567890}"#, #"{"id":"12345678901234567890"}"#),
            ["$.id: expected number, found string"])
    }

    func testMissingKeysAreReportedWithTheirPath() throws {
        XCTAssertEqual(
            try drifts(#"{"owner":{"login":"x","id":1},"name":"n"}"#, #"{"owner":{"login":"y"},"name":"m"}"#),
            ["$.owner.id: missing"])
        XCTAssertEqual(try drifts(#"{"owner":{"login":"x"}}"#, #"{}"#), ["$.owner: missing"])
    }

    func testTypeMismatchesNameBothTypes() throws {
        XCTAssertEqual(
            try drifts(#"{"items":[{"id":1}]}"#, #"{"items":[{"id":1},{"id":"2"}]}"#),
            ["$.items[1].id: expected number, found string"])
        XCTAssertEqual(
            try drifts(#"{"a":"s","b":true,"c":{},"d":[]}"#, #"{"a":1,"b":"yes","c":[],"d":{}}"#),
            [
                "$.a: expected string, found number",
                "$.b: expected bool, found string",
                "$.c: expected object, found array",
                "$.d: expected array, found object"
            ])
    }

    /// A name given twice: the sample's first value is its shape, the live body's last value is
    /// compared (a reader building a dictionary keeps it), and a strict check reports an extra
    /// name once. Small objects are scanned and large ones hashed; both answer alike.
    func testNamesGivenTwiceAnswerAlikeInSmallAndLargeObjects() throws {
        for padding in [0, 20] {
            let filler = (0..<padding).map { #""k\#($0)":\#($0),"# }.joined()
            XCTAssertEqual(
                try drifts(#"{\#(filler)"a":1,"a":"x"}"#, #"{\#(filler)"a":"s","a":2}"#), [], "padding \(padding)")
            XCTAssertEqual(
                try drifts(#"{\#(filler)"a":1,"a":"x"}"#, #"{\#(filler)"a":2,"a":"s"}"#),
                ["$.a: expected number, found string"], "padding \(padding)")
            XCTAssertEqual(
                try drifts(#"{\#(filler)"a":1}"#, #"{\#(filler)"a":2,"b":"s","b":1,"c":null}"#, strict: true),
                ["$.b: unexpected key (string)", "$.c: unexpected key (null)"], "padding \(padding)")
            XCTAssertEqual(
                try drifts(#"{\#(filler)"a":1,"b":2,"c":3}"#, #"{\#(filler)"q":1}"#, limit: 2),
                ["$.a: missing", "$.b: missing"], "padding \(padding)")
        }
    }

    func testPathsOfDeepDriftsNameEveryStep() throws {
        XCTAssertEqual(
            try drifts(#"{"a":[{"b c":[{"d":1}]}]}"#, #"{"a":[{"b c":[{"d":1}]},{"b c":[{"d":1},{"d":"x"}]}]}"#),
            [#"$.a[1]["b c"][1].d: expected number, found string"#])
    }

    func testTopLevelMismatch() throws {
        XCTAssertEqual(try drifts(#"{"a":1}"#, #"[{"a":1}]"#), ["$: expected object, found array"])
        XCTAssertEqual(try drifts(#""text""#, #"3"#), ["$: expected string, found number"])
    }

    func testExtraKeysAreFineUnlessStrict() throws {
        XCTAssertEqual(try drifts(#"{"a":1}"#, #"{"a":2,"b":"x","c":null}"#), [])
        XCTAssertEqual(
            try drifts(#"{"a":1}"#, #"{"a":2,"b":"x","c":null}"#, strict: true),
            ["$.b: unexpected key (string)", "$.c: unexpected key (null)"])
    }

    func testNullInTheSampleMatchesAnything() throws {
        XCTAssertEqual(try drifts(#"{"company":null}"#, #"{"company":"Artsy"}"#), [])
        XCTAssertEqual(try drifts(#"{"company":null}"#, #"{"company":{"name":"Artsy"}}"#, strict: true), [])
    }

    func testLiveNullIsAnEmptyOptionalUnlessStrict() throws {
        XCTAssertEqual(try drifts(#"{"description":"text"}"#, #"{"description":null}"#), [])
        XCTAssertEqual(
            try drifts(#"{"description":"text"}"#, #"{"description":null}"#, strict: true),
            ["$.description: expected string, found null"])
    }

    func testEveryLiveElementIsComparedWithTheSamplesFirstElement() throws {
        XCTAssertEqual(
            try drifts(#"[{"name":"a","id":1}]"#, #"[{"name":"b","id":2},{"name":"c"},{"id":3}]"#),
            ["$[1].id: missing", "$[2].name: missing"])
        // The first element only: later ones of the sample are not the shape.
        XCTAssertEqual(try drifts(#"[{"id":1},{"other":true}]"#, #"[{"id":2}]"#), [])
        XCTAssertEqual(try drifts(#"[{"id":1},{"other":true}]"#, #"[{"other":false}]"#), ["$[0].id: missing"])
    }

    func testEmptyArraysSayNothing() throws {
        XCTAssertEqual(try drifts(#"{"labels":[]}"#, #"{"labels":[{"name":"bug"},3]}"#), [])
        XCTAssertEqual(try drifts(#"{"labels":[{"name":"bug"}]}"#, #"{"labels":[]}"#), [])
    }

    func testNestedArraysOfArrays() throws {
        XCTAssertEqual(try drifts(#"[[1]]"#, #"[[1,2],[3,"x"]]"#), ["$[1][1]: expected number, found string"])
    }

    func testOddKeysAreQuotedInPaths() throws {
        XCTAssertEqual(
            try drifts(#"{"content-type":"a","1st":1,"say \"hi\"":true,"ok_key2":1}"#, #"{}"#),
            [
                #"$["content-type"]: missing"#,
                #"$["1st"]: missing"#,
                #"$["say \"hi\""]: missing"#,
                "$.ok_key2: missing"
            ])
    }

    func testTheLimitStopsLongLists() throws {
        let live = "[" + Array(repeating: #"{"id":"x"}"#, count: 500).joined(separator: ",") + "]"
        let found = try drifts(#"[{"id":1}]"#, live, limit: 10)
        XCTAssertEqual(found.count, 10)
        XCTAssertEqual(found.first, "$[0].id: expected number, found string")
        XCTAssertEqual(found.last, "$[9].id: expected number, found string")
    }

    func testDriftFieldsForReports() throws {
        let comparison = ShapeComparison(isStrict: true)
        let found = comparison.drifts(
            sample: try JSONValue(parsing: #"{"a":1,"b":"x"}"#), live: try JSONValue(parsing: #"{"b":2,"c":true}"#))
        XCTAssertEqual(found.map(\.kind), ["missing", "type", "unexpected"])
        XCTAssertEqual(found.map(\.path), ["$.a", "$.b", "$.c"])
        XCTAssertEqual(found.map(\.expectedType), [nil, "string", nil])
        XCTAssertEqual(found.map(\.foundType), [nil, "number", "bool"])
    }
}
