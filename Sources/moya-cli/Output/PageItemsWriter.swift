import MoyaKit

/// Writes the items of pages to stdout as they arrive: one JSON array (`[`, an item per line,
/// `]`) or JSON lines (`--format jsonl`). The array is closed whatever stops the paging, so what
/// was printed stays one valid document.
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
            var text = value.serializedString()
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

    private func open() {
        guard !isOpen else { return }
        isOpen = true
        if !isLines { StandardStream.output.write("[") }
    }
}
