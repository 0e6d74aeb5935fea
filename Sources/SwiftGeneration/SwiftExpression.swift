/// A Swift expression the generator writes, kept as a tree so that one too long for a line is
/// broken where swift-format breaks it: after an opening parenthesis or bracket, one argument or
/// element a line.
indirect enum SwiftExpression: Sendable, Hashable {
    /// Text that is never broken.
    case atom(String)
    /// `head(arguments)tail`: a call, arguments separated by `, `.
    case call(String, [SwiftExpression], tail: String = "")
    /// `open elements close`: an array or dictionary literal, or a tuple.
    case collection(open: String, [SwiftExpression], close: String)
    /// `text` followed by an expression (`label: value`, `"key": value`, `return value`).
    case prefixed(String, SwiftExpression)
    /// `head { parameter in body }`.
    case closure(String, parameter: String, SwiftExpression)

    /// The width swift-format keeps lines within (.swift-format's lineLength).
    static let lineLength = 120

    /// The expression on one line.
    var flat: String {
        switch self {
        case .atom(let text): text
        case .call(let head, let arguments, let tail):
            head + "(" + arguments.map(\.flat).joined(separator: ", ") + ")" + tail
        case .collection(let open, let elements, let close): open + elements.map(\.flat).joined(separator: ", ") + close
        case .prefixed(let text, let expression): text + expression.flat
        case .closure(let head, let parameter, let body): head + " { " + parameter + " in " + body.flat + " }"
        }
    }

    /// The lines of the expression, the first starting with `indent` spaces and `leading`, broken
    /// where a line would pass `lineLength` (counting `trailing` characters written after it).
    func lines(indent: Int, leading: String = "", trailing: Int = 0) -> [String] {
        let padding = String(repeating: " ", count: indent) + leading
        let oneLine = flat
        if padding.count + oneLine.count + trailing <= Self.lineLength { return [padding + oneLine] }
        switch self {
        case .atom(let text):
            return [padding + text]
        case .prefixed(let text, let expression):
            // swift-format breaks after `return` or `=` before a text it cannot break.
            if case .atom(let atom) = expression, text == "return " || text.hasSuffix(" = ") {
                let continuation = String(repeating: " ", count: indent + 4)
                return [padding + String(text.dropLast()), continuation + atom]
            }
            // ... and before a parenthesized expression.
            if case .prefixed("(", _) = expression, text == "return " {
                return [padding + "return"] + expression.lines(indent: indent + 4, trailing: trailing)
            }
            return expression.lines(indent: indent, leading: leading + text, trailing: trailing)
        case .call(let head, let arguments, let tail):
            guard !arguments.isEmpty else { return [padding + oneLine] }
            var lines = [padding + head + "("]
            for (index, argument) in arguments.enumerated() {
                let isLast = index == arguments.count - 1
                // A call followed by more (`.data`, ` {`) closes on a line of its own once broken.
                let closesApart = isLast && !tail.isEmpty
                let after = isLast ? (closesApart ? 0 : 1 + trailing) : 1
                var argumentLines = argument.lines(indent: indent + 4, trailing: after)
                let last = argumentLines.count - 1
                if !isLast {
                    argumentLines[last] += ","
                } else if !closesApart && argumentLines[last].count + 1 + trailing <= Self.lineLength {
                    argumentLines[last] += ")"
                } else {
                    argumentLines.append(String(repeating: " ", count: indent) + ")" + tail)
                }
                lines += argumentLines
            }
            return lines
        case .closure(let head, let parameter, let body):
            return [padding + head + " { " + parameter + " in"] + body.lines(indent: indent + 4)
                + [String(repeating: " ", count: indent) + "}"]
        case .collection(let open, let elements, let close):
            guard !elements.isEmpty else { return [padding + oneLine] }
            var lines = [padding + open]
            for (index, element) in elements.enumerated() {
                let isLast = index == elements.count - 1
                var elementLines = element.lines(indent: indent + 4, trailing: isLast ? 0 : 1)
                if !isLast { elementLines[elementLines.count - 1] += "," }
                lines += elementLines
            }
            lines.append(String(repeating: " ", count: indent) + close)
            return lines
        }
    }
}
