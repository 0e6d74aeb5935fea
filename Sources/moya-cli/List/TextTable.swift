import TargetSpec

/// Left-aligned columns separated by two spaces; trailing blanks trimmed.
enum TextTable {
    /// The rows as aligned text, one line each; the first row is the header. Cells come from
    /// target files: their control characters are shown escaped, so a row stays one line. With
    /// `width` (a terminal's), lines are fitted to it: the last column (a description) gives way
    /// first, then the widest ones, cut with `…`; piped output keeps every cell whole.
    static func render(_ rows: [[String]], width: Int? = nil) -> String {
        var cells = TableCells()
        for row in rows { cells.appendRow(row) }
        let columns = rows.map { $0.count }.max() ?? 0  // a closure: a key path is applied per row at run time
        return String(decoding: renderedBytes(cells, columns: Array(0..<columns), width: width), as: UTF8.self)
    }

    /// ``render(_:width:)`` of `cells` as UTF-8, showing `columns` (indices of each row's
    /// cells, in order; a row without one of them shows it empty).
    static func renderedBytes(_ cells: TableCells, columns: [Int], width: Int? = nil) -> [UInt8] {
        var output: [UInt8] = []
        write(cells, columns: columns, width: width) { output += $0 }
        return output
    }

    /// ``renderedBytes(_:columns:width:)`` handed to `sink` a part at a time (whole lines of
    /// about 64 KiB), so a table of thousands of rows is not held a second time as text.
    static func write(_ cells: TableCells, columns: [Int], width: Int? = nil, to sink: ([UInt8]) -> Void) {
        guard cells.rowCount > 0, !columns.isEmpty else { return }
        var widths = columns.map { cells.widths.indices.contains($0) ? cells.widths[$0] : 0 }
        if let width { widths = fitted(widths, into: width) }
        let partSize = 64 * 1024
        var output: [UInt8] = []
        output.reserveCapacity(min(partSize + 4096, cells.byteCount + cells.rowCount * (2 * columns.count + 1)))
        defer { if !output.isEmpty { sink(output) } }
        let spaces = [UInt8](repeating: UInt8(ascii: " "), count: (widths.max() ?? 0) + 2)
        for row in 0..<cells.rowCount {
            if output.count >= partSize {
                sink(output)
                output.removeAll(keepingCapacity: true)
            }
            // A row of ASCII cells (nearly all) is laid out in bytes; any other, in characters.
            guard cells.isASCII(row: row) else {
                let texts = columns.map { cells.text(row: row, column: $0) }
                output += (characterLine(texts, counts: texts.map(characterCount), widths: widths) + "\n").utf8
                continue
            }
            let start = output.count
            for (index, column) in columns.enumerated() {
                cells.withBytes(row: row, column: column) { cell in
                    let count = cell.count
                    let isCut = count > widths[index]
                    let shownCount = isCut ? max(0, widths[index] - 1) + 1 : count
                    if isCut {
                        output.append(contentsOf: cell.prefix(max(0, widths[index] - 1)))
                        output += "…".utf8
                    } else {
                        output.append(contentsOf: cell)
                    }
                    if index < columns.count - 1 {
                        output.append(contentsOf: spaces[..<(widths[index] + 2 - shownCount)])
                    }
                }
            }
            while output.count > start && output[output.count - 1] == UInt8(ascii: " ") { output.removeLast() }
            output.append(UInt8(ascii: "\n"))
        }
    }

    /// One row laid out in characters (a cell that is not plain ASCII).
    private static func characterLine(_ row: [String], counts: [Int], widths: [Int]) -> String {
        var line = ""
        for (index, cell) in row.enumerated() {
            let isCut = counts[index] > widths[index]
            let shown = isCut ? String(cell.prefix(max(0, widths[index] - 1))) + "…" : cell
            line += shown
            let shownCount = isCut ? max(0, widths[index] - 1) + 1 : counts[index]
            if index < row.count - 1 { line += String(repeating: " ", count: widths[index] + 2 - shownCount) }
        }
        while line.last == " " { line.removeLast() }
        return line
    }

    /// The characters of `text`: its bytes when they are ASCII without `\r` (`\r\n` is one
    /// character), without counting graphemes.
    static func characterCount(_ text: String) -> Int {
        isPlainASCII(text) ? text.utf8.count : text.count
    }

    /// ASCII without `\r`: each byte a character.
    static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }

    /// Column widths that fit `total` characters with two-space gaps: the last column shrinks
    /// first (to 10), then the widest of the others, one character at a time (to 8 each).
    static func fitted(_ widths: [Int], into total: Int) -> [Int] {
        var widths = widths
        let gaps = 2 * max(0, widths.count - 1)
        var excess = widths.reduce(0, +) + gaps - total
        guard excess > 0, let last = widths.indices.last else { return widths }
        let lastShrink = min(excess, max(0, widths[last] - 10))
        widths[last] -= lastShrink
        excess -= lastShrink
        while excess > 0 {
            guard let widest = widths.indices.dropLast().filter({ widths[$0] > 8 }).max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
            excess -= 1
        }
        return widths
    }
}

/// A table's cells as they are added, escaped, in one buffer of UTF-8 with each cell's end, and
/// each column's width so far: a case list has thousands of rows, which as arrays of strings cost
/// an allocation or more per cell.
struct TableCells {
    private var bytes: [UInt8] = []
    /// Where each cell ends in `bytes`, row after row: 32 bits, as a table's text is far below
    /// 4 GiB (a target file is at most 16 MiB; see `append`).
    private var ends: [UInt32] = []
    /// Where each row's cells start in `ends`, and where the next row would.
    private var rowStarts: [Int] = [0]
    /// Whether each row's cells are all plain ASCII (laid out in bytes); nearly all are.
    private var isASCIIRow: [Bool] = []
    private var isCurrentRowASCII = true
    /// The widest cell of each column, in characters.
    private(set) var widths: [Int] = []

    var rowCount: Int { rowStarts.count - 1 }
    var byteCount: Int { bytes.count }

    /// Adds a cell to the row being made; control characters are shown escaped.
    mutating func append(_ text: String) {
        let shown = Self.isPrintableASCII(text) ? text : DisplayText.escaped(text)
        let isASCII = TextTable.isPlainASCII(shown)
        if !isASCII { isCurrentRowASCII = false }
        // Beyond what 32 bits count, a cell is cut to nothing rather than trapping.
        if bytes.count + shown.utf8.count <= Int(UInt32.max) { bytes.append(contentsOf: shown.utf8) }
        ends.append(UInt32(bytes.count))
        let column = ends.count - 1 - rowStarts[rowStarts.count - 1]
        if column == widths.count { widths.append(0) }
        widths[column] = max(widths[column], isASCII ? shown.utf8.count : shown.count)
    }

    /// Ends the row being made.
    mutating func endRow() {
        isASCIIRow.append(isCurrentRowASCII)
        isCurrentRowASCII = true
        rowStarts.append(ends.count)
    }

    /// Adds a whole row.
    mutating func appendRow(_ row: [String]) {
        for cell in row { append(cell) }
        endRow()
    }

    /// Whether every cell of `row` is plain ASCII.
    func isASCII(row: Int) -> Bool {
        isASCIIRow[row]
    }

    /// The bytes of a cell (none for a column the row does not have).
    func withBytes<Result>(row: Int, column: Int, _ body: (ArraySlice<UInt8>) -> Result) -> Result {
        let index = rowStarts[row] + column
        guard index < rowStarts[row + 1] else { return body([]) }
        return body(bytes[(index == 0 ? 0 : Int(ends[index - 1]))..<Int(ends[index])])
    }

    /// A cell as text.
    func text(row: Int, column: Int) -> String {
        withBytes(row: row, column: column) { String(decoding: $0, as: UTF8.self) }
    }

    /// Printable ASCII: nothing to escape.
    private static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}
