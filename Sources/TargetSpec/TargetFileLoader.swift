/// What loading one target file gave.
public struct TargetFileLoadResult: Sendable {
    /// The API, only when the file has no error (warnings allowed).
    public var api: APISpec?
    /// The API's name (from `api:` or the file name), known even when the file has errors.
    public var apiName: String?
    /// Every problem found, sorted.
    public var diagnostics: [Diagnostic]
    /// The file's lines, to render diagnostics with their source line; `nil` if it could not be read.
    public var sourceLines: SourceLines?

    /// Whether some diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The diagnostics as `file:line:col: error: message` with source lines and carets.
    public func renderedDiagnostics(colored: Bool = false) -> String {
        let lines = sourceLines
        return DiagnosticRenderer.render(diagnostics, source: { _ in lines }, colored: colored)
    }
}

/// Loads a target file: reads it, parses the YAML, validates it into an `APISpec`.
public enum TargetFileLoader {
    /// Loads the file at `path`.
    ///
    /// - Parameters:
    ///   - path: where the file is.
    ///   - file: the name diagnostics show (defaults to `path`).
    ///   - limits: the bounds for hostile input.
    public static func load(path: String, file: String? = nil, limits: YAMLLimits = .default) -> TargetFileLoadResult {
        var documents: [Node] = []
        return load(path: path, file: file, limits: limits, retaining: &documents)
    }

    /// Loads the file at `path` like ``load(path:file:limits:)``, and appends its YAML tree (when
    /// it parsed) to `documents` instead of freeing it.
    ///
    /// For a process about to exit: freeing the hundreds of thousands of nodes of a large file
    /// costs as much as a good part of validating it, and the process ends anyway.
    public static func load(path: String, file: String? = nil, limits: YAMLLimits = .default, retaining documents: inout [Node]) -> TargetFileLoadResult {
        let name = file ?? path
        let bytes: [UInt8]
        do throws(YAMLLoadError) {
            bytes = try YAMLLoader.readFile(atPath: path, file: name, limits: limits)
        } catch {
            return TargetFileLoadResult(api: nil, apiName: TargetFileValidator.defaultAPIName(forFile: name), diagnostics: error.diagnostics, sourceLines: nil)
        }
        return load(bytes: bytes, file: name, directory: APISpec.folder(of: path), limits: limits, retaining: &documents)
    }

    /// Loads a target file's contents.
    ///
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the name diagnostics show.
    ///   - directory: the folder relative paths are taken from (defaults to `file`'s folder).
    ///   - limits: the bounds for hostile input.
    public static func load(bytes: [UInt8], file: String, directory: String? = nil, limits: YAMLLimits = .default) -> TargetFileLoadResult {
        var documents: [Node] = []
        return load(bytes: bytes, file: file, directory: directory, limits: limits, retaining: &documents)
    }

    private static func load(bytes: [UInt8], file: String, directory: String?, limits: YAMLLimits, retaining documents: inout [Node]) -> TargetFileLoadResult {
        let lines = SourceLines(bytes: bytes)
        let root: Node
        do throws(YAMLLoadError) {
            root = try YAMLLoader.load(bytes, file: file, limits: limits)
        } catch {
            return TargetFileLoadResult(api: nil, apiName: TargetFileValidator.defaultAPIName(forFile: file), diagnostics: error.diagnostics, sourceLines: lines)
        }
        var validator = TargetFileValidator(file: file, directory: directory)
        let api = validator.validate(root)
        documents.append(root)
        return TargetFileLoadResult(api: api, apiName: validator.apiName, diagnostics: validator.diagnostics, sourceLines: lines)
    }

    /// Loads a target file from text (tests, `validate -`).
    public static func load(text: String, file: String, directory: String? = nil) -> TargetFileLoadResult {
        load(bytes: Array(text.utf8), file: file, directory: directory)
    }
}
