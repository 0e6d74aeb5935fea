import CLITestSupport
import Foundation
import XCTest

/// Issue 26, item 9: a target file that cannot be parsed still defines the API its top-level
/// `api:` line names, so asking for that API reports the file's errors (exit 65), as asking by
/// the file's name does, instead of "unknown API" (exit 64); and a broken override is reported
/// rather than silently replaced by a lower level's file of that name.
final class BrokenFileNameTests: XCTestCase {
    var sandbox: Sandbox!

    /// `api: other`, then a flow map that never closes.
    static let broken = "api: other\nbaseURL: http://127.0.0.1:1\ncases:\n  a: {path: /a\n"

    override func setUpWithError() throws {
        sandbox = try Sandbox()
    }

    private func assertReportsTheFile(
        _ arguments: [String], name: String, file: String = "targets/broken.yaml",
        line: UInt = #line
    ) throws {
        let result = try sandbox.run(arguments)
        XCTAssertEqual(result.status, 65, "\(arguments): \(result.stderr)", line: line)
        XCTAssertTrue(
            result.stderr.contains("\(file):5:1: error: invalid YAML: did not find expected ',' or '}'"),
            "\(arguments): \(result.stderr)", line: line)
        XCTAssertTrue(
            result.stderr.hasSuffix(
                "moya-cli: error: API '\(name)' is defined by \(file), which has errors; "
                    + "run 'moya-cli validate \(file)'\n"), "\(arguments): \(result.stderr)", line: line)
        XCTAssertEqual(result.stdout, "", line: line)
    }

    func testAnUnparsableFileIsFoundByItsAPILineAndByItsName() throws {
        try sandbox.write("targets/broken.yaml", Self.broken)
        for command in [["call", "other", "a", "--stub"], ["curl", "other", "a"], ["list", "other"]] {
            try assertReportsTheFile(command, name: "other")
        }
        try assertReportsTheFile(["call", "broken", "a", "--stub"], name: "broken")
        let unknown = try sandbox.run(["call", "nope", "a", "--stub"])
        XCTAssertEqual(unknown.status, 64, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("unknown API 'nope'"), unknown.stderr)
    }

    func testTheAPILineIsReadInItsUsualSpellings() throws {
        for line in ["\"api\": \"other\"", "api: 'other'   # the shop", "'api' : other", "api: other\r"] {
            try sandbox.write("targets/broken.yaml", Self.broken.replacing("api: other", with: line))
            try assertReportsTheFile(["call", "other", "a", "--stub"], name: "other")
        }
    }

    func testAnAPILineThatIsNotTopLevelOrNotANameDefinesNothing() throws {
        for line in ["  api: other", "apiVersion: other", "api: [other]", "api: ../other", "# api: other"] {
            try sandbox.write("targets/broken.yaml", Self.broken.replacing("api: other", with: line))
            let result = try sandbox.run(["call", "other", "a", "--stub"])
            XCTAssertEqual(result.status, 64, "\(line): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("unknown API 'other'"), "\(line): \(result.stderr)")
        }
    }

    func testABrokenOverrideIsReportedNotReplacedByALowerLevel() throws {
        try sandbox.write(
            "home/.config/moya/targets/other.yaml",
            """
            api: other
            baseURL: http://127.0.0.1:1
            cases:
              a: {path: /a, sample: fine}
            """)
        XCTAssertEqual(try sandbox.run(["call", "other", "a", "--stub"]).stdout, "fine")
        try sandbox.write("targets/broken.yaml", Self.broken)
        try assertReportsTheFile(["call", "other", "a", "--stub"], name: "other")
    }
}
