/// A strict RFC 8259 syntax check reporting where the first problem is (sample files ending in `.json`).
public struct JSONSyntaxChecker {
    /// The first syntax problem of a JSON text.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        public var message: String
        /// Where, 1-based line and column (columns count bytes).
        public var mark: Mark

        /// `line:col: message`.
        public var description: String { "\(mark): \(message)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    private static let maximumDepth = 512

    /// The first problem in `bytes`, or `nil` when they are one valid JSON value.
    public static func firstProblem(in bytes: [UInt8]) -> Problem? {
        var checker = JSONSyntaxChecker(bytes: bytes)
        do throws(Problem) {
            try checker.skipWhitespace()
            try checker.value()
            try checker.skipWhitespace()
            if checker.index < bytes.count { throw checker.problem("unexpected text after the JSON value") }
            return nil
        } catch {
            return error
        }
    }

    private init(bytes: [UInt8]) {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        self.bytes = bytes
        self.index = start
        self.lineStart = start
    }

    private func problem(_ message: String) -> Problem {
        Problem(message: message, mark: Mark(line: line, column: index - lineStart + 1))
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() throws(Problem) {
        while let byte = current {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func value() throws(Problem) {
        guard let byte = current else { throw problem("expected a value, found the end of the file") }
        switch byte {
        case UInt8(ascii: "{"): try container(close: UInt8(ascii: "}"), isObject: true)
        case UInt8(ascii: "["): try container(close: UInt8(ascii: "]"), isObject: false)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw problem("expected a value, found '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func container(close: UInt8, isObject: Bool) throws(Problem) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw problem("nesting deeper than \(Self.maximumDepth)") }
        index += 1
        try skipWhitespace()
        if current == close {
            index += 1
            depth -= 1
            return
        }
        while true {
            if isObject {
                guard current == UInt8(ascii: "\"") else { throw problem("expected a string key") }
                try string()
                try skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw problem("expected ':' after the key") }
                index += 1
                try skipWhitespace()
            }
            try value()
            try skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                try skipWhitespace()
                continue
            }
            guard current == close else {
                throw problem("expected ',' or '\(Character(Unicode.Scalar(close)))'")
            }
            index += 1
            depth -= 1
            return
        }
    }

    private mutating func literal(_ word: String) throws(Problem) {
        for expected in word.utf8 {
            guard current == expected else { throw problem("invalid literal; expected '\(word)'") }
            index += 1
        }
    }

    private mutating func string() throws(Problem) {
        index += 1
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                guard let escape = current else { break }
                if escape == UInt8(ascii: "u") {
                    index += 1
                    for _ in 0..<4 {
                        guard let hex = current, Self.isHexDigit(hex) else { throw problem("invalid \\u escape") }
                        index += 1
                    }
                } else if Array("\"\\/bfnrt".utf8).contains(escape) {
                    index += 1
                } else {
                    throw problem("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
            case 0..<0x20:
                throw problem("control character in a string (escape it)")
            default:
                index += 1
            }
        }
        throw problem("unterminated string")
    }

    private mutating func number() throws(Problem) {
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, Self.isDigit(first) else { throw problem("expected a digit") }
        index += 1
        if first != UInt8(ascii: "0") {
            while let byte = current, Self.isDigit(byte) { index += 1 }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let byte = current, Self.isDigit(byte) else { throw problem("expected a digit after '.'") }
            while let byte = current, Self.isDigit(byte) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let byte = current, Self.isDigit(byte) else { throw problem("expected a digit in the exponent") }
            while let byte = current, Self.isDigit(byte) { index += 1 }
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
