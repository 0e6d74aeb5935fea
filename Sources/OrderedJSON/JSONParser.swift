/// A strict RFC 8259 parser over raw bytes: one pass, no intermediate tokens.
///
/// It also only validates (`buildsValues` false): the same checks and the same errors, but no
/// values are kept, so a body of any size is checked in a fixed amount of memory (`JSONSpan`
/// then reads the valid text in place).
struct JSONParser: ~Copyable {
    /// Deep enough for any real document, shallow enough never to overflow the stack.
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    /// Whether values are made; when not, every value parses as `.null`.
    private let buildsValues: Bool
    private var position = 0
    private var depth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, buildsValues: Bool = true) {
        self.bytes = bytes
        self.buildsValues = buildsValues
    }

    /// Parses one JSON value that must fill `data` (surrounding whitespace aside).
    static func parse(_ data: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError>? = data.withContiguousStorageIfAvailable { buffer in
            var parser = JSONParser(bytes: buffer)
            return Result { () throws(JSONParseError) in try parser.parseDocument() }
        }
        if let result { return try result.get() }
        let copy = Array(data)
        return try copy.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var parser = JSONParser(bytes: buffer)
            return try parser.parseDocument()
        }
    }

    /// Checks that `bytes` hold one JSON value, as `parse` would, without keeping any.
    static func validate(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) {
        var parser = JSONParser(bytes: bytes, buildsValues: false)
        _ = try parser.parseDocument()
    }

    private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard position < bytes.count else { throw error(.emptyInput) }
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else { throw error(.trailingCharacters) }
        return value
    }

    // MARK: Values

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw error(.unexpectedEndOfInput) }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected(expected: "a JSON value")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw unexpected(expected: "a string key") }
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw unexpected(expected: "':' after an object key") }
            position += 1
            skipWhitespace()
            let value = try parseValue()
            if buildsValues { members.append((key, value)) }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                depth -= 1
                return .object(members)
            default: throw unexpected(expected: "',' or '}' after an object member")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            let value = try parseValue()
            if buildsValues { elements.append(value) }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                depth -= 1
                return .array(elements)
            default: throw unexpected(expected: "',' or ']' after an array element")
            }
        }
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error(.tooDeeplyNested(limit: Self.maximumDepth)) }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard position < bytes.count else { throw error(.unexpectedEndOfInput) }
            guard bytes[position] == byte else { throw unexpected(expected: "'\(literal)'") }
            position += 1
        }
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        let isNegative = peek() == UInt8(ascii: "-")
        if isNegative { position += 1 }
        // Most numbers are small integers: their value is accumulated while they are scanned (on
        // the sign's side, so Int.min fits), and they need no text.
        var integer = 0
        var fitsInt = true
        switch peek() {
        case UInt8(ascii: "0"):
            position += 1
            if let next = peek(), isDigit(next) { throw numberError(from: start) }
        case let digit? where isDigit(digit):
            while let byte = peek(), isDigit(byte) {
                if fitsInt {
                    let digitValue = Int(byte &- UInt8(ascii: "0"))
                    let (shifted, shiftOverflow) = integer.multipliedReportingOverflow(by: 10)
                    let (next, addOverflow) =
                        isNegative
                        ? shifted.subtractingReportingOverflow(digitValue)
                        : shifted.addingReportingOverflow(digitValue)
                    if shiftOverflow || addOverflow { fitsInt = false } else { integer = next }
                }
                position += 1
            }
        default:
            throw numberError(from: start)
        }
        var isPlainInteger = fitsInt
        if peek() == UInt8(ascii: ".") {
            isPlainInteger = false
            position += 1
            guard let digit = peek(), isDigit(digit) else { throw numberError(from: start) }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isPlainInteger = false
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek(), isDigit(digit) else { throw numberError(from: start) }
            skipDigits()
        }
        // `-0` is not the plain form of 0: it keeps its text, as every other number does.
        if isPlainInteger && !(isNegative && integer == 0) { return .int(integer) }
        guard buildsValues else { return .null }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        return .number(JSONNumber(uncheckedText: text))
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { position += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func numberError(from start: Int) -> JSONParseError {
        // Report the whole malformed token so the message shows what was written.
        var end = position
        while end < bytes.count, !Self.isDelimiter(bytes[end]) { end += 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        return error(.invalidNumber(text), at: start)
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: " "),
            UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
            return true
        default:
            return false
        }
    }

    // MARK: Strings

    private mutating func parseString() throws(JSONParseError) -> String {
        let start = position
        position += 1
        // Fast path: no escapes, so the bytes are the string.
        var scan = position
        // Whether every byte so far is ASCII: then the bytes are valid UTF-8 as they are, and the
        // string is made without `String(validating:)`, whose generic path looks up type metadata
        // for every string (most strings of an API's bodies are ASCII; `make bench`'s live sweep).
        var isASCII = true
        while scan < bytes.count {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(rebasing: bytes[position..<scan])
                if !buildsValues {
                    guard isASCII || UTF8Validation.isValid(content) else { throw error(.invalidUTF8, at: start) }
                    position = scan + 1
                    return ""
                }
                guard
                    let string = isASCII
                        ? String(decoding: content, as: UTF8.self) : String(validating: content, as: UTF8.self)
                else {
                    throw error(.invalidUTF8, at: start)
                }
                position = scan + 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error(.unescapedControlCharacter(byte), at: scan) }
            if byte >= 0x80 { isASCII = false }
            scan += 1
        }
        guard scan < bytes.count else { throw error(.unexpectedEndOfInput, at: bytes.count) }
        return try parseEscapedString(start: start)
    }

    private mutating func parseEscapedString(start: Int) throws(JSONParseError) -> String {
        var utf8: [UInt8] = []
        while true {
            guard position < bytes.count else { throw error(.unexpectedEndOfInput) }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let string = String(validating: utf8, as: UTF8.self) else { throw error(.invalidUTF8, at: start) }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                try appendEscape(to: &utf8)
            case ..<0x20:
                throw error(.unescapedControlCharacter(byte))
            default:
                utf8.append(byte)
                position += 1
            }
        }
    }

    private mutating func appendEscape(to utf8: inout [UInt8]) throws(JSONParseError) {
        guard position < bytes.count else { throw error(.unexpectedEndOfInput) }
        let escapeStart = position - 1
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): utf8.append(byte)
        case UInt8(ascii: "\\"): utf8.append(byte)
        case UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            let scalar = try parseUnicodeEscape(escapeStart: escapeStart)
            utf8.append(contentsOf: String(Character(scalar)).utf8)
        default:
            throw error(.invalidEscape(String(decoding: [byte], as: UTF8.self)), at: escapeStart)
        }
    }

    private mutating func parseUnicodeEscape(escapeStart: Int) throws(JSONParseError) -> Unicode.Scalar {
        let first = try parseHexQuad(escapeStart: escapeStart)
        switch first {
        case 0xD800...0xDBFF:
            // A high surrogate must be followed by `\u` and a low surrogate.
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else {
                throw unicodeError(from: escapeStart)
            }
            position += 2
            let second = try parseHexQuad(escapeStart: escapeStart)
            guard (0xDC00...0xDFFF).contains(second) else { throw unicodeError(from: escapeStart) }
            let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw unicodeError(from: escapeStart) }
            return scalar
        case 0xDC00...0xDFFF:
            throw unicodeError(from: escapeStart)
        default:
            guard let scalar = Unicode.Scalar(first) else { throw unicodeError(from: escapeStart) }
            return scalar
        }
    }

    private mutating func parseHexQuad(escapeStart: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw error(.unexpectedEndOfInput) }
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw unicodeError(from: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private func unicodeError(from escapeStart: Int) -> JSONParseError {
        let end = min(bytes.count, max(position, escapeStart + 6))
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[escapeStart..<end]), as: UTF8.self)
        return error(.invalidUnicodeEscape(text), at: escapeStart)
    }

    // MARK: Scanning

    private func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
            default: return
            }
        }
    }

    private func unexpected(expected: String) -> JSONParseError {
        guard position < bytes.count else { return error(.unexpectedEndOfInput) }
        return error(.unexpectedCharacter(found: describeCharacter(at: position), expected: expected))
    }

    private func describeCharacter(at offset: Int) -> String {
        let byte = bytes[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private func error(_ reason: JSONParseError.Reason) -> JSONParseError {
        error(reason, at: position)
    }

    private func error(_ reason: JSONParseError.Reason, at offset: Int) -> JSONParseError {
        var line = 1
        var column = 1
        for index in 0..<min(offset, bytes.count) {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Count scalars, not bytes: UTF-8 continuation bytes do not start a column.
                column += 1
            }
        }
        return JSONParseError(reason: reason, offset: offset, line: line, column: column)
    }
}

extension JSONValue {
    /// How deeply arrays and objects may nest in text ``init(parsing:)`` reads.
    public static let maximumParsingDepth = JSONParser.maximumDepth

    /// Parses JSON text (RFC 8259, strictly: no comments, trailing commas, NaN or lone surrogates).
    /// Numbers keep their text (`JSONValue.number`) unless they are plain integers that fit in `Int`.
    public init(parsing data: some Collection<UInt8>) throws(JSONParseError) {
        self = try JSONParser.parse(data)
    }

    /// Parses JSON text held in a string.
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONParseError) in try JSONParser.parse(buffer) }
        }
        self = try result.get()
    }
}

extension JSONValue {
    /// Checks that `data` is JSON text that ``init(parsing:)`` accepts, with the same error when it
    /// is not, without making the value: the memory used does not grow with the text.
    public static func validate(_ data: some Collection<UInt8>) throws(JSONParseError) {
        let result: Result<Void, JSONParseError>? = data.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) in try JSONParser.validate(buffer) }
        }
        if let result { return try result.get() }
        try Array(data).withUnsafeBufferPointer { buffer throws(JSONParseError) in try JSONParser.validate(buffer) }
    }
}
