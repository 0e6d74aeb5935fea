import PositionedYAML

/// Parses template text into `Template` segments, reporting malformed `${...}` references.
///
/// It reads the text's UTF-8 bytes: every delimiter (`{`, `}`, `$`, `:`) and every identifier
/// character is ASCII, so a byte never splits a character, and literal text is copied in runs
/// rather than character by character. Marks still count Unicode scalars, as libyaml does.
struct TemplateParser {
    /// A syntax problem in a template, at a position inside the file.
    struct Problem: Hashable {
        var message: String
        var mark: Mark
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let startMark: Mark
    /// How many columns separate `startMark` from the first character of the text (1 for a quoted
    /// scalar), or `nil` when positions inside the text are unknown (multi-line scalars).
    private let contentOffset: Int?
    private var segments: [Template.Segment] = []
    private var literal = ""
    /// Where the current run of literal bytes, not yet added to `literal`, starts.
    private var runStart = 0
    /// The last byte offset whose scalar offset was computed, and that scalar offset: marks are
    /// asked for in increasing order, so counting resumes where it stopped.
    private var countedBytes = 0
    private var countedScalars = 0
    private(set) var problems: [Problem] = []

    /// Parses `text`, which starts at `mark`; `contentOffset` as above, only worked out when the
    /// text has template syntax (a literal needs no positions).
    static func parse(_ text: String, mark: Mark, contentOffset: @autoclosure () -> Int?) -> (Template, [Problem]) {
        // Most strings in a target file (descriptions, words, JSON values) have no template
        // syntax at all: they are one literal, and the text is reused as it is.
        let hasSyntax = text.withUTF8Bytes { bytes in
            bytes.contains { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "$") }
        }
        if !hasSyntax {
            return (Template(literal: text, mark: mark), [])
        }
        let offset = contentOffset()
        var copy = text
        return copy.withUTF8 { bytes in
            var parser = TemplateParser(bytes: bytes, mark: mark, contentOffset: offset)
            parser.run()
            return (Template(segments: parser.segments, source: text, mark: mark), parser.problems)
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, mark: Mark, contentOffset: Int?) {
        self.bytes = bytes
        self.startMark = mark
        self.contentOffset = contentOffset
    }

    /// The mark of the character starting at byte `offset`.
    private mutating func mark(at offset: Int) -> Mark {
        guard let contentOffset else { return startMark }
        while countedBytes < offset {
            if bytes[countedBytes] & 0xC0 != 0x80 { countedScalars += 1 }
            countedBytes += 1
        }
        return Mark(line: startMark.line, column: startMark.column + contentOffset + countedScalars)
    }

    private func byte(_ offset: Int) -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Adds the pending run of literal bytes, up to `end`, to `literal`.
    private mutating func endRun(at end: Int) {
        if runStart < end { literal += text(runStart..<end) }
    }

    private mutating func flushLiteral() {
        if !literal.isEmpty {
            segments.append(.literal(literal))
            literal = ""
        }
    }

    private mutating func run() {
        var index = 0
        while index < bytes.count {
            let current = bytes[index]
            let next = byte(index + 1)
            switch (current, next) {
            case (UInt8(ascii: "{"), UInt8(ascii: "{")?):
                endRun(at: index)
                literal += "{"
                index += 2
            case (UInt8(ascii: "}"), UInt8(ascii: "}")?):
                endRun(at: index)
                literal += "}"
                index += 2
            case (UInt8(ascii: "$"), UInt8(ascii: "$")?) where byte(index + 2) == UInt8(ascii: "{"):
                endRun(at: index)
                literal += "${"
                index += 3
            case (UInt8(ascii: "$"), UInt8(ascii: "{")?):
                endRun(at: index)
                index = parseEnvironmentReference(at: index)
            case (UInt8(ascii: "{"), _):
                endRun(at: index)
                index = parsePlaceholder(at: index)
            default:
                index += 1
                continue
            }
            runStart = index
        }
        endRun(at: bytes.count)
        flushLiteral()
    }

    /// `{identifier}` becomes a placeholder, `{$name}` a dynamic value; any other `{` is a literal brace.
    private mutating func parsePlaceholder(at start: Int) -> Int {
        if byte(start + 1) == UInt8(ascii: "$") { return parseDynamicValue(at: start) }
        var end = start + 1
        while let character = byte(end), Self.isIdentifierByte(character, first: end == start + 1) {
            end += 1
        }
        guard end > start + 1, byte(end) == UInt8(ascii: "}") else {
            literal += "{"
            return start + 1
        }
        flushLiteral()
        let placeholderMark = mark(at: start)
        segments.append(.placeholder(name: text((start + 1)..<end), mark: placeholderMark))
        return end + 1
    }

    /// `{$uuid}`, `{$timestamp}`, `{$isoDate}`: the value's marker, replaced per request as it is
    /// sent (`DynamicValue`); `{$other}` is reported; a `{$` not followed by a name and `}` is literal.
    private mutating func parseDynamicValue(at start: Int) -> Int {
        var end = start + 2
        while let character = byte(end), Self.isIdentifierByte(character, first: end == start + 2) {
            end += 1
        }
        guard end > start + 2, byte(end) == UInt8(ascii: "}") else {
            literal += "{"
            return start + 1
        }
        let name = text((start + 2)..<end)
        guard let value = DynamicValue(placeholderName: name) else {
            let names = DynamicValue.allCases.map { "{$\($0.rawValue)}" }
            problems.append(
                Problem(
                    message: "unknown dynamic value '{$\(name)}'; use one of " + names.joined(separator: ", ")
                        + " (or '{{$' for a literal '{$')",
                    mark: mark(at: start)))
            literal += text(start..<(end + 1))
            return end + 1
        }
        literal += value.marker
        return end + 1
    }

    /// `${VAR}`, `${VAR:-fallback}`, `${secret:VAR}`; anything else is reported.
    private mutating func parseEnvironmentReference(at start: Int) -> Int {
        let referenceMark = mark(at: start)
        guard let close = bytes[(start + 2)...].firstIndex(of: UInt8(ascii: "}")) else {
            problems.append(
                Problem(
                    message: "unterminated '${' reference; close it with '}' or write '$${' for a literal '${'",
                    mark: referenceMark))
            literal += text(start..<bytes.count)
            return bytes.count
        }
        var body = text((start + 2)..<close)
        var isSecret = false
        if body.hasPrefix("secret:") {
            isSecret = true
            body.removeFirst("secret:".count)
        }
        var fallback: String?
        // The first `:-`, byte by byte: `firstRange(of:)` of a string builds a searcher whose
        // generic metadata costs ~100,000 instructions at its first use, in every load.
        let bodyBytes = Array(body.utf8)
        if let colon = bodyBytes.indices.dropLast().first(where: {
            bodyBytes[$0] == UInt8(ascii: ":") && bodyBytes[$0 + 1] == UInt8(ascii: "-")
        }) {
            fallback = String(decoding: bodyBytes[(colon + 2)...], as: UTF8.self)
            body = String(decoding: bodyBytes[..<colon], as: UTF8.self)
        }
        let isValidName =
            !body.isEmpty
            && body.utf8.enumerated().allSatisfy {
                Self.isIdentifierByte($0.element, first: $0.offset == 0)
            }
        if isValidName {
            flushLiteral()
            segments.append(
                .environment(
                    Template.EnvironmentReference(
                        name: body, fallback: fallback, isSecret: isSecret, mark: referenceMark)))
        } else {
            let written = text(start..<(close + 1))
            problems.append(
                Problem(
                    message:
                        "'\(written)' is not a valid environment reference; write ${NAME}, ${NAME:-fallback} or ${secret:NAME} (NAME: letters, digits, _), or '$${' for a literal '${'",
                    mark: referenceMark))
            literal += written
        }
        return close + 1
    }

    /// Whether `byte` may stand in a placeholder name (`[A-Za-z_][A-Za-z0-9_]*`); no byte of a
    /// multi-byte character is one.
    static func isIdentifierByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "_"): true
        case UInt8(ascii: "0")...UInt8(ascii: "9"): !first
        default: false
        }
    }
}
