import OrderedJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Binds command-line style arguments to a case's values: positional strings in declared order
/// and/or named ones, converted to their types, defaults filled in; an optional value not given
/// has no entry.
///
/// Used by the loader to check `examples`, and by the CLI for `call API CASE VALUES... --name value`.
public struct ArgumentBinder: Sendable {
    /// The case's name, for messages.
    public var caseName: String
    /// The case's values, in declared order.
    public var values: [ValueSpec]
    /// Relative `file` paths are taken from here (`nil`: the current folder).
    public var fileBaseDirectory: String?
    /// When the words come from a target file (its examples), the folder `file` values must be
    /// inside; `nil` for the command line, which may name any file.
    public var fileRoot: String?
    /// Where a target file's validation records what it asks of the file system (its examples'
    /// `file` values); see ``FileProbes``.
    var probes: FileProbes?

    /// Creates a binder.
    public init(caseName: String, values: [ValueSpec], fileBaseDirectory: String? = nil, fileRoot: String? = nil) {
        self.caseName = caseName
        self.values = values
        self.fileBaseDirectory = fileBaseDirectory
        self.fileRoot = fileRoot
    }

    /// A binder for a target file's own examples, recording its file checks in `probes`.
    init(caseName: String, values: [ValueSpec], fileBaseDirectory: String, fileRoot: String, probes: FileProbes?) {
        self.init(caseName: caseName, values: values, fileBaseDirectory: fileBaseDirectory, fileRoot: fileRoot)
        self.probes = probes
    }

    /// Every value bound, defaults filled in (an optional value not given is absent).
    ///
    /// - Throws: the first `ArgumentError`; `bindReportingAll` gives them all.
    public func bind(positional: [String] = [], named: [String: String] = [:]) throws(ArgumentError) -> [String:
        ArgumentValue]
    {
        let result = bindReportingAll(positional: positional, named: named)
        if let first = result.errors.first { throw first }
        return result.arguments
    }

    /// The values that could be bound and every problem found, in declared order.
    public func bindReportingAll(positional: [String] = [], named: [String: String] = [:]) -> (
        arguments: [String: ArgumentValue], errors: [ArgumentError]
    ) {
        bindReportingAll(positional: positional, namedWords: named.mapValues { [$0] })
    }

    /// The same, with every word given for each named value (`--labels a --labels b`): only a list
    /// value may be given more than once.
    public func bindReportingAll(positional: [String] = [], namedWords: [String: [String]]) -> (
        arguments: [String: ArgumentValue], errors: [ArgumentError]
    ) {
        var arguments: [String: ArgumentValue] = [:]
        var errors: [ArgumentError] = []
        var given: [String: [String]] = [:]
        if positional.count > values.count {
            errors.append(
                .tooManyValues(
                    caseName: caseName, given: positional.count, accepted: values.count, names: values.map(\.name)))
        }
        for (value, text) in zip(values, positional) {
            given[value.name] = [text]
        }
        let declaredNames = values.map(\.name)
        for name in namedWords.keys.sorted() {
            guard let words = namedWords[name] else { continue }
            if let value = values.first(where: { $0.name == name }) {
                if given[name] != nil {
                    errors.append(.duplicateValue(name: name))
                } else if words.count > 1 && value.type.elementType == nil {
                    errors.append(.repeatedValue(name: name))
                    given[name] = [words[0]]
                } else {
                    given[name] = words
                }
            } else {
                errors.append(
                    .unknownValue(
                        name: name, suggestion: Suggestion.closest(to: name, in: declaredNames),
                        available: declaredNames))
            }
        }
        for value in values {
            if let words = given[value.name] {
                do throws(ArgumentError) {
                    arguments[value.name] = try convert(words, for: value)
                } catch {
                    errors.append(error)
                }
            } else if let defaultValue = value.defaultValue {
                arguments[value.name] = defaultValue
            } else if value.isOptional {
                // Left out: what a lone placeholder of it builds is left out of the request.
                continue
            } else {
                errors.append(.missingValue(name: value.name, type: value.type))
            }
        }
        return (arguments, errors)
    }

    /// The words given for `value` converted to its type: a list takes every word, each split at
    /// commas (`--labels bug,ui --labels docs`), empty pieces dropped; any other type one word.
    public func convert(_ words: [String], for value: ValueSpec) throws(ArgumentError) -> ArgumentValue {
        guard let elementType = value.type.elementType else { return try convert(words.first ?? "", for: value) }
        var element = value
        element.type = elementType
        var elements: [ArgumentValue] = []
        for word in words {
            for piece in word.split(separator: ",", omittingEmptySubsequences: true) {
                elements.append(try convert(String(piece), for: element))
            }
        }
        return .list(elements)
    }

    /// `text` converted to `value`'s type; a `file` must name a readable file; a list's text is
    /// its comma-separated elements.
    public func convert(_ text: String, for value: ValueSpec) throws(ArgumentError) -> ArgumentValue {
        let converted = try convertToType(text, for: value)
        if let cases = value.allowedCases, !Self.isOneOf(converted, cases) {
            throw .invalidValue(text, name: value.name, type: .enumeration(cases))
        }
        return converted
    }

    /// Whether a converted int, double or bool is one of `cases` (compared as numbers: `1.50` is `1.5`).
    static func isOneOf(_ value: ArgumentValue, _ cases: [String]) -> Bool {
        switch value {
        case .int(let number): cases.contains { Int($0) == number }
        case .double(let number): cases.contains { JSONNumber(decimal: $0)?.doubleValue == number.doubleValue }
        case .bool(let flag): cases.contains(flag ? "true" : "false")
        default: cases.contains(value.text)
        }
    }

    private func convertToType(_ text: String, for value: ValueSpec) throws(ArgumentError) -> ArgumentValue {
        switch value.type {
        case .list:
            return try convert([text], for: value)
        case .string:
            return .string(text)
        case .int:
            guard let number = Int(text) else { throw .invalidValue(text, name: value.name, type: value.type) }
            return .int(number)
        case .double:
            // Decimal only (no `0x1p3`, `inf`, `nan`), finite, and kept as written.
            guard let number = JSONNumber(decimal: text), number.doubleValue != nil else {
                throw .invalidValue(text, name: value.name, type: value.type)
            }
            return .double(number)
        case .bool:
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: throw .invalidValue(text, name: value.name, type: value.type)
            }
        case .enumeration(let cases):
            guard cases.contains(text) else { throw .invalidValue(text, name: value.name, type: value.type) }
            return .enumCase(text)
        case .file:
            // `-`, typed on the command line (not in a file's examples): standard input, streamed.
            if text == "-" && fileRoot == nil { return .file(path: "-") }
            let path = fileBaseDirectory.map { RelativeFile.resolve(text, against: $0) } ?? text
            if let fileRoot, !RelativeFile.isInside(path, root: fileRoot, probes: probes) {
                throw .fileOutsideRoot(path: text, name: value.name, root: fileRoot)
            }
            switch RelativeFile.problem(at: path, probes: probes) {
            case nil: return .file(path: path)
            case .missing: throw .fileNotFound(path: text, name: value.name)
            case .notReadable: throw .fileUnreadable(path: text, name: value.name)
            }
        }
    }
}
