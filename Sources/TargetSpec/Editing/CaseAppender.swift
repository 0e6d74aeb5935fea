import TargetModel
import TextSafety

/// Appends a case at the end of a target file's `cases` map as a text edit: every other byte of
/// the file — comments, blank lines, quoting, anchors, line endings, a missing final newline —
/// stays as it was.
///
/// The case goes right after the last case's last token (its line's trailing comment included),
/// so comments and blank lines after the last case stay after the new one; it is indented as the
/// file's cases are, with the file's indentation step and line endings.
package enum CaseAppender {
    /// `bytes` with the case `name` (its members `members`) added, and the 1-based line the
    /// case's name is on.
    /// - Throws: ``TargetFileEditError`` when the name is invalid or taken (`usage`) or `cases`
    ///   is not a block map (`invalidTargetFile`).
    package static func appending(
        _ name: String, members: [YAMLText.Entry], to bytes: [UInt8],
        file: String
    ) throws(TargetFileEditError) -> (bytes: [UInt8], line: Int) {
        try checkName(name)
        let layout = try CasesLayout.read(bytes, file: file)
        if let existing = layout.keys.first(where: { $0.name == name }) {
            throw TargetFileEditError(
                .usage,
                "case '\(name)' exists in \(DisplayText.escaped(file)) (line \(existing.line)); pick another name or remove it first"
            )
        }
        let indent = (layout.keys.first?.column ?? 3) - 1
        let step = layout.memberStep ?? max(2, indent - (layout.casesKeyColumn - 1))
        var text = YAMLText.renderCases([YAMLText.Entry(name, .map(members))], indent: indent, step: step)

        var insertion = layout.contentEnd
        var lineStart = insertion
        while lineStart > 0, bytes[lineStart - 1] != UInt8(ascii: "\n"), bytes[lineStart - 1] != UInt8(ascii: "\r") {
            lineStart -= 1
        }
        var needsLeadingBreak = false
        if bytes[lineStart..<insertion].allSatisfy({ $0 == UInt8(ascii: " ") }) {
            // A block scalar ends past its line breaks, in the next line's indentation.
            insertion = lineStart
        } else if let lineBreak = bytes[insertion...].firstIndex(where: {
            $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
        }) {
            let isCRLF =
                bytes[lineBreak] == UInt8(ascii: "\r") && lineBreak + 1 < bytes.count
                && bytes[lineBreak + 1] == UInt8(ascii: "\n")
            insertion = lineBreak + (isCRLF ? 2 : 1)
        } else {
            insertion = bytes.count
            needsLeadingBreak = true
        }
        let lineEnding = lineEnding(in: bytes, before: insertion)
        if needsLeadingBreak {
            // The file had no final newline, and keeps having none.
            text = "\n" + text.dropLast()
        }
        if lineEnding != "\n" { text = text.replacing("\n", with: lineEnding) }
        var edited = Array(bytes[..<insertion])
        edited += Array(text.utf8)
        edited += bytes[insertion...]
        let breaksBefore = bytes[..<insertion].count(where: { $0 == UInt8(ascii: "\n") })
        return (edited, breaksBefore + (needsLeadingBreak ? 2 : 1))
    }

    /// A case name as moya-targets(5) allows it: `[A-Za-z_][A-Za-z0-9_]*`.
    package static func checkName(_ name: String) throws(TargetFileEditError) {
        guard TargetFileValidator.isIdentifier(name) else {
            throw TargetFileEditError(
                .usage,
                "'\(DisplayText.escaped(name))' is not a valid case name: use letters, digits and _, not starting with a digit"
            )
        }
    }

    /// The file's line ending: the one before `offset`, else the file's first, else LF.
    static func lineEnding(in bytes: [UInt8], before offset: Int) -> String {
        var probe: Int? = offset > 0 ? offset - 1 : nil
        if probe.map({ bytes[$0] != UInt8(ascii: "\n") && bytes[$0] != UInt8(ascii: "\r") }) ?? true {
            probe = bytes.firstIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") })
        }
        guard let index = probe else { return "\n" }
        if bytes[index] == UInt8(ascii: "\n") {
            return index > 0 && bytes[index - 1] == UInt8(ascii: "\r") ? "\r\n" : "\n"
        }
        return index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n") ? "\r\n" : "\r"
    }
}
