import Foundation
import OptionSpecs
import XCTest

/// The committed option code is what `generate-options` writes from the declarations today, as
/// swift-format's `GeneratedFilesValidityTests` checks its rule tables: a declaration changed
/// without `make options` fails here.
final class GeneratedFilesValidityTests: XCTestCase {
    /// The package's root: this file is Tests/OptionSpecsTests/ in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testDeclarationsHaveNoProblems() {
        XCTAssertEqual(DeclarationProblems.all(), [])
    }

    func testGeneratedFilesAreUpToDate() throws {
        let files = GeneratedFiles.all()
        XCTAssertGreaterThan(files.count, 20)
        for file in files {
            let url = Self.root.appendingPathComponent(file.path)
            let committed = try XCTUnwrap(
                try? String(contentsOf: url, encoding: .utf8), "\(file.path) is missing; run `make options`")
            XCTAssertTrue(
                committed == file.text,
                "\(file.path) is stale: run `make options` (first differing line: \(Self.firstDifference(committed, file.text)))"
            )
        }
    }

    /// Every generated file of the source folders is one `generate-options` writes: a declaration
    /// removed leaves no stale file behind.
    func testNoOrphanGeneratedFiles() throws {
        let written = Set(GeneratedFiles.all().map(\.path))
        for folder in ["Sources/moya-cli", "Tests/MoyaCLITests"] {
            let base = Self.root.appendingPathComponent(folder)
            let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: base.path))
            for case let path as String in enumerator where path.hasSuffix("+Generated.swift") {
                XCTAssertTrue(written.contains(folder + "/" + path), "\(folder)/\(path) is not generated any more")
            }
        }
    }

    static func firstDifference(_ a: String, _ b: String) -> String {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false)
        let right = b.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(left.count, right.count) {
            let one = index < left.count ? String(left[index]) : "<end>"
            let other = index < right.count ? String(right[index]) : "<end>"
            if one != other { return "\(index + 1): committed '\(one)', generated '\(other)'" }
        }
        return "none"
    }
}

/// A declaration that would write code that does not compile, or a table the tests cannot
/// exercise, is refused by name before anything is written.
final class DeclarationProblemsTests: XCTestCase {
    func option(_ names: [String], help: String, sample: String? = "x") -> OptionSpec {
        OptionSpec(
            property: "value", kind: .option, names: names, help: help, assign: "{ $0.value = $1 }", sample: sample)
    }

    func testAWellFormedOptionPasses() {
        XCTAssertEqual(DeclarationProblems.check(option(["-v", "--value"], help: #"Say \"hi\"."#), in: "C"), [])
    }

    func testHelpThatWouldBreakItsStringLiteralIsRefused() {
        XCTAssertEqual(
            DeclarationProblems.check(option(["--value"], help: #"Say "hi"."#), in: "C"),
            [#"C --value: the help holds an unescaped " (write \")"#])
        XCTAssertEqual(
            DeclarationProblems.check(option(["--value"], help: "two\nlines"), in: "C"),
            ["C --value: the help holds a line break (write it on one line)"])
        XCTAssertEqual(DeclarationProblems.check(option(["--value"], help: ""), in: "C"), ["C --value: no help"])
    }

    func testSpellingsThatAreNotOptionsAreRefused() {
        for name in ["value", "-", "--", "-vv", "---value", "--va lue", "--value="] {
            XCTAssertEqual(
                DeclarationProblems.check(option([name], help: "Help."), in: "C"),
                ["C \(name): '\(name)' is not -x or --name"], name)
        }
    }

    func testATableOptionWithoutASampleIsRefused() {
        XCTAssertEqual(
            DeclarationProblems.check(option(["--value"], help: "Help.", sample: nil), in: "C"),
            ["C --value: no sample value for the tests"])
    }
}
