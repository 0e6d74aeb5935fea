/// One word of a shell command line with its quoting removed, and where it starts.
package struct ShellWord: Sendable, Equatable {
    package var bytes: [UInt8]
    package var place: TextPlace
    /// Whether a shell would have expanded part of it (`$(…)`, a backtick, `$NAME` outside single
    /// quotes); the text is kept as written, never run.
    package var hasExpansion: Bool

    package init(_ text: String, place: TextPlace = TextPlace(line: 1, column: 1), hasExpansion: Bool = false) {
        bytes = Array(text.utf8)
        self.place = place
        self.hasExpansion = hasExpansion
    }

    package init(bytes: [UInt8], place: TextPlace, hasExpansion: Bool) {
        self.bytes = bytes
        self.place = place
        self.hasExpansion = hasExpansion
    }

    /// The word as text, invalid UTF-8 replaced (for messages and options that take text).
    package var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// The words of one command (one line, or up to a `;`).
package struct ShellCommandLine: Sendable, Equatable {
    package var words: [ShellWord]
    package var place: TextPlace { words.first?.place ?? TextPlace(line: 1, column: 1) }
}

/// Splits text into shell commands and words the way bash and POSIX sh quote them, as a
/// browser's "Copy as cURL" writes them: `'…'`, `"…"`, `$'…'` (ANSI-C escapes), `\` escapes,
/// `\`+newline continuations, commands separated by newlines or `;`, `#` comments.
///
/// Nothing is ever expanded or run: `$(…)`, backticks and `$NAME` stay text (the word says it
/// held one). Pipes, redirections and `&` are refused: the text must be plain commands.
package struct ShellWordsReader {
    /// At most this many words in one command and commands in one text.
    package static let maximumWords = 10_000
    package static let maximumCommands = 10_000

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The commands in `bytes`, empty ones left out.
    package static func commands(in bytes: [UInt8]) throws(RequestImportError) -> [ShellCommandLine] {
        var reader = ShellWordsReader(bytes)
        return try reader.readCommands()
    }

    private var place: TextPlace { TextPlace(line: line, column: index - lineStart + 1) }

    private mutating func readCommands() throws(RequestImportError) -> [ShellCommandLine] {
        var commands: [ShellCommandLine] = []
        var words: [ShellWord] = []
        func endCommand() throws(RequestImportError) {
            guard !words.isEmpty else { return }
            commands.append(ShellCommandLine(words: words))
            words = []
            guard commands.count <= Self.maximumCommands else {
                throw RequestImportError("more than \(Self.maximumCommands) commands; import fewer at a time")
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                index += 1
            case UInt8(ascii: "\r") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n"):
                index += 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                newLine(after: index)
                try endCommand()
            case UInt8(ascii: ";"):
                index += 1
                try endCommand()
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n"), bytes[index] != UInt8(ascii: "\r") {
                    index += 1
                }
            case UInt8(ascii: "\\") where continuationLength(at: index) > 0:
                let length = continuationLength(at: index)
                newLine(after: index + length - 1)
            default:
                words.append(try readWord())
                guard words.count <= Self.maximumWords else {
                    throw RequestImportError(
                        "a command of more than \(Self.maximumWords) words", at: commands.last?.place ?? place)
                }
            }
        }
        try endCommand()
        return commands
    }

    /// The length of a `\` + line break at `offset` (2 or 3), or 0.
    private func continuationLength(at offset: Int) -> Int {
        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\") else { return 0 }
        if bytes[offset + 1] == UInt8(ascii: "\n") { return 2 }
        if bytes[offset + 1] == UInt8(ascii: "\r") {
            return offset + 2 < bytes.count && bytes[offset + 2] == UInt8(ascii: "\n") ? 3 : 2
        }
        return 0
    }

    private mutating func newLine(after offset: Int) {
        index = offset + 1
        line += 1
        lineStart = index
    }

    private mutating func readWord() throws(RequestImportError) -> ShellWord {
        let start = place
        var word: [UInt8] = []
        var expands = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ";"):
                return ShellWord(bytes: word, place: start, hasExpansion: expands)
            case 0:
                throw RequestImportError("a NUL byte in the text", at: place)
            case UInt8(ascii: "|"), UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "("),
                UInt8(ascii: ")"):
                throw RequestImportError(
                    "the shell operator '\(Character(Unicode.Scalar(byte)))' is not read: give plain curl commands (quote it if it is part of a value)",
                    at: place)
            case UInt8(ascii: "\\"):
                let continuation = continuationLength(at: index)
                if continuation > 0 {
                    newLine(after: index + continuation - 1)
                } else if index + 1 < bytes.count {
                    word.append(bytes[index + 1])
                    index += 2
                } else {
                    index += 1
                }
            case UInt8(ascii: "'"):
                try readSingleQuoted(into: &word)
            case UInt8(ascii: "\""):
                expands = try readDoubleQuoted(into: &word) || expands
            case UInt8(ascii: "$") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "'"):
                index += 1
                try readANSIC(into: &word)
            case UInt8(ascii: "$"), UInt8(ascii: "`"):
                expands = expands || readExpansion(into: &word)
            default:
                word.append(byte)
                index += 1
            }
        }
        return ShellWord(bytes: word, place: start, hasExpansion: expands)
    }

    /// Copies `$(…)`, `` `…` `` or `$NAME` as text; returns whether it was an expansion.
    private mutating func readExpansion(into word: inout [UInt8]) -> Bool {
        let byte = bytes[index]
        if byte == UInt8(ascii: "`") {
            word.append(byte)
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "`"), bytes[index] != 0 {
                word.append(bytes[index])
                index += 1
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "`") {
                word.append(bytes[index])
                index += 1
            }
            return true
        }
        word.append(byte)
        index += 1
        guard index < bytes.count else { return false }
        let next = bytes[index]
        if next == UInt8(ascii: "(") {
            var depth = 0
            while index < bytes.count, bytes[index] != 0 {
                if bytes[index] == UInt8(ascii: "(") { depth += 1 }
                if bytes[index] == UInt8(ascii: ")") { depth -= 1 }
                word.append(bytes[index])
                index += 1
                if depth == 0 { break }
            }
            return true
        }
        return next == UInt8(ascii: "{") || next == UInt8(ascii: "_") || (next | 0x20 >= 0x61 && next | 0x20 <= 0x7A)
    }

    private mutating func readSingleQuoted(into word: inout [UInt8]) throws(RequestImportError) {
        let start = place
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "'") {
                index += 1
                return
            }
            try take(byte, into: &word)
        }
        throw RequestImportError("the ' quote opened here is never closed", at: start)
    }

    /// Returns whether the quoted text held an expansion.
    private mutating func readDoubleQuoted(into word: inout [UInt8]) throws(RequestImportError) -> Bool {
        let start = place
        var expands = false
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return expands
            case UInt8(ascii: "\\") where index + 1 < bytes.count:
                let next = bytes[index + 1]
                if continuationLength(at: index) > 0 {
                    newLine(after: index + continuationLength(at: index) - 1)
                } else if [UInt8(ascii: "$"), UInt8(ascii: "`"), UInt8(ascii: "\""), UInt8(ascii: "\\")].contains(next)
                {
                    word.append(next)
                    index += 2
                } else {
                    word.append(byte)
                    index += 1
                }
            case UInt8(ascii: "$"), UInt8(ascii: "`"):
                expands = readExpansion(into: &word) || expands
            default:
                try take(byte, into: &word)
            }
        }
        throw RequestImportError("the \" quote opened here is never closed", at: start)
    }

    /// A byte inside quotes: line breaks counted, NUL refused.
    private mutating func take(_ byte: UInt8, into word: inout [UInt8]) throws(RequestImportError) {
        guard byte != 0 else { throw RequestImportError("a NUL byte in the text", at: place) }
        word.append(byte)
        if byte == UInt8(ascii: "\n") {
            newLine(after: index)
        } else {
            index += 1
        }
    }

    /// `$'…'`, with `index` at the quote: bash's ANSI-C escapes.
    private mutating func readANSIC(into word: inout [UInt8]) throws(RequestImportError) {
        let start = TextPlace(line: line, column: index - lineStart)
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "'") {
                index += 1
                return
            }
            guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                try take(byte, into: &word)
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "n"): word.append(0x0A)
            case UInt8(ascii: "t"): word.append(0x09)
            case UInt8(ascii: "r"): word.append(0x0D)
            case UInt8(ascii: "a"): word.append(0x07)
            case UInt8(ascii: "b"): word.append(0x08)
            case UInt8(ascii: "e"), UInt8(ascii: "E"): word.append(0x1B)
            case UInt8(ascii: "f"): word.append(0x0C)
            case UInt8(ascii: "v"): word.append(0x0B)
            case UInt8(ascii: "x"):
                word.append(UInt8(truncatingIfNeeded: digits(base: 16, maximum: 2, default: UInt32(escape))))
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                let value = digits(base: 16, maximum: escape == UInt8(ascii: "u") ? 4 : 8, default: 0xFFFD)
                word += Array(String(Character(Unicode.Scalar(value) ?? "\u{FFFD}")).utf8)
            case UInt8(ascii: "c") where index < bytes.count:
                word.append(bytes[index] & 0x1F)
                index += 1
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                index -= 1
                word.append(UInt8(truncatingIfNeeded: digits(base: 8, maximum: 3, default: 0)))
            default:
                // `\\`, `\'`, `\"`, `\?` are the character; bash keeps the backslash of any other.
                if ![UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "?")].contains(escape) {
                    word.append(UInt8(ascii: "\\"))
                }
                index -= 1
                try take(escape, into: &word)
            }
            guard word.last != 0 else { throw RequestImportError("a NUL byte in a $'…' string", at: start) }
        }
        throw RequestImportError("the $' quote opened here is never closed", at: start)
    }

    /// Up to `maximum` digits of `base` at `index`; `fallback` when there are none.
    private mutating func digits(base: UInt32, maximum: Int, default fallback: UInt32) -> UInt32 {
        var value: UInt32 = 0
        var count = 0
        while count < maximum, index < bytes.count {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: digit = base
            }
            guard digit < base else { break }
            value = value &* base &+ digit
            index += 1
            count += 1
        }
        return count == 0 ? fallback : value
    }
}
