import PositionedYAML
import TargetModel

/// What loading one target file gave.
public struct TargetFileLoadResult: Sendable {
    /// The API, only when the file has no error (warnings allowed).
    public var api: APISpec?
    /// The API's name (from `api:` or the file name), known even when the file has errors.
    public var apiName: String?
    /// Every problem found, sorted.
    public var diagnostics: [Diagnostic]
    /// The file's lines, to render diagnostics with their source line; `nil` when there is no
    /// diagnostic (no command renders one after loading, and a sweep of a large file held its
    /// 1.1 MB to the end) or the file could not be read.
    public var sourceLines: SourceLines?
    /// The valid cases read: the API's, or those handed to `eachCase` (then the API keeps none).
    public var caseCount = 0

    /// Whether some diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The diagnostics as `file:line:col: error: message` with source lines and carets.
    public func renderedDiagnostics(colored: Bool = false, summarizingWarnings: Bool = false) -> String {
        let lines = sourceLines
        return DiagnosticRenderer.render(
            diagnostics, source: { _ in lines }, colored: colored, summarizingWarnings: summarizingWarnings)
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
    ///   - fileRoot: `--file-root`: the folder files the target file names must be inside,
    ///     instead of the file's own folder.
    ///   - eachCase: when given, takes each valid case as soon as it is validated, and the API
    ///     keeps none (its `cases` is empty; ``TargetFileLoadResult/caseCount`` counts them): a
    ///     command that needs each case once (`validate`, `list`) holds a fraction of the memory.
    ///     What it took is to be discarded when the result has errors. See
    ///     ``TargetFileValidator/caseHandler``. The result then keeps the file's lines (and so
    ///     its bytes) only when it has diagnostics: with no case kept, nothing renders later.
    public static func load(
        path: String, file: String? = nil, limits: YAMLLimits = .default, fileRoot: String? = nil,
        eachCase: ((CaseSpec) -> Void)? = nil
    ) -> TargetFileLoadResult {
        let name = file ?? path
        let bytes: [UInt8]
        do throws(YAMLLoadError) {
            bytes = try YAMLLoader.readFile(atPath: path, file: name, limits: limits)
        } catch {
            return TargetFileLoadResult(
                api: nil, apiName: TargetFileValidator.defaultAPIName(forFile: name), diagnostics: error.diagnostics,
                sourceLines: nil)
        }
        // A large file handed on case by case is not held whole while it loads: its pages go
        // once parsed, and it is read again only for the source lines of diagnostics.
        let release =
            eachCase != nil && bytes.count >= releaseThreshold
            ? InputRelease { try? YAMLLoader.readFile(atPath: path, file: name, limits: limits) } : nil
        return load(
            bytes: bytes, file: name, directory: APISpec.folder(of: path), limits: limits, fileRoot: fileRoot,
            release: release, eachCase: eachCase)
    }

    /// Files from this size on that are handed on case by case give their pages back as they load
    /// (see ``InputRelease``).
    package static let releaseThreshold = 1 << 20

    /// Loads a target file's contents.
    ///
    /// The cases are validated one by one as the YAML loader builds them, then dropped, so a large
    /// file is never held whole as a node tree; diagnostics and the API are the same as from
    /// ``YAMLLoader/load(_:file:limits:)`` and ``TargetFileValidator/validate(_:)``.
    ///
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the name diagnostics show.
    ///   - directory: the folder relative paths are taken from (defaults to `file`'s folder).
    ///   - limits: the bounds for hostile input.
    ///   - eachCase: takes each valid case instead of the API; see ``load(path:file:limits:fileRoot:eachCase:)``.
    public static func load(
        bytes: [UInt8], file: String, directory: String? = nil, limits: YAMLLimits = .default,
        fileRoot: String? = nil, eachCase: ((CaseSpec) -> Void)? = nil
    ) -> TargetFileLoadResult {
        load(
            bytes: bytes, file: file, directory: directory, limits: limits, fileRoot: fileRoot, release: nil,
            eachCase: eachCase)
    }

    /// ``load(bytes:file:directory:limits:fileRoot:eachCase:)``, giving `bytes`' pages back as
    /// they are parsed when `release` is given (then the lines of diagnostics are read again).
    package static func load(
        bytes: [UInt8], file: String, directory: String?, limits: YAMLLimits, fileRoot: String?,
        release: InputRelease?, eachCase: ((CaseSpec) -> Void)?, tree: TreeWriter? = nil, probes: FileProbes? = nil
    ) -> TargetFileLoadResult {
        // The bytes as read, or, once pages of them went, the file read again.
        var lines: SourceLines? {
            release.map { $0.reread().map(SourceLines.init(bytes:)) } ?? SourceLines(bytes: bytes)
        }
        var validator = validator(file: file, directory: directory, fileRoot: fileRoot, eachCase: eachCase)
        validator.probes = probes
        let root: Node
        do throws(YAMLLoadError) {
            root = try YAMLLoader.load(bytes, file: file, limits: limits, release: release) { name, node in
                tree?.add(name: name, node: node)
                validator.readStreamedCase(name: name, node: node)
            }
        } catch {
            // Only the load errors count: the file is not what the cases seen so far were part of.
            return TargetFileLoadResult(
                api: nil, apiName: TargetFileValidator.defaultAPIName(forFile: file), diagnostics: error.diagnostics,
                sourceLines: lines)
        }
        tree?.root = root
        return result(of: &validator, root: root, lines: lines)
    }

    /// The validator of every load: cases handed on one by one, to `eachCase` if given.
    private static func validator(file: String, directory: String?, fileRoot: String?, eachCase: ((CaseSpec) -> Void)?)
        -> TargetFileValidator
    {
        var validator = TargetFileValidator(file: file, directory: directory, fileRoot: fileRoot)
        validator.caseHandler = eachCase
        validator.beginStreamingCases()
        return validator
    }

    /// Validates what is left once the cases went through `validator`: the root.
    private static func result(
        of validator: inout TargetFileValidator, root: Node, lines: @autoclosure () -> SourceLines?
    ) -> TargetFileLoadResult {
        let api = validator.validate(root)
        return TargetFileLoadResult(
            api: api, apiName: validator.apiName, diagnostics: validator.diagnostics,
            sourceLines: validator.diagnostics.isEmpty ? nil : lines(),
            caseCount: validator.caseCount)
    }

    /// Validates a tree the load cache kept, as loading its file validates it: the same result.
    static func validate(
        _ tree: LoadCacheReader.Tree, file: String, directory: String?, fileRoot: String?,
        eachCase: ((CaseSpec) -> Void)?, probes: FileProbes?, lines: @autoclosure () -> SourceLines?
    ) -> TargetFileLoadResult {
        var validator = validator(file: file, directory: directory, fileRoot: fileRoot, eachCase: eachCase)
        validator.probes = probes
        for (name, node) in tree.cases { validator.readStreamedCase(name: name, node: node) }
        return result(of: &validator, root: tree.root, lines: lines())
    }

    /// Validates the root and the one case of `tree` (see ``LoadCacheReader/tree(only:)``) of a
    /// file the load cache kept, whose whole validation gave `summary`, and whose questions to the
    /// file system still get the same answers: the case and the API are what validating the whole
    /// file gives (a case's checks depend on nothing else in the file but the API's auth, see
    /// `TargetFileValidator+StreamedCases.swift`), the rest is the summary's. `nil` should the
    /// case or the root now have an error (which the whole validation would have found too).
    static func validateOneCase(
        _ tree: LoadCacheReader.Tree, of summary: LoadCache.Summary, file: String, directory: String?,
        fileRoot: String?, eachCase: @escaping (CaseSpec) -> Void, lines: @autoclosure () -> SourceLines?
    ) -> TargetFileLoadResult? {
        var validator = validator(file: file, directory: directory, fileRoot: fileRoot, eachCase: eachCase)
        validator.checksAcrossCases = false
        for (name, node) in tree.cases { validator.readStreamedCase(name: name, node: node) }
        guard var api = validator.validate(tree.root) else { return nil }
        api.environmentVariables = summary.environmentVariables
        return TargetFileLoadResult(
            api: api, apiName: validator.apiName, diagnostics: summary.diagnostics,
            sourceLines: summary.diagnostics.isEmpty ? nil : lines(), caseCount: summary.caseCount)
    }

    /// A file's tree as the streaming load leaves it, written for the load cache as it loads:
    /// each case handed on, then the root (its `cases` emptied).
    package final class TreeWriter {
        let cases: LoadCacheWriter
        /// Each case's length in `cases` (its name and node).
        var lengths: [Int] = []
        var root: Node?

        /// A writer with room for `capacity` bytes of cases (about twice the file's size).
        package init(capacity: Int = 0) {
            cases = LoadCacheWriter(capacity: capacity)
        }

        func add(name: Node.Scalar, node: Node) {
            let start = cases.count
            cases.scalar(name)
            cases.node(node)
            lengths.append(cases.count - start)
        }

        /// The root, the count of cases, then each case's length, name and node: what
        /// ``LoadCache/Hit/tree(only:)`` reads.
        var bytes: [UInt8]? {
            guard let root else { return nil }
            let writer = LoadCacheWriter(capacity: 64 + cases.count * 5 / 4 + 3 * lengths.count)
            writer.node(root)
            writer.number(UInt64(lengths.count))
            var offset = 0
            for length in lengths {
                writer.number(UInt64(length))
                writer.append(contentsOf: cases, from: offset, count: length)
                offset += length
            }
            return writer.bytes
        }
    }

    /// What a one-case load gives besides the file's result: the valid cases' names and the one asked for.
    package struct KeptCase {
        /// The valid cases' names, in file order.
        package var names: [String] = []
        /// The case asked for, when the file has a valid one of that name.
        package var spec: CaseSpec?
        /// The tree read from the load cache, for the caller to keep until the process ends
        /// (freeing it node by node would cost a quarter of a stubbed call).
        package var tree: LoadCacheReader.Tree?
        /// Whether the case alone was validated, the rest of its file taken from the load cache.
        package var validatedAlone = false
    }

    /// Loads the file at `path` for a command that needs one case of the API `api` (`call`,
    /// `curl`): the result's API keeps no case (as with `eachCase`); the case named `caseName`
    /// comes apart. Through `cache` when given (see ``LoadCache``): an unchanged file of this API
    /// that loaded without errors before is validated again from its entry's tree, without
    /// parsing it; an unchanged file of another API gives what its entry says (its name, that it
    /// is valid, its warnings) and no API: the catalog of such a load answers only for `api`. A
    /// file loaded anew writes its entry when it has no error.
    package static func load(
        path: String, file: String, fileRoot: String?, keepingOnly caseName: String, ofAPI api: String,
        cache: LoadCache?
    ) -> (TargetFileLoadResult, KeptCase) {
        var kept = KeptCase()
        let eachCase: (CaseSpec) -> Void = { spec in
            kept.names.append(spec.name)
            if spec.name == caseName { kept.spec = spec }
        }
        let key = cache?.key(path: path, file: file, fileRoot: fileRoot) ?? nil
        var lines: SourceLines? {
            (try? YAMLLoader.readFile(atPath: path, file: file, limits: .default)).map(SourceLines.init(bytes:))
        }
        if let cache, let key, let hit = cache.lookUp(key, path: path) {
            let summary = hit.summary
            if summary.apiName != api {
                let result = TargetFileLoadResult(
                    api: nil, apiName: summary.apiName, diagnostics: summary.diagnostics,
                    sourceLines: summary.diagnostics.isEmpty ? nil : lines, caseCount: summary.caseCount)
                return (result, KeptCase(names: summary.caseNames))
            }
            // The case alone, when the file's questions to the file system get their answers
            // still: the rest of the file is as valid as it was (see ``FileProbes``).
            if summary.caseNames.contains(caseName), FileProbes.stillHold(summary.probes),
                let tree = hit.tree(only: caseName), tree.cases.count == 1,
                let result = validateOneCase(
                    tree, of: summary, file: file, directory: APISpec.folder(of: path), fileRoot: fileRoot,
                    eachCase: eachCase, lines: lines),
                kept.spec != nil
            {
                kept.names = summary.caseNames
                kept.tree = tree
                kept.validatedAlone = true
                return (result, kept)
            }
            kept = KeptCase()
            // Every case again, from the tree: an answer changed (in a valid file every file is
            // there, readable, inside and JSON where it must be, so the file now has an error and
            // the entry stays as it is, true again once the change is undone), or the case asked
            // for is not in the file.
            if let tree = hit.tree() {
                let result = validate(
                    tree, file: file, directory: APISpec.folder(of: path), fileRoot: fileRoot, eachCase: eachCase,
                    probes: nil, lines: lines)
                kept.tree = tree
                return (result, kept)
            }
        }
        // The fingerprint before the bytes are read: a change while they are read shows as a change.
        // A large file is not kept: its load parses on a thread of its own, so validating it again
        // from a tree would save little, and hold the tree.
        let fingerprint =
            key == nil ? nil : FileFingerprint.settled(path).flatMap { $0.size < releaseThreshold ? $0 : nil }
        let tree = fingerprint.map { TreeWriter(capacity: 2 * Int($0.size)) }
        let probes = tree.map { _ in FileProbes() }
        let result: TargetFileLoadResult
        do throws(YAMLLoadError) {
            let bytes = try YAMLLoader.readFile(atPath: path, file: file, limits: .default)
            let release =
                bytes.count >= releaseThreshold
                ? InputRelease { try? YAMLLoader.readFile(atPath: path, file: file, limits: .default) } : nil
            result = load(
                bytes: bytes, file: file, directory: APISpec.folder(of: path), limits: .default, fileRoot: fileRoot,
                release: release, eachCase: eachCase, tree: tree, probes: probes)
        } catch {
            return (
                TargetFileLoadResult(
                    api: nil, apiName: TargetFileValidator.defaultAPIName(forFile: file),
                    diagnostics: error.diagnostics,
                    sourceLines: nil), kept
            )
        }
        if let cache, let key, let fingerprint, let bytes = tree?.bytes, let probes, !result.hasErrors {
            cache.store(
                key, file: fingerprint, result: result, caseNames: kept.names, probes: probes.probes, tree: bytes)
        }
        return (result, kept)
    }

    /// Loads a target file from text (tests, `validate -`).
    public static func load(text: String, file: String, directory: String? = nil, fileRoot: String? = nil)
        -> TargetFileLoadResult
    {
        load(bytes: Array(text.utf8), file: file, directory: directory, fileRoot: fileRoot)
    }
}
