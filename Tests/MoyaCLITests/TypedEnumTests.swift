import CLITestSupport
import Foundation
import XCTest

/// Issue 29, item 5: `{type: int|double|bool, enum: [...]}` in a target file, checked at its line.
final class TypedEnumTests: XCTestCase {
    func testTypedEnumCasesAreCheckedAtTheirLine() throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "targets/bad.yaml",
            """
            baseURL: https://api.example.com
            cases:
              one:
                values:
                  - level: {type: int, enum: [1, two, 1]}
                  - ratio: {type: double, enum: [0.5], default: 1.5}
                  - kind: {type: file, enum: [a]}
                path: /x
                sample: ok
            """)
        let result = try sandbox.run(["validate", "targets/bad.yaml"])
        XCTAssertEqual(result.status, 65)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("targets/bad.yaml:") }
        XCTAssertEqual(
            errors,
            [
                #"targets/bad.yaml:5:38: error: expected an integer, found string "two""#,
                "targets/bad.yaml:5:43: error: duplicate enum case '1'",
                "targets/bad.yaml:6:53: error: default '1.5' of value 'ratio' is not one of 0.5",
                "targets/bad.yaml:7:22: error: value 'kind' has both 'type: file' and 'enum'; an enum's type is string, int, double or bool (or drop 'type')"
            ], result.stderr)
    }

    func testAHugeEnumLoadsInOnePass() throws {
        let sandbox = try Sandbox()
        let cases = (0..<50_000).map { "c\($0)" }.joined(separator: ", ")
        try sandbox.write(
            "targets/big.yaml",
            "baseURL: https://api.example.com\ncases:\n  one:\n    values: [{kind: {enum: [\(cases)]}}]\n    path: /x/{kind}\n    sample: ok\n"
        )
        let result = try sandbox.run(["call", "big", "one", "c49999", "--stub"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let wrong = try sandbox.run(["call", "big", "one", "c50000", "--stub"])
        XCTAssertEqual(wrong.status, 64)
    }
    /// Issue 38, bug 8: members are compared by value, as Swift compares raw values, so
    /// `generate swift` never writes an enum with duplicate raw values.
    func testNumericEnumMembersAreComparedByValue() throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "targets/bad.yaml",
            """
            baseURL: https://api.example.com
            cases:
              one:
                values:
                  - ratio: {type: double, enum: [1.0, 1.00, 1e0, 2.5, 0.25e1, 3]}
                  - level: {type: int, enum: [1, 2, 01]}
                path: /x/{ratio}/{level}
                sample: ok
            """)
        let result = try sandbox.run(["validate", "targets/bad.yaml"])
        XCTAssertEqual(result.status, 65, result.stderr)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("targets/bad.yaml:") }
        XCTAssertEqual(
            errors,
            [
                "targets/bad.yaml:5:43: error: duplicate enum case '1.00' (the same number as '1.0')",
                "targets/bad.yaml:5:49: error: duplicate enum case '1e0' (the same number as '1.0')",
                "targets/bad.yaml:5:59: error: duplicate enum case '0.25e1' (the same number as '2.5')",
                "targets/bad.yaml:6:41: error: duplicate enum case '1'"
            ], result.stderr)
        let generated = try sandbox.run(["generate", "swift", "--module", "MoyaKit", "bad"])
        XCTAssertEqual(generated.status, 65, generated.stderr)
        XCTAssertEqual(generated.stdout, "")
        // Distinct values stay valid.
        try sandbox.write(
            "targets/good.yaml",
            """
            baseURL: https://api.example.com
            cases:
              one:
                values: [{ratio: {type: double, enum: [1.0, 1.5, 0.1]}}]
                path: /x/{ratio}
                sample: ok
            """)
        XCTAssertEqual(try sandbox.run(["validate", "targets/good.yaml"]).status, 0)
    }
}
