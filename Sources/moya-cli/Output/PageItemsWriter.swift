import CurlTransport
import MoyaKit
import OrderedJSON
import TargetModel
import TextSafety

/// Writes the items of pages to stdout as they arrive: one JSON array (`[`, an item per line,
/// `]`) or JSON lines (`--format jsonl`), each item written again compact from its bytes in the
/// page (`JSONSpan`), so a page is never parsed into a tree. The array is closed whatever error stops the paging, so
/// what was printed stays one valid document; after a signal stdout takes no more writes (see
/// `OutputFile.writeAll`), and the array stays open: a cut document is not a complete one.
final class PageItemsWriter {
    /// `--format jsonl`: one item per line, no brackets.
    let isLines: Bool
    /// `--keypath`, applied to each item (`null` where an item has nothing there). With
    /// `--format jsonl` a string it selects is printed as a single call prints it, unquoted (one
    /// value a line, as `jq -r`); inside the array it stays JSON.
    let keyPath: BodyKeyPath?
    /// Whether stdout is a terminal: unquoted strings are then shown with controls escaped.
    let escapesForTerminal: Bool
    private var count = 0
    private var isOpen = false

    init(isLines: Bool, keyPath: BodyKeyPath?, escapesForTerminal: Bool = false) {
        self.isLines = isLines
        self.keyPath = keyPath
        self.escapesForTerminal = escapesForTerminal
    }

    /// How many items were written.
    var itemCount: Int { count }

    /// Writes the items of one page (an array): in writes of some 64 KiB, the last when the page is done.
    func write(itemsOf array: JSONSpan) {
        open()
        var output: [UInt8] = []
        output.reserveCapacity(Self.chunkSize + 64)
        array.forEachElement { item in
            if !isLines { output.append(contentsOf: (count == 0 ? "\n" : ",\n").utf8) }
            if let value = keyPath.map({ try? $0.value(in: item) }) ?? item {
                if isLines, keyPath != nil, let text = value.stringValue {
                    output.append(
                        contentsOf: (escapesForTerminal ? DisplayText.escaped(text, keepingLineBreaks: true) : text)
                            .utf8)
                } else {
                    value.appendCompact(escapingC1: true, to: &output, flushingAt: Self.chunkSize) {
                        StandardStream.output.write($0)
                    }
                }
            } else {
                output.append(contentsOf: "null".utf8)
            }
            if isLines { output.append(UInt8(ascii: "\n")) }
            count += 1
        }
        if !output.isEmpty { StandardStream.output.write(output) }
    }

    /// Bytes gathered before a write to stdout.
    static let chunkSize = 1 << 16

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
