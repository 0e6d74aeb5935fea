/// How a description written over several lines (an OpenAPI summary, a Postman request's
/// Markdown) becomes a target file's `description:`, which is one line: the one rule every
/// importer uses.
package enum OneLineText {
    /// The first paragraph of `text` as one line, without control characters, at most `limit`
    /// characters: a longer one is cut after its last whole sentence that fits, else at a word
    /// with `…`, never mid-sentence for want of a line break (a description wrapped over lines
    /// is one sentence).
    package static func firstParagraph(_ text: String, limit: Int = 160) -> String {
        // Most descriptions are one short line of printable ASCII: nothing to join, clean or cut.
        if text.utf8.count <= limit, text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) {
            return trimmed(text)
        }
        var paragraph: [Substring] = []
        // `\r\n` is one Character: split at every line break, not only at `\n`.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let trimmed = line.trimmingPrefix(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if trimmed.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
                if paragraph.isEmpty { continue }
                break
            }
            paragraph.append(trimmed)
        }
        let line = paragraph.joined(separator: " ")
        let cleaned = trimmed(
            String(
                String.UnicodeScalarView(
                    line.unicodeScalars.filter {
                        !($0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028
                            || $0.value == 0x2029)
                    })))
        guard cleaned.count > limit else { return cleaned }
        let head = cleaned.prefix(limit)
        // A sentence ends at `. ` (or `! `, `? `); the last one that fits, when it keeps enough.
        var sentenceEnd: Substring.Index?
        var index = head.startIndex
        while index < head.endIndex {
            let next = head.index(after: index)
            if ".!?".contains(head[index]), next < cleaned.endIndex, cleaned[next] == " " { sentenceEnd = next }
            index = next
        }
        if let sentenceEnd, head.distance(from: head.startIndex, to: sentenceEnd) >= limit / 3 {
            return String(head[..<sentenceEnd])
        }
        let words = head.dropLast().lastIndex(of: " ").map { head[..<$0] } ?? head.dropLast()
        return trimmed(String(words)) + "…"
    }

    private static func trimmed(_ text: String) -> String {
        var text = text[...]
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
