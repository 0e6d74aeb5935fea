#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The problems that stopped a target file from loading, as diagnostics ready to render.
public struct YAMLLoadError: Error, Sendable, Hashable {
    /// Every problem found, sorted; never empty.
    public var diagnostics: [Diagnostic]

    /// Creates an error from diagnostics.
    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics.sorted()
    }
}

/// Loads a target file's YAML into a ``Node`` tree, refusing anything that is not one well-formed,
/// reasonably sized UTF-8 document.
///
/// ```swift
/// let root = try YAMLLoader.load(bytes, file: "targets/github.yaml")
/// ```
public enum YAMLLoader {
    /// Loads one YAML document from `bytes`.
    ///
    /// Checks, in order: size; encoding (UTF-16/32 refused, a UTF-8 byte-order mark skipped);
    /// well-formed UTF-8 with no control bytes; then libyaml's syntax, one document, no duplicate
    /// or non-scalar keys, known aliases, and `limits`. Aliases resolve to the node their anchor
    /// names (the same value, not a copy to build).
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the file's name as diagnostics should show it.
    ///   - limits: the bounds for hostile input.
    /// - Returns: the document's root node.
    /// - Throws: ``YAMLLoadError`` with every problem found (syntax errors stop at the first).
    public static func load(_ bytes: [UInt8], file: String, limits: YAMLLimits = .default) throws(YAMLLoadError) -> Node
    {
        let result: Result<Node, YAMLLoadError> = bytes.withUnsafeBufferPointer { buffer in
            load(buffer, file: file, limits: limits)
        }
        return try result.get()
    }

    /// Loads one YAML document from `data`; see ``load(_:file:limits:)``.
    public static func load(_ data: Data, file: String, limits: YAMLLimits = .default) throws(YAMLLoadError) -> Node {
        let result: Result<Node, YAMLLoadError> = data.withUnsafeBytes { raw in
            load(raw.bindMemory(to: UInt8.self), file: file, limits: limits)
        }
        return try result.get()
    }

    /// Loads one YAML document from `bytes`, handing each entry of the root mapping's `cases`
    /// mapping to `caseSink` as soon as it is built instead of keeping it: the returned tree holds
    /// `cases` as an empty mapping. Every check and limit applies as in ``load(_:file:limits:)``;
    /// when loading fails, what the sink was given is to be discarded.
    ///
    /// With `release`, the pages of `bytes` libyaml has read past are given back as it goes (see
    /// ``InputRelease``): `bytes` then no longer holds the file afterwards.
    package static func load(
        _ bytes: [UInt8], file: String, limits: YAMLLimits, release: InputRelease? = nil,
        caseSink: @escaping (Node.Scalar, Node) -> Void
    ) throws(YAMLLoadError) -> Node {
        let result: Result<Node, YAMLLoadError> = bytes.withUnsafeBufferPointer { buffer in
            load(buffer, file: file, limits: limits, release: release, caseSink: caseSink)
        }
        return try result.get()
    }

    private static func load(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, limits: YAMLLimits, release: InputRelease? = nil,
        caseSink: ((Node.Scalar, Node) -> Void)? = nil
    ) -> Result<Node, YAMLLoadError> {
        func failure(_ problems: [LocatedProblem]) -> Result<Node, YAMLLoadError> {
            .failure(
                YAMLLoadError(
                    diagnostics: problems.map {
                        Diagnostic(.error, file: file, mark: $0.mark, message: $0.problem.message)
                    }))
        }
        guard bytes.count <= limits.maximumFileSize else {
            return failure([
                LocatedProblem(problem: .fileTooLarge(size: bytes.count, limit: limits.maximumFileSize), mark: nil)
            ])
        }
        if let encoding = SourceScreen.foreignEncoding(of: bytes) {
            return failure([LocatedProblem(problem: .wrongEncoding(name: encoding), mark: nil)])
        }
        let text =
            bytes.starts(with: SourceScreen.utf8ByteOrderMark)
            ? UnsafeBufferPointer(rebasing: bytes.dropFirst(3)) : bytes
        guard !text.isEmpty else { return failure([LocatedProblem(problem: .emptyFile, mark: nil)]) }

        // A large file's parse starts on its own thread while this one screens the bytes, a pass
        // over the whole file the parse need not wait for: no event is read before the screen has
        // passed, and a refused file stops the parse (the parser's deinit) with nothing read.
        let parser = LibYAMLParser(input: text, maximumScalarLength: limits.maximumScalarLength, release: release)
        if let problem = SourceScreen.firstForbiddenByte(in: text) { return failure([problem]) }
        release?.screenPassed.store(true, ordering: .releasing)
        var builder = NodeBuilder(parser: parser, limits: limits, caseSink: caseSink)
        do {
            let root = try builder.loadSingleDocument()
            guard builder.problems.isEmpty else { return failure(builder.problems) }
            guard let root, !isEmptyDocument(root) else {
                return failure([LocatedProblem(problem: .emptyFile, mark: nil)])
            }
            return .success(root)
        } catch {
            return failure(builder.problems + [error])
        }
    }

    /// A document with nothing in it (`---` alone) is as empty as a file with nothing in it.
    private static func isEmptyDocument(_ root: Node) -> Bool {
        guard case .scalar(let scalar) = root else { return false }
        return scalar.isPlain && scalar.tag == nil && scalar.text.isEmpty
    }
}
