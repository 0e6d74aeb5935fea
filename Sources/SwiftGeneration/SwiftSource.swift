import TextSafety

/// The lines of a generated file, indented four spaces a level.
struct SwiftSource {
    private(set) var lines: [String] = []
    var indent = 0

    mutating func line(_ text: String = "") {
        lines.append(text.isEmpty ? "" : String(repeating: " ", count: indent) + text)
    }

    /// `expression` after `leading`, broken as swift-format breaks it.
    mutating func expression(_ expression: SwiftExpression, leading: String = "") {
        lines += expression.lines(indent: indent, leading: leading)
    }

    /// `/// text` lines (a target file's description), each line of `text` made safe for a comment.
    mutating func documentation(_ text: String?) {
        guard let text, !text.isEmpty else { return }
        for part in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = SwiftLiteral.commentText(String(part))
            self.line(line.isEmpty ? "///" : "/// " + line)
        }
    }

    /// `{`-opened block: `header {`, the body one level in, `}`.
    mutating func block(_ header: String, _ body: (inout SwiftSource) -> Void) {
        line(header + " {")
        indent += 4
        body(&self)
        indent -= 4
        line("}")
    }

    var text: String {
        var lines = self.lines
        while lines.last == "" { lines.removeLast() }
        return lines.joined(separator: "\n") + "\n"
    }
}
