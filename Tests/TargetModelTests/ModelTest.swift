import Foundation
import PositionedYAML
import TargetModel
import XCTest

/// What the TargetModel tests share: YAML text validated into the model, as the loader does it
/// (`YAMLLoader` for the nodes, `TargetFileValidator` for the rest), without the runtime.
enum ModelTest {
    /// A validated file: the model, if the file is valid enough to give one, and every diagnostic.
    struct Validated {
        var api: APISpec?
        var diagnostics: [Diagnostic]

        /// The errors as `file:line:column: message`, warnings left out.
        var errors: [String] {
            diagnostics.filter { $0.severity == .error }.map { diagnostic in
                let place = diagnostic.mark.map { ":\($0.line):\($0.column)" } ?? ""
                return "\(diagnostic.file)\(place): \(diagnostic.message)"
            }
        }
    }

    /// Validates `yaml` as the file `file`.
    static func validate(_ yaml: String, file: String = "t.yaml", directory: String? = nil) throws -> Validated {
        let root = try YAMLLoader.load(Array(yaml.utf8), file: file)
        var validator = TargetFileValidator(file: file, directory: directory)
        let api = validator.validate(root)
        return Validated(api: api, diagnostics: validator.diagnostics)
    }

    /// A fresh temporary folder, removed when the test ends.
    static func temporaryFolder(_ test: XCTestCase) throws -> String {
        let path = NSTemporaryDirectory() + "model-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Writes `text` to `path`.
    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
