import OrderedJSON

/// Reads RFC 9535 query text into segments, checking the well-typedness rules of its section
/// 2.4.3 (a comparison's operands are singular queries, a function's arguments fit its parameters).
struct JSONQueryParser {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    /// How deeply filters, parentheses and function calls nest: bounded, so a hostile path cannot
    /// exhaust the stack.
    private var depth = 0
    private static let maximumDepth = 64
    /// RFC 9535's I-JSON integer range for indices and slice bounds.
    private static let largestIndex = 9_007_199_254_740_991

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    mutating func parseQuery() throws(JSONQueryError) -> [QuerySegment] {
        guard peek == "$" else {
            throw JSONQueryError("a JSONPath query starts with '$' (the whole body), like $.data or $..id", at: 0)
        }
        position = 1
        let segments = try parseSegments()
        guard position == scalars.count else {
            throw JSONQueryError("unexpected '\(describe(scalars[position]))'", at: position)
        }
        return segments
    }

    // MARK: Segments

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private func describe(_ scalar: Unicode.Scalar) -> String { scalar.escaped(asASCII: true) }

    private mutating func skipBlanks() {
        while let scalar = peek, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { position += 1 }
    }

    /// Segments until something that cannot start one; blanks between segments are allowed.
    private mutating func parseSegments() throws(JSONQueryError) -> [QuerySegment] {
        var segments: [QuerySegment] = []
        while true {
            let saved = position
            skipBlanks()
            guard let scalar = peek, scalar == "." || scalar == "[" else {
                position = saved
                return segments
            }
            segments.append(try parseSegment())
        }
    }

    private mutating func parseSegment() throws(JSONQueryError) -> QuerySegment {
        if peek == "[" { return .child(try parseBracketed()) }
        // "."
        position += 1
        if peek == "." {
            position += 1
            if peek == "[" { return .descendant(try parseBracketed()) }
            if peek == "*" {
                position += 1
                return .descendant([.wildcard])
            }
            return .descendant([.name(try parseShorthandName())])
        }
        if peek == "*" {
            position += 1
            return .child([.wildcard])
        }
        return .child([.name(try parseShorthandName())])
    }

    private mutating func parseShorthandName() throws(JSONQueryError) -> String {
        let start = position
        guard let first = peek, Self.isNameFirst(first) else {
            throw JSONQueryError("expected a member name, '*' or '[' after '.'", at: position)
        }
        position += 1
        while let scalar = peek, Self.isNameFirst(scalar) || ("0"..."9").contains(scalar) { position += 1 }
        return String(String.UnicodeScalarView(scalars[start..<position]))
    }

    private static func isNameFirst(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "_": true
        default: scalar.value >= 0x80
        }
    }

    private mutating func parseBracketed() throws(JSONQueryError) -> [QuerySelector] {
        let open = position
        position += 1
        var selectors: [QuerySelector] = []
        while true {
            skipBlanks()
            guard peek != nil else { throw JSONQueryError("unclosed '['", at: open) }
            selectors.append(try parseSelector())
            skipBlanks()
            switch peek {
            case ",": position += 1
            case "]":
                position += 1
                return selectors
            case nil: throw JSONQueryError("unclosed '['", at: open)
            case let scalar?: throw JSONQueryError("expected ',' or ']', found '\(describe(scalar))'", at: position)
            }
        }
    }

    private mutating func parseSelector() throws(JSONQueryError) -> QuerySelector {
        switch peek {
        case "'", "\"": return .name(try parseStringLiteral())
        case "*":
            position += 1
            return .wildcard
        case "?":
            position += 1
            skipBlanks()
            return .filter(
                try nested { (parser: inout JSONQueryParser) throws(JSONQueryError) in
                    try parser.parseLogicalOr()
                })
        default:
            let start: Int? = peek == ":" ? nil : try parseInteger()
            skipBlanks()
            guard peek == ":" else {
                guard let start else { throw JSONQueryError("expected a selector", at: position) }
                return .index(start)
            }
            position += 1
            skipBlanks()
            let end: Int? = (peek == ":" || peek == "]" || peek == ",") ? nil : try parseInteger()
            skipBlanks()
            var step: Int?
            if peek == ":" {
                position += 1
                skipBlanks()
                step = (peek == "]" || peek == ",") ? nil : try parseInteger()
            }
            return .slice(start: start, end: end, step: step)
        }
    }

    /// `0`, `7`, `-3`: no leading zeros, no `-0`, within I-JSON's range.
    private mutating func parseInteger() throws(JSONQueryError) -> Int {
        let start = position
        if peek == "-" { position += 1 }
        let digitsStart = position
        while let scalar = peek, ("0"..."9").contains(scalar) { position += 1 }
        let digits = String(String.UnicodeScalarView(scalars[digitsStart..<position]))
        guard !digits.isEmpty else {
            throw JSONQueryError(
                "expected a selector: 'name', *, an index, a slice like 1:3 or a filter like ?@.id", at: start)
        }
        guard digits == "0" || !digits.hasPrefix("0"), !(digits == "0" && digitsStart > start) else {
            throw JSONQueryError("an index has no leading zeros and is not -0", at: start)
        }
        guard digits.count <= 16, let value = Int(digits), value <= Self.largestIndex else {
            throw JSONQueryError("index \(digits) is out of range", at: start)
        }
        return digitsStart > start ? -value : value
    }

    /// A quoted string as RFC 9535 writes one (JSON's escapes; `\'` in single quotes).
    private mutating func parseStringLiteral() throws(JSONQueryError) -> String {
        let open = position
        let quote = scalars[position]
        position += 1
        var text = String.UnicodeScalarView()
        while true {
            guard let scalar = peek else { throw JSONQueryError("unclosed string", at: open) }
            position += 1
            if scalar == quote { return String(text) }
            if scalar.value < 0x20 {
                throw JSONQueryError("a control character must be escaped in a string", at: position - 1)
            }
            guard scalar == "\\" else {
                text.append(scalar)
                continue
            }
            guard let escape = peek else { throw JSONQueryError("unclosed string", at: open) }
            position += 1
            switch escape {
            case "b": text.append("\u{8}")
            case "f": text.append("\u{C}")
            case "n": text.append("\n")
            case "r": text.append("\r")
            case "t": text.append("\t")
            case "/", "\\": text.append(escape)
            case "'" where quote == "'", "\"" where quote == "\"": text.append(escape)
            case "u":
                var code = try parseHex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard peek == "\\", peek(1) == "u" else {
                        throw JSONQueryError("a high surrogate must be followed by a low one", at: position)
                    }
                    position += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw JSONQueryError("a high surrogate must be followed by a low one", at: position - 6)
                    }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let decoded = Unicode.Scalar(code) else {
                    throw JSONQueryError("a lone surrogate is not a character", at: position - 6)
                }
                text.append(decoded)
            default:
                throw JSONQueryError("unknown escape '\\\(describe(escape))'", at: position - 2)
            }
        }
    }

    private mutating func parseHex4() throws(JSONQueryError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = peek, let digit = Int(String(scalar), radix: 16) else {
                throw JSONQueryError("expected four hexadecimal digits after \\u", at: position)
            }
            code = code * 16 + UInt32(digit)
            position += 1
        }
        return code
    }

    // MARK: Filters

    private mutating func nested<T>(
        _ body: (inout JSONQueryParser) throws(JSONQueryError) -> T
    ) throws(JSONQueryError) -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw JSONQueryError("the filter nests more than \(Self.maximumDepth) levels", at: position)
        }
        return try body(&self)
    }

    private mutating func parseLogicalOr() throws(JSONQueryError) -> LogicalExpression {
        var terms = [try parseLogicalAnd()]
        while true {
            let saved = position
            skipBlanks()
            guard peek == "|", peek(1) == "|" else {
                position = saved
                break
            }
            position += 2
            skipBlanks()
            terms.append(try parseLogicalAnd())
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func parseLogicalAnd() throws(JSONQueryError) -> LogicalExpression {
        var terms = [try parseBasic()]
        while true {
            let saved = position
            skipBlanks()
            guard peek == "&", peek(1) == "&" else {
                position = saved
                break
            }
            position += 2
            skipBlanks()
            terms.append(try parseBasic())
        }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseBasic() throws(JSONQueryError) -> LogicalExpression {
        if peek == "!" && peek(1) != "=" {
            position += 1
            skipBlanks()
            if peek == "(" { return .not(try parseParenthesized()) }
            let start = position
            let operand = try parseOperand()
            return .not(try testExpression(operand, at: start))
        }
        if peek == "(" { return try parseParenthesized() }
        let start = position
        let left = try parseOperand()
        let saved = position
        skipBlanks()
        if let comparison = parseComparisonOperator() {
            skipBlanks()
            let rightStart = position
            let right = try parseOperand()
            return .comparison(
                try comparable(left, at: start), comparison, try comparable(right, at: rightStart))
        }
        position = saved
        return try testExpression(left, at: start)
    }

    private mutating func parseParenthesized() throws(JSONQueryError) -> LogicalExpression {
        let open = position
        position += 1
        skipBlanks()
        let inner = try nested { (parser: inout JSONQueryParser) throws(JSONQueryError) in try parser.parseLogicalOr() }
        skipBlanks()
        guard peek == ")" else { throw JSONQueryError("unclosed '('", at: open) }
        position += 1
        return inner
    }

    private mutating func parseComparisonOperator() -> ComparisonOperator? {
        for candidate in ["==", "!=", "<=", ">=", "<", ">"] {
            let text = Array(candidate.unicodeScalars)
            if (0..<text.count).allSatisfy({ peek($0) == text[$0] }) {
                position += text.count
                return ComparisonOperator(rawValue: candidate)
            }
        }
        return nil
    }

    /// A test expression must be a query, or a function returning a logical value or nodes.
    private func testExpression(_ operand: FunctionArgument, at start: Int) throws(JSONQueryError) -> LogicalExpression
    {
        switch operand {
        case .query: return .test(operand)
        case .function(let call) where call.function.returnsLogical: return .test(operand)
        case .function(let call):
            throw JSONQueryError(
                "\(call.function.rawValue)() gives a value; compare it, like \(call.function.rawValue)(@.a) > 1",
                at: start)
        default:
            throw JSONQueryError("a literal alone is not a test; compare it, like @.a == 1", at: start)
        }
    }

    private func comparable(_ operand: FunctionArgument, at start: Int) throws(JSONQueryError) -> Comparable {
        switch operand {
        case .literal(let value): return .literal(value)
        case .query(let query):
            guard query.isSingular else {
                throw JSONQueryError(
                    "only a singular query (names and indices, like @.a or $.b[0]) can be compared", at: start)
            }
            return .query(query)
        case .function(let call):
            guard !call.function.returnsLogical else {
                throw JSONQueryError("\(call.function.rawValue)() is a test, not a value to compare", at: start)
            }
            return .function(call)
        case .logical:
            throw JSONQueryError("a comparison compares values", at: start)
        }
    }

    /// A literal, a query (`@…`, `$…`) or a function call.
    private mutating func parseOperand() throws(JSONQueryError) -> FunctionArgument {
        guard let scalar = peek else { throw JSONQueryError("the filter ends too early", at: position) }
        switch scalar {
        case "@", "$":
            position += 1
            return .query(FilterQuery(isRelative: scalar == "@", segments: try parseSegments()))
        case "'", "\"":
            return .literal(.string(try parseStringLiteral()))
        case "-", "0"..."9":
            return .literal(try parseNumber())
        case "a"..."z":
            let start = position
            while let next = peek, ("a"..."z").contains(next) || next == "_" || ("0"..."9").contains(next) {
                position += 1
            }
            let word = String(String.UnicodeScalarView(scalars[start..<position]))
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default: break
            }
            guard peek == "(" else { throw JSONQueryError("unknown word '\(word)' in the filter", at: start) }
            guard let function = QueryFunction(rawValue: word) else {
                throw JSONQueryError(
                    "unknown function '\(word)'; the functions are length, count, match, search and value", at: start)
            }
            return .function(try parseFunctionCall(function, at: start))
        default:
            throw JSONQueryError("unexpected '\(describe(scalar))' in the filter", at: position)
        }
    }

    private mutating func parseFunctionCall(_ function: QueryFunction, at start: Int) throws(JSONQueryError)
        -> FunctionCall
    {
        position += 1
        var arguments: [(FunctionArgument, Int)] = []
        try nested { (parser: inout JSONQueryParser) throws(JSONQueryError) in
            parser.skipBlanks()
            if parser.peek == ")" { return }
            while true {
                parser.skipBlanks()
                let argumentStart = parser.position
                var argument = try parser.parseOperandOrLogical()
                if case .logical = argument {
                } else {
                    // A comparison or a logical operator after the operand makes it a logical argument.
                    let saved = parser.position
                    parser.skipBlanks()
                    if parser.parseComparisonOperator() != nil || (parser.peek == "&" && parser.peek(1) == "&")
                        || (parser.peek == "|" && parser.peek(1) == "|")
                    {
                        parser.position = argumentStart
                        argument = .logical(try parser.parseLogicalOr())
                    } else {
                        parser.position = saved
                    }
                }
                arguments.append((argument, argumentStart))
                parser.skipBlanks()
                if parser.peek == "," {
                    parser.position += 1
                    continue
                }
                guard parser.peek == ")" else {
                    throw JSONQueryError("expected ',' or ')' in \(function.rawValue)(...)", at: parser.position)
                }
                return
            }
        }
        position += 1
        return try Self.typeChecked(function, arguments: arguments, at: start)
    }

    private mutating func parseOperandOrLogical() throws(JSONQueryError) -> FunctionArgument {
        if peek == "(" || (peek == "!" && peek(1) != "=") { return .logical(try parseBasic()) }
        return try parseOperand()
    }

    /// RFC 9535 2.4.3: each argument fits its parameter's type.
    private static func typeChecked(
        _ function: QueryFunction, arguments: [(FunctionArgument, Int)], at start: Int
    ) throws(JSONQueryError) -> FunctionCall {
        let expectedCount = (function == .match || function == .search) ? 2 : 1
        guard arguments.count == expectedCount else {
            throw JSONQueryError(
                "\(function.rawValue)() takes \(expectedCount) argument\(expectedCount == 1 ? "" : "s")", at: start)
        }
        for (index, (argument, argumentStart)) in arguments.enumerated() {
            let wantsNodes = function == .count || function == .value
            switch argument {
            case .logical:
                throw JSONQueryError("\(function.rawValue)() takes a value, not a test", at: argumentStart)
            case .query(let query):
                if !wantsNodes && !query.isSingular {
                    throw JSONQueryError(
                        "\(function.rawValue)() takes a singular query (like @.name), not one that selects several nodes",
                        at: argumentStart)
                }
            case .literal:
                if wantsNodes {
                    throw JSONQueryError("\(function.rawValue)() takes a query, like @.items[*]", at: argumentStart)
                }
            case .function(let inner):
                if wantsNodes || inner.function.returnsLogical {
                    throw JSONQueryError(
                        "\(function.rawValue)()'s argument \(index + 1) cannot be \(inner.function.rawValue)()",
                        at: argumentStart)
                }
            }
        }
        var pattern: CompiledPattern?
        if function == .match || function == .search, case .literal(let literal) = arguments[1].0 {
            guard case .string(let text) = literal else {
                throw JSONQueryError("\(function.rawValue)()'s pattern is a string", at: arguments[1].1)
            }
            guard let compiled = RegularExpression.compile(text, wholeMatch: function == .match) else {
                throw JSONQueryError(
                    RegularExpression.problem(in: text) ?? "'\(text)' is not a regular expression", at: arguments[1].1)
            }
            pattern = compiled
        }
        return FunctionCall(function: function, arguments: arguments.map(\.0), pattern: pattern)
    }

    /// A JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?` (RFC 9535 also allows `-0`).
    private mutating func parseNumber() throws(JSONQueryError) -> JSONValue {
        let start = position
        if peek == "-" { position += 1 }
        let integerStart = position
        while let scalar = peek, ("0"..."9").contains(scalar) { position += 1 }
        let integerDigits = position - integerStart
        guard integerDigits > 0, integerDigits == 1 || scalars[integerStart] != "0" else {
            throw JSONQueryError("not a number", at: start)
        }
        if peek == ".", let next = peek(1), ("0"..."9").contains(next) {
            position += 1
            while let scalar = peek, ("0"..."9").contains(scalar) { position += 1 }
        }
        if peek == "e" || peek == "E" {
            position += 1
            if peek == "+" || peek == "-" { position += 1 }
            let exponentStart = position
            while let scalar = peek, ("0"..."9").contains(scalar) { position += 1 }
            guard position > exponentStart else { throw JSONQueryError("an exponent needs digits", at: start) }
        }
        let text = String(String.UnicodeScalarView(scalars[start..<position]))
        if let integer = Int(text) { return .int(integer) }
        guard let number = JSONNumber(text) else { throw JSONQueryError("not a number", at: start) }
        return .number(number)
    }
}
