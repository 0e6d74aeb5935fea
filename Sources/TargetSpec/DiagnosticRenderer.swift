/// Renders diagnostics the way compilers do:
///
/// ```
/// targets/github.yaml:12:11: error: unknown key 'pth' in case 'zen'; did you mean 'path'?
///     pth: /zen
///     ^
/// ```
///
/// The source line is indented by 4 spaces; the caret line repeats the line's tabs (and puts a
/// space for every other character) before the caret, so it lines up under the column whatever
/// the terminal's tab width. A diagnostic without a mark is its first line only.
public enum DiagnosticRenderer {
    private static let indent = "    "

    /// Renders diagnostics from one or more files, sorted, each block followed by a newline.
    /// - Parameters:
    ///   - diagnostics: the problems, in any order.
    ///   - source: each file's text, by the file name the diagnostics use; `nil` shows no snippet.
    ///   - colored: whether to add ANSI colors (bold location and message, red errors, yellow warnings).
    public static func render(_ diagnostics: [Diagnostic], source: (String) -> SourceLines?, colored: Bool = false) -> String {
        var output = ""
        var cache: (file: String, lines: SourceLines?)?
        for diagnostic in diagnostics.sorted() {
            if cache?.file != diagnostic.file { cache = (diagnostic.file, source(diagnostic.file)) }
            output += render(diagnostic, lines: cache?.lines, colored: colored)
            output += "\n"
        }
        return output
    }

    /// Renders diagnostics of one file whose text is `source`, sorted, each block followed by a newline.
    public static func render(_ diagnostics: [Diagnostic], source: String?, colored: Bool = false) -> String {
        let lines = source.map(SourceLines.init)
        return render(diagnostics, source: { _ in lines }, colored: colored)
    }

    /// Renders one diagnostic, without a trailing newline.
    /// - Parameters:
    ///   - diagnostic: the problem.
    ///   - lines: its file's lines; `nil`, or a mark past the end, shows no snippet.
    ///   - colored: whether to add ANSI colors.
    public static func render(_ diagnostic: Diagnostic, lines: SourceLines?, colored: Bool = false) -> String {
        let style = Style(colored: colored, severity: diagnostic.severity)
        // The file's name and the values a message quotes come from the file: shown escaped.
        let file = DisplayText.escaped(diagnostic.file)
        let location = diagnostic.mark.map { "\(file):\($0.line):\($0.column)" } ?? file
        var output = style.bold + location + ": " + style.severityColor + diagnostic.severity.rawValue + ":"
            + style.reset + style.bold + " " + DisplayText.escaped(diagnostic.message) + style.reset
        guard let mark = diagnostic.mark, let line = lines?.line(mark.line) else { return output }
        let prefix = line.unicodeScalars.prefix(mark.column - 1).map { $0 == "\t" ? "\t" : " " }.joined()
        let padding = String(repeating: " ", count: max(0, mark.column - 1 - line.unicodeScalars.count))
        output += "\n" + indent + line + "\n" + indent + prefix + padding + style.severityColor + "^" + style.reset
        return output
    }

    /// ANSI escape sequences, or empty strings when color is off.
    private struct Style {
        let bold: String
        let severityColor: String
        let reset: String

        init(colored: Bool, severity: Diagnostic.Severity) {
            guard colored else {
                (bold, severityColor, reset) = ("", "", "")
                return
            }
            bold = "\u{1B}[1m"
            severityColor = severity == .error ? "\u{1B}[1;31m" : "\u{1B}[1;33m"
            reset = "\u{1B}[0m"
        }
    }
}
