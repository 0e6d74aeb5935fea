/// Why a text is not valid JSON, and where: a byte offset and the 1-based line and column.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The input holds nothing but whitespace.
        case emptyInput
        /// The input ends inside a value.
        case unexpectedEndOfInput
        /// A character that cannot start or continue the value here; `expected` says what could.
        case unexpectedCharacter(found: String, expected: String)
        /// A number that does not follow RFC 8259 (leading zeros, a lone `-`, `1.`, `.5`, `1e`...).
        case invalidNumber(String)
        /// A backslash followed by something other than `" \ / b f n r t u`.
        case invalidEscape(String)
        /// A `\u` escape that is not four hexadecimal digits, or a lone UTF-16 surrogate.
        case invalidUnicodeEscape(String)
        /// A control character (below U+0020) inside a string; it must be escaped.
        case unescapedControlCharacter(UInt8)
        /// Bytes inside a string that are not UTF-8.
        case invalidUTF8
        /// More input after the value ended.
        case trailingCharacters
        /// Arrays and objects nested deeper than the parser allows.
        case tooDeeplyNested(limit: Int)
    }

    /// What went wrong.
    public let reason: Reason
    /// The 0-based byte offset of the problem.
    public let offset: Int
    /// The 1-based line of the problem.
    public let line: Int
    /// The 1-based column (in Unicode scalars) of the problem.
    public let column: Int

    /// Creates an error.
    public init(reason: Reason, offset: Int, line: Int, column: Int) {
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// The reason in words, without the location.
    public var message: String {
        switch reason {
        case .emptyInput:
            return "the input is empty; expected a JSON value"
        case .unexpectedEndOfInput:
            return "the input ends in the middle of a value"
        case .unexpectedCharacter(let found, let expected):
            return "unexpected \(found); expected \(expected)"
        case .invalidNumber(let text):
            return "'\(text)' is not a valid JSON number"
        case .invalidEscape(let text):
            return "'\\\(text)' is not a valid escape; use one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
        case .invalidUnicodeEscape(let text):
            return "'\(text)' is not a valid unicode escape (four hex digits; surrogates must come in pairs)"
        case .unescapedControlCharacter(let byte):
            let hex = String(byte, radix: 16, uppercase: true)
            return
                "control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex) must be escaped inside a string"
        case .invalidUTF8:
            return "a string holds bytes that are not valid UTF-8"
        case .trailingCharacters:
            return "unexpected text after the JSON value"
        case .tooDeeplyNested(let limit):
            return "arrays and objects are nested more than \(limit) levels deep"
        }
    }

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }
}
