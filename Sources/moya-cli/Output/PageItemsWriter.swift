import MoyaKit

/// Writes the items of pages to stdout as they arrive: one JSON array (`[`, an item per line,
/// `]`) or JSON lines (`--format jsonl`). The array is closed whatever error stops the paging, so
/// what was printed stays one valid document; after a signal stdout takes no more writes (see
/// `OutputFile.writeAll`), and the array stays open: a cut document is not a complete one.
final class PageItemsWriter {
    /// `--format jsonl`: one item per line, no brackets.
    let isLines: Bool
    /// `--keypath`, applied to each item (`null` where an item has nothing there).
    let keyPath: String?
    private var count = 0
    private var isOpen = false

    init(isLines: Bool, keyPath: String?) {
        self.isLines = isLines
        self.keyPath = keyPath
    }

    /// How many items were written.
    var itemCount: Int { count }

    /// Writes the items of one page.
    func write(_ items: [JSONValue]) {
        open()
        for item in items {
            let value = keyPath.map { item.value(atKeyPath: $0) ?? .null } ?? item
            var text = Self.escapingC1(value.serializedString())
            if isLines {
                text += "\n"
            } else {
                text = (count == 0 ? "\n" : ",\n") + text
            }
            StandardStream.output.write(text)
            count += 1
        }
    }

    /// Ends the output: the closing bracket of the array.
    func finish() {
        open()
        guard !isLines else { return }
        StandardStream.output.write(count == 0 ? "]\n" : "\n]\n")
    }

    /// `text` (serialized JSON) with the C1 controls U+0080...U+009F written `\u0080`...: the
    /// same JSON, but no 8-bit CSI from a server reaches a terminal. They occur only in strings.
    static func escapingC1(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { (0x80...0x9F).contains($0.value) }) else { return text }
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0x80...0x9F).contains(scalar.value) {
                output.append(contentsOf: "\\u00\(String(scalar.value, radix: 16))".unicodeScalars)
            } else {
                output.append(scalar)
            }
        }
        return String(output)
    }

    private func open() {
        guard !isOpen else { return }
        isOpen = true
        if !isLines { StandardStream.output.write("[") }
    }
}
