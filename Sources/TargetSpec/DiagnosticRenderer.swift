import PositionedYAML
import TargetModel
import TextSafety

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
///
/// Hostile files stay cheap to report: a source line is shown as a window of at most
/// `snippetWidth` characters around the caret, and at most `maximumPerFile` diagnostics of a file
/// are rendered, then one line says how many more there are.
public enum DiagnosticRenderer {
    private static let indent = "    "
    /// The most characters of a source line shown under a diagnostic.
    public static let snippetWidth = 160
    /// The most diagnostics rendered for one file.
    public static let maximumPerFile = 100

    /// Renders diagnostics from one or more files, sorted, each block followed by a newline.
    /// - Parameters:
    ///   - diagnostics: the problems, in any order.
    ///   - source: each file's text, by the file name the diagnostics use; `nil` shows no snippet.
    ///   - colored: whether to add ANSI colors (bold location and message, red errors, yellow warnings).
    public static func render(_ diagnostics: [Diagnostic], source: (String) -> SourceLines?, colored: Bool = false)
        -> String
    {
        var output = ""
        var cache: (file: String, lines: SourceLines?)?
        var shown = 0
        var hidden: [String: Int] = [:]
        var files: [String] = []
        for diagnostic in diagnostics.sorted() {
            if cache?.file != diagnostic.file {
                cache = (diagnostic.file, source(diagnostic.file))
                shown = 0
                files.append(diagnostic.file)
            }
            guard shown < maximumPerFile else {
                hidden[diagnostic.file, default: 0] += 1
                continue
            }
            shown += 1
            output += render(diagnostic, lines: cache?.lines, colored: colored)
            output += "\n"
        }
        for file in files {
            guard let count = hidden[file] else { continue }
            output +=
                "\(DisplayText.escaped(file)): \(count) more problem\(count == 1 ? "" : "s") not shown "
                + "(the first \(maximumPerFile) are above)\n"
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
        var output =
            style.bold + location + ": " + style.severityColor + diagnostic.severity.rawValue + ":"
            + style.reset + style.bold + " " + DisplayText.escaped(diagnostic.message) + style.reset
        guard let mark = diagnostic.mark, let fullLine = lines?.line(mark.line) else { return output }
        // A window around the caret: a hostile file's one long line must not be printed whole
        // under each of its problems.
        let scalars = Array(fullLine.unicodeScalars)
        let caret = mark.column - 1
        let start =
            scalars.count > snippetWidth ? max(0, min(caret - snippetWidth / 2, scalars.count - snippetWidth)) : 0
        let end = min(scalars.count, start + snippetWidth)
        var line = String(String.UnicodeScalarView(scalars[start..<end]))
        var column = caret - start
        if start > 0 {
            line = "…" + line
            column += 1
        }
        if end < scalars.count { line += "…" }
        let lineScalars = Array(line.unicodeScalars)
        let prefix = lineScalars.prefix(max(0, column)).map { $0 == "\t" ? "\t" : " " }.joined()
        let padding = String(repeating: " ", count: max(0, column - lineScalars.count))
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
            severityColor =
                switch severity {
                case .error: "\u{1B}[1;31m"
                case .warning: "\u{1B}[1;33m"
                case .note: "\u{1B}[1;36m"
                }
            reset = "\u{1B}[0m"
        }
    }
}
