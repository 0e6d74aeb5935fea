import OrderedJSON
import PositionedYAML
import TargetModel
import TextSafety

/// Reads a JSON document (RFC 8259) into the same node tree, with the same marks, as the YAML
/// loader gives: strings are quoted scalars, numbers, `true`, `false` and `null` plain ones, so
/// the importer reads a JSON spec exactly as the same spec in YAML.
///
/// JSON is not read through libyaml because YAML is not quite a superset of it: libyaml refuses a
/// key over 1024 characters (YAML's simple-key limit), which JSON allows. The importer's limits
/// hold here too (size, depth, nodes, scalar length), checked as the text is read, so hostile
/// JSON is refused before it costs more than a bounded amount.
struct SpecJSONReader {
    /// Why the text is not read: where and what, and whether a limit was crossed (the text may be
    /// valid JSON, too big to read) rather than the text being something other than JSON.
    struct Failure: Error {
        var diagnostic: Diagnostic
        var isOverLimit = false
    }

    private let bytes: [UInt8]
    private let file: String
    private let limits: YAMLLimits
    private var position = 0
    private var line = 1
    /// Where the current line starts, in bytes; columns count Unicode scalars from there.
    private var lineStart = 0
    /// A byte position on the current line whose column is known, so that marks on a long line
    /// (minified JSON is one line) are counted from the last one, not from the line's start.
    private var columnCursor = 0
    private var columnAtCursor = 1
    private var nodeCount = 0

    /// Whether `bytes` should be read as JSON: the file is named `.json`, or its first byte other
    /// than white space (and a byte-order mark) opens an object or an array.
    static func isJSON(_ bytes: [UInt8], file: String) -> Bool {
        if file.lowercased().hasSuffix(".json") { return true }
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index < bytes.count && (bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "["))
    }

    /// The document's root node, or the first problem with the text, located.
    static func read(_ bytes: [UInt8], file: String, limits: YAMLLimits) throws(SpecJSONReader.Failure) -> Node {
        guard bytes.count <= limits.maximumFileSize else {
            throw Failure(
                diagnostic: Diagnostic(
                    .error, file: file, mark: nil,
                    message: "the document is \(bytes.count) bytes; at most \(limits.maximumFileSize >> 20) MiB is read"
                ),
                isOverLimit: true)
        }
        var reader = SpecJSONReader(bytes: bytes, file: file, limits: limits)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            reader.position = 3
            reader.lineStart = 3
        }
        reader.skipSpace()
        let root = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.position == bytes.count else { throw reader.failure("unexpected text after the JSON document") }
        return root
    }

    private init(bytes: [UInt8], file: String, limits: YAMLLimits) {
        self.bytes = bytes
        self.file = file
        self.limits = limits
    }

    // MARK: - Values

    private mutating func value(depth: Int) throws(SpecJSONReader.Failure) -> Node {
        nodeCount += 1
        guard nodeCount <= limits.maximumNodes else {
            throw failure(
                "the document has more than \(limits.maximumNodes) values; at most that many are read",
                isOverLimit: true)
        }
        guard let byte = peek else { throw failure("the JSON document ends where a value was expected") }
        let mark = self.mark
        switch byte {
        case UInt8(ascii: "{"):
            return try object(depth: depth + 1, mark: mark)
        case UInt8(ascii: "["):
            return try array(depth: depth + 1, mark: mark)
        case UInt8(ascii: "\""):
            return .scalar(Node.Scalar(text: try string(), isPlain: false, mark: mark))
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            for word in ["true", "false", "null"] where bytes[position...].starts(with: word.utf8) {
                position += word.utf8.count
                return .scalar(Node.Scalar(text: word, mark: mark))
            }
            throw failure("invalid JSON value; expected true, false, null, a number, a string, an object or an array")
        default:
            return .scalar(Node.Scalar(text: try number(), mark: mark))
        }
    }

    private mutating func object(depth: Int, mark: Mark) throws(SpecJSONReader.Failure) -> Node {
        try checkDepth(depth)
        position += 1
        var entries: [Node.Entry] = []
        // Duplicate keys: looked up among the entries while an object is small, in a set after.
        var keys = Set<String>()
        skipSpace()
        if peek == UInt8(ascii: "}") {
            position += 1
            return .mapping(entries, mark)
        }
        while true {
            guard peek == UInt8(ascii: "\"") else { throw failure("expected a member name in double quotes") }
            let keyMark = self.mark
            nodeCount += 1
            let key = try string()
            let isDuplicate: Bool
            if entries.count < 16 {
                isDuplicate = entries.contains { $0.key.text == key }
            } else {
                if keys.isEmpty { keys = Set(entries.map(\.key.text)) }
                isDuplicate = !keys.insert(key).inserted
            }
            guard !isDuplicate else {
                throw Failure(
                    diagnostic: Diagnostic(
                        .error, file: file, mark: keyMark,
                        message: "duplicate key '\(DisplayText.escaped(String(key.prefix(200))))'"))
            }
            skipSpace()
            guard peek == UInt8(ascii: ":") else { throw failure("expected ':' after a member name") }
            position += 1
            skipSpace()
            let value = try value(depth: depth)
            entries.append(Node.Entry(key: Node.Scalar(text: key, isPlain: false, mark: keyMark), value: value))
            skipSpace()
            switch peek {
            case UInt8(ascii: ","):
                position += 1
                skipSpace()
            case UInt8(ascii: "}"):
                position += 1
                return .mapping(entries, mark)
            default: throw failure("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array(depth: Int, mark: Mark) throws(SpecJSONReader.Failure) -> Node {
        try checkDepth(depth)
        position += 1
        var items: [Node] = []
        skipSpace()
        if peek == UInt8(ascii: "]") {
            position += 1
            return .sequence(items, mark)
        }
        while true {
            items.append(try value(depth: depth))
            skipSpace()
            switch peek {
            case UInt8(ascii: ","):
                position += 1
                skipSpace()
            case UInt8(ascii: "]"):
                position += 1
                return .sequence(items, mark)
            default: throw failure("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func checkDepth(_ depth: Int) throws(SpecJSONReader.Failure) {
        guard depth <= limits.maximumDepth else {
            throw failure("objects and arrays nest more than \(limits.maximumDepth) deep", isOverLimit: true)
        }
    }

    // MARK: - Scalars

    /// A string, its escapes resolved; `position` is at its opening quote.
    private mutating func string() throws(SpecJSONReader.Failure) -> String {
        position += 1
        // Most strings have no escape: made straight from the document's bytes.
        var end = position
        while end < bytes.count, bytes[end] >= 0x20, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\")
        {
            end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\""), end - position <= limits.maximumScalarLength {
            guard let string = String(validating: bytes[position..<end], as: UTF8.self) else {
                throw failure("a string is not valid UTF-8")
            }
            position = end + 1
            return string
        }
        var text: [UInt8] = []
        while true {
            guard let byte = peek else { throw failure("a string is not closed") }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let string = String(validating: text, as: UTF8.self) else {
                    throw failure("a string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                try escape(into: &text)
            case 0..<0x20:
                throw failure("a control character in a string must be escaped (\\n, \\t, \\u0000)")
            default:
                // The run of plain bytes up to the next quote, escape or control character, at once.
                var end = position + 1
                while end < bytes.count, bytes[end] >= 0x20, bytes[end] != UInt8(ascii: "\""),
                    bytes[end] != UInt8(ascii: "\\")
                { end += 1 }
                text.append(contentsOf: bytes[position..<end])
                position = end
            }
            guard text.count <= limits.maximumScalarLength else {
                throw failure("a string is longer than \(limits.maximumScalarLength >> 20) MiB", isOverLimit: true)
            }
        }
    }

    /// One escape after its backslash.
    private mutating func escape(into text: inout [UInt8]) throws(SpecJSONReader.Failure) {
        guard let byte = peek else { throw failure("a string is not closed") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
            text.append(byte)
            return
        case UInt8(ascii: "b"):
            text.append(0x08)
            return
        case UInt8(ascii: "f"):
            text.append(0x0C)
            return
        case UInt8(ascii: "n"):
            text.append(0x0A)
            return
        case UInt8(ascii: "r"):
            text.append(0x0D)
            return
        case UInt8(ascii: "t"):
            text.append(0x09)
            return
        default: break
        }
        guard byte == UInt8(ascii: "u") else {
            throw failure("invalid escape '\\\(Character(Unicode.Scalar(byte)))' in a string")
        }
        var code = try hexQuad()
        if (0xD800...0xDBFF).contains(code) {
            guard bytes[position...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                throw failure("a \\u escape is half of a surrogate pair without the other half")
            }
            position += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw failure("a \\u escape is half of a surrogate pair without the other half")
            }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else {
            throw failure("a \\u escape is half of a surrogate pair without the other half")
        }
        text.append(contentsOf: String(scalar).utf8)
    }

    private mutating func hexQuad() throws(SpecJSONReader.Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("a \\u escape needs four hexadecimal digits") }
        var code: UInt32 = 0
        for byte in bytes[position..<position + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
                throw failure("a \\u escape needs four hexadecimal digits")
            }
            code = code << 4 | UInt32(digit)
        }
        position += 4
        return code
    }

    /// A number's text, checked against JSON's grammar.
    private mutating func number() throws(SpecJSONReader.Failure) -> String {
        let start = position
        while let byte = peek,
            byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        {
            position += 1
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard !text.isEmpty, JSONNumber(text) != nil else {
            position = start
            throw failure(
                text.isEmpty
                    ? "invalid JSON value; expected true, false, null, a number, a string, an object or an array"
                    : "'\(text)' is not a JSON number")
        }
        guard text.utf8.count <= limits.maximumScalarLength else {
            throw failure("a number is longer than \(limits.maximumScalarLength >> 20) MiB", isOverLimit: true)
        }
        return text
    }

    // MARK: - Position

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Skips white space, counting lines.
    private mutating func skipSpace() {
        while let byte = peek {
            switch byte {
            case 0x0A:
                line += 1
                position += 1
                lineStart = position
            case 0x20, 0x09, 0x0D:
                position += 1
            default:
                return
            }
        }
    }

    /// Where `position` is: its line, and its column in Unicode scalars.
    private var mark: Mark {
        mutating get {
            if columnCursor < lineStart {
                columnCursor = lineStart
                columnAtCursor = 1
            }
            let end = min(position, bytes.count)
            for byte in bytes[min(columnCursor, end)..<end] where byte & 0xC0 != 0x80 { columnAtCursor += 1 }
            columnCursor = max(columnCursor, end)
            return Mark(line: line, column: columnAtCursor)
        }
    }

    private mutating func failure(_ message: String, isOverLimit: Bool = false) -> Failure {
        let said =
            peek == nil && !message.hasPrefix("the JSON document ends")
            ? "the document ends early: " + message : message
        return Failure(diagnostic: Diagnostic(.error, file: file, mark: mark, message: said), isOverLimit: isOverLimit)
    }
}
