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
}
