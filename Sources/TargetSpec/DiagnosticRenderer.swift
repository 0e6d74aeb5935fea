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
/// are rendered, the errors first, then lines say how many more errors and warnings there are
/// (the warnings by kind); where a command fails on the errors, the warnings are only counted.
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
    ///   - summarizingWarnings: whether only the errors are shown and the warnings counted by
    ///     kind, where a command fails on the errors (an import whose file does not validate).
    public static func render(
        _ diagnostics: [Diagnostic], source: (String) -> SourceLines?, colored: Bool = false,
        summarizingWarnings: Bool = false
    ) -> String {
        var output = ""
        var byFile: [(file: String, diagnostics: [Diagnostic])] = []
        for diagnostic in diagnostics.sorted() {
            if byFile.last?.file == diagnostic.file {
                byFile[byFile.count - 1].diagnostics.append(diagnostic)
            } else {
                byFile.append((diagnostic.file, [diagnostic]))
            }
        }
        var summaries: [String] = []
        for (file, found) in byFile {
            let lines = source(file)
            let (shown, hidden) = shownFirst(found, summarizingWarnings: summarizingWarnings)
            for diagnostic in shown {
                output += render(diagnostic, lines: lines, colored: colored)
                output += "\n"
            }
            guard !hidden.isEmpty else { continue }
            summaries.append(summary(of: hidden, file: file))
        }
        return output + summaries.joined()
    }

    /// The diagnostics of one file that are shown, and those that are not: all, in line order,
    /// when they are few; else the errors first (up to ``maximumPerFile``), then warnings and
    /// notes in what room is left, so that 100 warnings never hide the error that made a
    /// command fail.
    private static func shownFirst(_ diagnostics: [Diagnostic], summarizingWarnings: Bool) -> (
        shown: [Diagnostic], hidden: [Diagnostic]
    ) {
        let errors = diagnostics.filter { $0.severity == .error }
        if summarizingWarnings {
            return (
                Array(errors.prefix(maximumPerFile)),
                diagnostics.filter { $0.severity != .error } + errors.dropFirst(maximumPerFile)
            )
        }
        guard diagnostics.count > maximumPerFile else { return (diagnostics, []) }
        let ordered = errors + diagnostics.filter { $0.severity != .error }
        return (Array(ordered.prefix(maximumPerFile)), Array(ordered.dropFirst(maximumPerFile)))
    }

    /// The line that stands for the diagnostics of `file` not shown: how many, errors and
    /// warnings counted apart, the warnings by kind (``TextSafety/MessageKind``).
    private static func summary(of hidden: [Diagnostic], file: String) -> String {
        let errors = hidden.filter { $0.severity == .error }.count
        let others = hidden.count - errors
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        var parts: [String] = []
        if errors > 0 { parts.append(counted(errors, "more error")) }
        if others > 0 { parts.append(counted(others, "warning")) }
        var text = "\(DisplayText.escaped(file)): \(parts.joined(separator: " and ")) not shown"
        text += errors > 0 ? " (the first \(maximumPerFile) errors are above)\n" : "\n"
        if others > 0 {
            var kinds: [String: Int] = [:]
            var order: [String] = []
            for diagnostic in hidden where diagnostic.severity != .error {
                let kind = MessageKind.of(diagnostic.message)
                if kinds[kind] == nil { order.append(kind) }
                kinds[kind, default: 0] += 1
            }
            for kind in order.sorted(by: { (kinds[$0] ?? 0, $1) > (kinds[$1] ?? 0, $0) }).prefix(5) {
                text += "\(DisplayText.escaped(file)):   \(kinds[kind] ?? 0) × \(DisplayText.escaped(kind))\n"
            }
        }
        return text
    }

    /// Renders diagnostics of one file whose text is `source`, sorted, each block followed by a newline.
    public static func render(
        _ diagnostics: [Diagnostic], source: String?, colored: Bool = false, summarizingWarnings: Bool = false
    ) -> String {
        let lines = source.map(SourceLines.init)
        return render(diagnostics, source: { _ in lines }, colored: colored, summarizingWarnings: summarizingWarnings)
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
