import Foundation
import XCTest
@testable import TargetSpec

/// Helpers shared by the TargetSpec tests: loading YAML text, rendering diagnostics, temp folders.
enum SpecTest {
    /// Loads `yaml` as the file `file`, relative paths taken from `directory`.
    static func load(_ yaml: String, file: String = "t.yaml", directory: String? = nil) -> TargetFileLoadResult {
        TargetFileLoader.load(text: yaml, file: file, directory: directory)
    }

    /// The rendered errors (warnings left out) of loading `yaml`.
    static func errors(_ yaml: String, file: String = "t.yaml", directory: String? = nil) -> String {
        var result = load(yaml, file: file, directory: directory)
        result.diagnostics = result.diagnostics.filter { $0.severity == .error }
        return result.renderedDiagnostics()
    }

    /// A file with one case `c` whose body is `caseBody` (indented here), after `header` top-level lines.
    static func file(case caseBody: String, header: String = "") -> String {
        let indented = caseBody.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
        return "baseURL: https://example.com\n" + header + "cases:\n  c:\n" + indented + "\n"
    }

    /// A fresh temporary folder, removed when the test ends.
    static func temporaryFolder(_ test: XCTestCase) throws -> String {
        let path = NSTemporaryDirectory() + "spec-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Writes `text` to `path`, creating folders.
    static func write(_ text: String, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
