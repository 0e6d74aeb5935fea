import Foundation
import PositionedYAML
import TargetModel
import XCTest

@testable import TargetSpec

/// What the TargetSpec tests share: loading YAML text, rendering diagnostics, temp folders.
enum SpecTest {
    /// Loads `yaml` as the file `file`, relative paths taken from `directory`.
    ///
    /// Every file the validation tests load is loaded a second time with the cases handed on
    /// (`eachCase`, as `validate` and `list` load): that must find the same diagnostics and hand
    /// on the very cases the API keeps.
    static func load(
        _ yaml: String, file: String = "t.yaml", directory: String? = nil,
        sourceFile: StaticString = #filePath, line: UInt = #line
    ) -> TargetFileLoadResult {
        let kept = TargetFileLoader.load(text: yaml, file: file, directory: directory)
        var handedOn: [CaseSpec] = []
        let streamed = TargetFileLoader.load(bytes: Array(yaml.utf8), file: file, directory: directory) {
            handedOn.append($0)
        }
        XCTAssertEqual(
            streamed.diagnostics, kept.diagnostics, "diagnostics with the cases handed on", file: sourceFile, line: line
        )
        XCTAssertEqual(streamed.caseCount, kept.caseCount, file: sourceFile, line: line)
        XCTAssertEqual(streamed.api == nil, kept.api == nil, file: sourceFile, line: line)
        if let api = kept.api {
            XCTAssertEqual(streamed.api?.cases.isEmpty, true, file: sourceFile, line: line)
            XCTAssertEqual(api.cases.count, kept.caseCount, file: sourceFile, line: line)
            XCTAssertEqual(handedOn.count, api.cases.count, file: sourceFile, line: line)
            for (handed, spec) in zip(handedOn, api.cases) {
                var handed = handed
                // Read before the API's `auth`, `auth: basic` is handed on as the type; the API
                // then names it as its scheme (see TargetFileValidator.caseHandler).
                if case .explicit(let kind) = handed.auth, spec.auth == .scheme(kind.rawValue) {
                    handed.auth = spec.auth
                }
                // A kept case holds its literal JSON samples as text; one handed on, as trees.
                handed.samples = handed.samples.map { named in
                    var named = named
                    if case .response(let status, let headers, .json(let json)) = named.sample.outcome {
                        named.sample.outcome = .response(
                            status: status, headers: headers, body: .json(json.compacted()))
                    }
                    return named
                }
                XCTAssertEqual(handed, spec, "case '\(spec.name)' handed on", file: sourceFile, line: line)
            }
        }
        // The load cache keeps the tree as the streaming load leaves it and validates it again:
        // the same result, the same cases handed on.
        let tree = TargetFileLoader.TreeWriter()
        var written: [CaseSpec] = []
        let writing = TargetFileLoader.load(
            bytes: Array(yaml.utf8), file: file, directory: directory, limits: .default, fileRoot: nil, release: nil,
            eachCase: { written.append($0) }, tree: tree)
        XCTAssertEqual(writing.diagnostics, streamed.diagnostics, file: sourceFile, line: line)
        if let bytes = tree.bytes {
            var reader = LoadCacheReader(bytes)
            if let read = reader.tree() {
                var replayed: [CaseSpec] = []
                let again = TargetFileLoader.validate(
                    read, file: file, directory: directory, fileRoot: nil, eachCase: { replayed.append($0) },
                    probes: nil, lines: nil)
                XCTAssertEqual(
                    again.diagnostics, streamed.diagnostics, "from the kept tree", file: sourceFile, line: line)
                XCTAssertEqual(again.api, streamed.api, "from the kept tree", file: sourceFile, line: line)
                XCTAssertEqual(again.apiName, streamed.apiName, file: sourceFile, line: line)
                XCTAssertEqual(again.caseCount, streamed.caseCount, file: sourceFile, line: line)
                XCTAssertEqual(replayed, handedOn, "cases from the kept tree", file: sourceFile, line: line)
            } else {
                XCTFail("the kept tree does not read back", file: sourceFile, line: line)
            }
        }
        let diagnosticWriter = LoadCacheWriter()
        for diagnostic in kept.diagnostics { diagnosticWriter.diagnostic(diagnostic) }
        var diagnosticReader = LoadCacheReader(diagnosticWriter.bytes)
        XCTAssertEqual(
            kept.diagnostics.map { _ in diagnosticReader.diagnostic() }, kept.diagnostics.map { $0 },
            "diagnostics through the load cache's form", file: sourceFile, line: line)
        XCTAssertEqual(
            streamed.sourceLines == nil, kept.diagnostics.isEmpty, "lines kept only for diagnostics", file: sourceFile,
            line: line)
        XCTAssertEqual(
            kept.sourceLines == nil, kept.diagnostics.isEmpty, "lines kept only for diagnostics", file: sourceFile,
            line: line)
        return kept
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
