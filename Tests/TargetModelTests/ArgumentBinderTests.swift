import OrderedJSON
import PositionedYAML
import TargetModel
import XCTest

/// Binding command-line style arguments to a case's values.
final class ArgumentBinderTests: XCTestCase {
    private let values = [
        ValueSpec(name: "name", type: .string, mark: Mark(line: 1, column: 1)),
        ValueSpec(name: "per_page", type: .int, defaultValue: .int(30), mark: Mark(line: 2, column: 1)),
        ValueSpec(
            name: "state", type: .enumeration(["open", "closed", "all"]), defaultValue: .enumCase("open"),
            mark: Mark(line: 3, column: 1)),
        ValueSpec(name: "ratio", type: .double, defaultValue: .double(0.5), mark: Mark(line: 4, column: 1)),
        ValueSpec(name: "draft", type: .bool, defaultValue: .bool(false), mark: Mark(line: 5, column: 1))
    ]
    private var binder: ArgumentBinder { ArgumentBinder(caseName: "repos", values: values) }

    func testPositionalAndNamedValuesWithDefaults() throws {
        XCTAssertEqual(
            try binder.bind(positional: ["ashfurrow", "5"], named: ["state": "closed", "draft": "true"]),
            [
                "name": .string("ashfurrow"), "per_page": .int(5), "state": .enumCase("closed"), "ratio": .double(0.5),
                "draft": .bool(true)
            ])
        XCTAssertEqual(
            try binder.bind(named: ["name": "a b/c", "ratio": "1e3"]),
            [
                "name": .string("a b/c"), "per_page": .int(30), "state": .enumCase("open"),
                "ratio": .double(try XCTUnwrap(JSONNumber("1e3"))),
                "draft": .bool(false)
            ])
    }

    func testDoublesAreDecimalAndKeptAsWritten() throws {
        func ratio(_ text: String) throws -> ArgumentValue? {
            try binder.bind(positional: ["a"], named: ["ratio": text])["ratio"]
        }
        XCTAssertEqual(try ratio("1")?.text, "1")
        XCTAssertEqual(try ratio("2.50")?.text, "2.50")
        XCTAssertEqual(try ratio("-0")?.json.serializedString(), "-0")
        XCTAssertEqual(try ratio("1E2")?.json.serializedString(), "1E2")
        // Only what JSON cannot spell changes.
        XCTAssertEqual(try ratio("+.5")?.text, "0.5")
        XCTAssertEqual(try ratio("007.50")?.text, "7.50")
        XCTAssertEqual(try ratio("5.")?.text, "5")
        for text in ["0x1p3", "0x10", "inf", "-infinity", "nan", "1e400", "1_000", " 1", "1.2.3", "e3", "."] {
            XCTAssertThrowsError(try ratio(text), text) { error in
                XCTAssertEqual(
                    (error as? ArgumentError)?.description,
                    "'\(text)' is not a double (a finite decimal number such as 2.5 or 1e3) for value 'ratio'")
            }
        }
    }

    func testUsageErrors() {
        func message(_ positional: [String], _ named: [String: String] = [:]) -> String {
            do {
                _ = try binder.bind(positional: positional, named: named)
                return "no error"
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(message([]), "missing value 'name' (string)")
        XCTAssertEqual(message(["a", "abc"]), "'abc' is not an int for value 'per_page'")
        XCTAssertEqual(
            message(["a", "9223372036854775808"]), "'9223372036854775808' is not an int for value 'per_page'")
        XCTAssertEqual(message(["a"], ["state": "maybe"]), "'maybe' is not one of open, closed, all for value 'state'")
        XCTAssertEqual(
            message(["a"], ["ratio": "nan"]),
            "'nan' is not a double (a finite decimal number such as 2.5 or 1e3) for value 'ratio'")
        XCTAssertEqual(message(["a"], ["draft": "yes"]), "'yes' is not a bool (true or false) for value 'draft'")
        XCTAssertEqual(
            message(["a", "1", "open", "1", "true", "x"]),
            "too many values: 'repos' takes 5 (name, per_page, state, ratio, draft), 6 given")
        XCTAssertEqual(message(["a"], ["nme": "x"]), "unknown value 'nme'; did you mean 'name'?")
        XCTAssertEqual(
            message(["a"], ["zzz": "x"]), "unknown value 'zzz'; valid values: name, per_page, state, ratio, draft")
        XCTAssertEqual(message(["a"], ["name": "b"]), "value 'name' is given twice (by position and by name)")
    }

    func testEveryProblemCanBeCollected() {
        let (arguments, errors) = binder.bindReportingAll(positional: [], named: ["per_page": "x", "stat": "open"])
        XCTAssertEqual(
            errors,
            [
                .unknownValue(
                    name: "stat", suggestion: "state", available: ["name", "per_page", "state", "ratio", "draft"]),
                .missingValue(name: "name", type: .string),
                .invalidValue("x", name: "per_page", type: .int)
            ])
        XCTAssertEqual(arguments["state"], .enumCase("open"))
    }

    func testFileValuesMustBeReadableFiles() throws {
        let folder = try ModelTest.temporaryFolder(self)
        try ModelTest.write("png", to: folder + "/me.png")
        let fileBinder = ArgumentBinder(
            caseName: "upload", values: [ValueSpec(name: "avatar", type: .file, mark: Mark(line: 1, column: 1))],
            fileBaseDirectory: folder)
        XCTAssertEqual(try fileBinder.bind(positional: ["me.png"]), ["avatar": .file(path: folder + "/me.png")])
        XCTAssertEqual(
            try fileBinder.bind(positional: [folder + "/me.png"]), ["avatar": .file(path: folder + "/me.png")])
        XCTAssertThrowsError(try fileBinder.bind(positional: ["you.png"])) { error in
            XCTAssertEqual("\(error)", "file 'you.png' for value 'avatar' does not exist")
        }
        XCTAssertThrowsError(try fileBinder.bind(positional: [folder])) { error in
            XCTAssertEqual("\(error)", "file '\(folder)' for value 'avatar' is not a readable file")
        }
    }
}
