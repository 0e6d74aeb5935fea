/// Everything that can stop a target file from loading as YAML, with the message the user sees.
package enum YAMLProblem: Sendable, Hashable {
    /// The file could not be read at all.
    case unreadable(reason: String)
    /// The file is larger than ``YAMLLimits/maximumFileSize``.
    case fileTooLarge(size: Int, limit: Int)
    /// The file starts with a UTF-16 or UTF-32 byte-order mark, or looks like UTF-16 without one.
    case wrongEncoding(name: String)
    /// A byte that is not part of well-formed UTF-8, and where it is.
    case invalidUTF8(byte: UInt8, at: Mark)
    /// A control byte (other than tab, line feed, carriage return), and where it is.
    case binaryByte(UInt8, at: Mark)
    /// A control or non-character code point that YAML does not allow (C1 controls, U+FFFE, U+FFFF).
    case binaryCharacter(Unicode.Scalar, at: Mark)
    /// The file holds no document, or only an empty one.
    case emptyFile
    /// libyaml refused the text: its problem, and the construct it was reading and where that began.
    case syntax(problem: String, context: String?, contextMark: Mark?, hint: String?)
    /// A second `---` document.
    case multipleDocuments
    /// A key written twice in one mapping.
    case duplicateKey(String, firstDefinedAt: Mark)
    /// A sequence or mapping used as a mapping key.
    case nonScalarKey(kind: String)
    /// Collections nested deeper than ``YAMLLimits/maximumDepth``.
    case nestingTooDeep(limit: Int)
    /// A scalar longer than ``YAMLLimits/maximumScalarLength``.
    case scalarTooLong(length: Int, limit: Int)
    /// Aliases that would add more than ``YAMLLimits/maximumAliasExpansion`` nodes.
    case aliasExpansionTooLarge(limit: Int)
    /// Aliases that would add more than ``YAMLLimits/maximumAliasExpansionBytes`` bytes of text.
    case aliasTextTooLarge(limit: Int)
    /// More nodes than ``YAMLLimits/maximumNodes``.
    case tooManyNodes(limit: Int)
    /// More cases than ``YAMLLimits/maximumCases``.
    case tooManyCases(limit: Int)
    /// An alias naming no anchor defined before it.
    case unknownAlias(String)
    /// An alias inside the node its anchor names.
    case recursiveAlias(String)

    /// The message shown after `error:`.
    package var message: String {
        switch self {
        case .unreadable(let reason):
            "cannot read the file: \(reason)"
        case .fileTooLarge(let size, let limit):
            "file is too large (\(size) bytes; the limit is \(Self.describe(bytes: limit)))"
        case .wrongEncoding(let name):
            "file is encoded in \(name); target files must be UTF-8 (save it as UTF-8)"
        case .invalidUTF8(let byte, let mark):
            "file is not valid UTF-8 (byte \(Self.hex(byte)) at \(mark)); save it as UTF-8"
        case .binaryByte(let byte, let mark):
            "file contains binary data (byte \(Self.hex(byte)) at \(mark))"
        case .binaryCharacter(let scalar, let mark):
            "file contains binary data (character \(Self.codePoint(scalar)) at \(mark))"
        case .emptyFile:
            "empty target file"
        case .syntax(let problem, let context, let contextMark, let hint):
            "invalid YAML: \(problem)"
                + (context.map { context in " (\(context)" + (contextMark.map { " at \($0)" } ?? "") + ")" } ?? "")
                + (hint.map { "; \($0)" } ?? "")
        case .multipleDocuments:
            "a target file holds one document; remove this '---' and what follows, or move it to its own file"
        case .duplicateKey(let key, let first):
            "duplicate key '\(key)' (first defined at \(first))"
        case .nonScalarKey(let kind):
            "a mapping key must be a scalar, not a \(kind)"
        case .nestingTooDeep(let limit):
            "nesting is deeper than \(limit) levels"
        case .scalarTooLong(let length, let limit):
            "scalar is too long (\(length) bytes; the limit is \(Self.describe(bytes: limit)))"
        case .aliasExpansionTooLarge(let limit):
            "aliases expand to more than \(limit) nodes; the file is refused (an alias bomb?)"
        case .aliasTextTooLarge(let limit):
            "aliases expand to more than \(Self.describe(bytes: limit)) of text; the file is refused (an alias bomb?)"
        case .tooManyNodes(let limit):
            "the file holds more than \(limit) YAML nodes; the file is refused (a target file needs far fewer)"
        case .tooManyCases(let limit):
            "the file holds more than \(limit) cases; the file is refused (split the API into several files)"
        case .unknownAlias(let name):
            "unknown alias '*\(name)'; no anchor '&\(name)' is defined before it"
        case .recursiveAlias(let name):
            "alias '*\(name)' is inside the node anchored as '&\(name)'; a node cannot contain itself"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count < 2 ? "0" + digits : digits)
    }

    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func describe(bytes: Int) -> String {
        let mebibyte = 1 << 20
        return bytes >= mebibyte && bytes % mebibyte == 0 ? "\(bytes / mebibyte) MiB" : "\(bytes) bytes"
    }
}

/// A problem and where it is; `mark` is `nil` for problems of the file as a whole.
package struct LocatedProblem: Error, Sendable {
    package var problem: YAMLProblem
    package var mark: Mark?
}
