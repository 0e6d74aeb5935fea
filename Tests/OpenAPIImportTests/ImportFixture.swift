import Foundation
import OpenAPIImport
import TargetModel
import TargetSpec
import XCTest

/// Imports a spec in a temporary folder (with the example upload beside the target file) and
/// loads the result back as the target-file loader does.
struct ImportFixture {
    let folder: URL
    let result: OpenAPIImportResult
    let loaded: TargetFileLoadResult

    var api: APISpec { loaded.api! }

    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Fixtures/openapi")
    }

    static func spec(named name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    init(
        _ bytes: [UInt8], options: OpenAPIImportOptions = OpenAPIImportOptions(exampleUploadFile: "samples/upload.txt"),
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("samples"), withIntermediateDirectories: true)
        try Data("upload\n".utf8).write(to: folder.appendingPathComponent("samples/upload.txt"))
        result = try OpenAPIImporter.importDocument(bytes, file: "spec.yaml", options: options)
        loaded = TargetFileLoader.load(text: result.text, file: "imported.yaml", directory: folder.path)
        XCTAssertFalse(
            loaded.hasErrors, "the imported file validates:\n\(loaded.renderedDiagnostics())\n\(result.text)",
            file: file, line: line)
    }

    init(
        yaml: String, options: OpenAPIImportOptions = OpenAPIImportOptions(exampleUploadFile: "samples/upload.txt"),
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try self.init(Array(yaml.utf8), options: options, file: file, line: line)
    }

    func `case`(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> CaseSpec {
        try XCTUnwrap(api.cases.first { $0.name == name }, "case \(name) in\n\(result.text)", file: file, line: line)
    }

    func value(_ name: String, of caseName: String, file: StaticString = #filePath, line: UInt = #line) throws
        -> ValueSpec
    {
        try XCTUnwrap(
            try self.case(caseName).values.first { $0.name == name }, "value \(name) of \(caseName)", file: file,
            line: line)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// The problems of a spec that does not import.
func importProblems(_ yaml: String, file: StaticString = #filePath, line: UInt = #line) -> [SpecProblem] {
    do {
        _ = try OpenAPIImporter.importDocument(Array(yaml.utf8), file: "spec.yaml", options: OpenAPIImportOptions())
        XCTFail("the spec imported", file: file, line: line)
    } catch .invalidSpec(let problems) {
        return problems
    } catch {
        XCTFail("unexpected error \(error)", file: file, line: line)
    }
    return []
}
