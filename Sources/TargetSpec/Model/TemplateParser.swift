/// Parses template text into `Template` segments, reporting malformed `${...}` references.
struct TemplateParser {
    /// A syntax problem in a template, at a position inside the file.
    struct Problem: Hashable {
        var message: String
        var mark: Mark
    }

    private let scalars: [Unicode.Scalar]
    private let startMark: Mark
    /// How many columns separate `startMark` from the first character of the text (1 for a quoted
    /// scalar), or `nil` when positions inside the text are unknown (multi-line scalars).
    private let contentOffset: Int?
    private var segments: [Template.Segment] = []
    private var literal = ""
    private(set) var problems: [Problem] = []

    /// Parses `text`, which starts at `mark`; `contentOffset` as above.
    static func parse(_ text: String, mark: Mark, contentOffset: Int?) -> (Template, [Problem]) {
        var parser = TemplateParser(text: text, mark: mark, contentOffset: contentOffset)
        parser.run()
        return (Template(segments: parser.segments, source: text, mark: mark), parser.problems)
    }

    private init(text: String, mark: Mark, contentOffset: Int?) {
        self.scalars = Array(text.unicodeScalars)
        self.startMark = mark
        self.contentOffset = contentOffset
    }

    private func mark(at index: Int) -> Mark {
        guard let offset = contentOffset else { return startMark }
        return Mark(line: startMark.line, column: startMark.column + offset + index)
    }

    private func scalar(_ index: Int) -> Unicode.Scalar? {
        index < scalars.count ? scalars[index] : nil
    }

    private mutating func flushLiteral() {
        if !literal.isEmpty {
            segments.append(.literal(literal))
            literal = ""
        }
    }

    private mutating func run() {
        var index = 0
        while index < scalars.count {
            let current = scalars[index]
            let next = scalar(index + 1)
            switch (current, next) {
            case ("{", "{"):
                literal += "{"
                index += 2
            case ("}", "}"):
                literal += "}"
                index += 2
            case ("$", "$") where scalar(index + 2) == "{":
                literal += "${"
                index += 3
            case ("$", "{"):
                index = parseEnvironmentReference(at: index)
            case ("{", _):
                index = parsePlaceholder(at: index)
            default:
                literal.unicodeScalars.append(current)
                index += 1
            }
        }
        flushLiteral()
    }

    /// `{identifier}` becomes a placeholder; any other `{` is a literal brace.
    private mutating func parsePlaceholder(at start: Int) -> Int {
        var end = start + 1
        while let character = scalar(end), Self.isIdentifierCharacter(character, first: end == start + 1) {
            end += 1
        }
        guard end > start + 1, scalar(end) == "}" else {
            literal += "{"
            return start + 1
        }
        flushLiteral()
        let name = String(String.UnicodeScalarView(scalars[(start + 1)..<end]))
        segments.append(.placeholder(name: name, mark: mark(at: start)))
        return end + 1
    }

    /// `${VAR}`, `${VAR:-fallback}`, `${secret:VAR}`; anything else is reported.
    private mutating func parseEnvironmentReference(at start: Int) -> Int {
        guard let close = scalars[(start + 2)...].firstIndex(of: "}") else {
            problems.append(Problem(
                message: "unterminated '${' reference; close it with '}' or write '$${' for a literal '${'",
                mark: mark(at: start)))
            literal += String(String.UnicodeScalarView(scalars[start...]))
            return scalars.count
        }
        var body = String(String.UnicodeScalarView(scalars[(start + 2)..<close]))
        var isSecret = false
        if body.hasPrefix("secret:") {
            isSecret = true
            body.removeFirst("secret:".count)
        }
        var fallback: String?
        if let separator = body.firstRange(of: ":-") {
            fallback = String(body[separator.upperBound...])
            body = String(body[..<separator.lowerBound])
        }
        let isValidName = !body.isEmpty && body.unicodeScalars.enumerated().allSatisfy {
            Self.isIdentifierCharacter($0.element, first: $0.offset == 0)
        }
        if isValidName {
            flushLiteral()
            segments.append(.environment(Template.EnvironmentReference(
                name: body, fallback: fallback, isSecret: isSecret, mark: mark(at: start))))
        } else {
            let written = String(String.UnicodeScalarView(scalars[start...close]))
            problems.append(Problem(
                message: "'\(written)' is not a valid environment reference; write ${NAME}, ${NAME:-fallback} or ${secret:NAME} (NAME: letters, digits, _), or '$${' for a literal '${'",
                mark: mark(at: start)))
            literal += written
        }
        return close + 1
    }

    static func isIdentifierCharacter(_ character: Unicode.Scalar, first: Bool) -> Bool {
        switch character {
        case "A"..."Z", "a"..."z", "_": true
        case "0"..."9": !first
        default: false
        }
    }
}
