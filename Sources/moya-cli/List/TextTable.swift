import PositionedYAML
import TargetModel
import TargetSpec
import TextSafety

/// Left-aligned columns separated by two spaces; trailing blanks trimmed.
enum TextTable {
    /// The rows as aligned text, one line each; the first row is the header. Cells come from
    /// target files: their control characters are shown escaped, so a row stays one line. With
    /// `width` (a terminal's), the table is fitted to it as `fits` says (see
    /// ``fitted(_:fits:width:hasHeader:breaksWholeCells:)``); piped output keeps every cell whole.
    static func render(
        _ rows: [[String]], width: Int? = nil, fits: [ColumnFit] = [], hasHeader: Bool = true,
        breaksWholeCells: Bool = false
    ) -> String {
        if let width {
            return fitted(
                rows.map { $0.map { DisplayText.escaped($0) } }, fits: fits, width: width, hasHeader: hasHeader,
                breaksWholeCells: breaksWholeCells)
        }
        var cells = TableCells()
        for row in rows { cells.appendRow(row) }
        let columns = rows.map { $0.count }.max() ?? 0  // a closure: a key path is applied per row at run time
        return String(decoding: renderedBytes(cells, columns: Array(0..<columns)), as: UTF8.self)
    }

    /// ``render(_:width:fits:hasHeader:breaksWholeCells:)`` of `cells` as UTF-8, showing `columns`
    /// (indices of each row's cells, in order; a row without one of them shows it empty), with
    /// `fits` for each of `columns`.
    static func renderedBytes(_ cells: TableCells, columns: [Int], width: Int? = nil, fits: [ColumnFit] = [])
        -> [UInt8]
    {
        var output: [UInt8] = []
        write(cells, columns: columns, width: width, fits: fits) { output += $0 }
        return output
    }

    /// ``renderedBytes(_:columns:width:fits:)`` handed to `sink` a part at a time (whole lines of
    /// about 64 KiB), so a table of thousands of rows is not held a second time as text.
    static func write(
        _ cells: TableCells, columns: [Int], width: Int? = nil, fits: [ColumnFit] = [], to sink: ([UInt8]) -> Void
    ) {
        guard cells.rowCount > 0, !columns.isEmpty else { return }
        if let width {
            // A terminal: its rows are few enough to be laid out as text, in display columns.
            let rows = (0..<cells.rowCount).map { row in columns.map { cells.text(row: row, column: $0) } }
            sink(Array(fitted(rows, fits: fits, width: width, hasHeader: true, breaksWholeCells: false).utf8))
            return
        }
        let widths = columns.map { cells.widths.indices.contains($0) ? cells.widths[$0] : 0 }
        let partSize = 64 * 1024
        var output: [UInt8] = []
        output.reserveCapacity(min(partSize + 4096, cells.byteCount + cells.rowCount * (2 * columns.count + 1)))
        defer { if !output.isEmpty { sink(output) } }
        let spaces = [UInt8](repeating: UInt8(ascii: " "), count: (widths.max() ?? 0) + 2)
        var ranges: [Range<Int>] = []
        for row in 0..<cells.rowCount {
            if output.count >= partSize {
                sink(output)
                output.removeAll(keepingCapacity: true)
            }
            cells.withCells(ofRow: row, ranges: &ranges) { bytes, ranges, isASCII in
                // A row of ASCII cells (nearly all) is laid out in bytes; any other, in characters.
                guard isASCII else {
                    let texts = columns.map {
                        $0 < ranges.count
                            ? String(decoding: UnsafeBufferPointer(rebasing: bytes[ranges[$0]]), as: UTF8.self) : ""
                    }
                    output += (characterLine(texts, counts: texts.map(characterCount), widths: widths) + "\n").utf8
                    return
                }
                let start = output.count
                for (index, column) in columns.enumerated() {
                    let cell =
                        column < ranges.count
                        ? UnsafeBufferPointer(rebasing: bytes[ranges[column]])
                        : UnsafeBufferPointer(rebasing: bytes[0..<0])
                    output.append(contentsOf: cell)
                    if index < columns.count - 1 {
                        output.append(contentsOf: spaces[..<(widths[index] + 2 - cell.count)])
                    }
                }
                while output.count > start && output[output.count - 1] == UInt8(ascii: " ") { output.removeLast() }
                output.append(UInt8(ascii: "\n"))
            }
        }
    }

    /// One row laid out in characters (a cell that is not plain ASCII).
    private static func characterLine(_ row: [String], counts: [Int], widths: [Int]) -> String {
        var line = ""
        for (index, cell) in row.enumerated() {
            line += cell
            if index < row.count - 1 { line += String(repeating: " ", count: widths[index] + 2 - counts[index]) }
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
}

/// A table's cells as they are added, escaped, as UTF-8 in chunks of 64 KiB, each cell followed
/// by a separator byte, and each column's width so far. A case list has thousands of rows: as
/// arrays of strings they cost an allocation or more per cell, in buffers grown by doubling up
/// to twice their text (and, while growing, the old buffer too), and with each cell's end kept
/// as a number 0.3 MB more for 10,000 rows.
struct TableCells {
    private static let chunkSize = 64 * 1024
    /// Follows each cell. Cells are escaped (`DisplayText`), so no C0 control is left in them
    /// and this byte can only be a separator.
    private static let separator: UInt8 = 0x1F

    /// The rows' bytes; each row lies whole in one chunk (a row larger than a chunk has one of
    /// its own).
    private var chunks: [[UInt8]] = []
    /// The row being made.
    private var row: [UInt8] = []
    private var rowCellCount = 0
    /// Where each row starts: its chunk in the high 32 bits, its first byte there in the low.
    private var starts = ChunkedArray<UInt64>(chunkShift: 13)
    /// The widest cell of each column, in characters.
    private(set) var widths: [Int] = []
    /// The bytes of the cells' text.
    private(set) var byteCount = 0

    var rowCount: Int { starts.count }

    /// Adds a cell to the row being made; control characters are shown escaped.
    mutating func append(_ text: String) {
        // Printable ASCII (nearly every cell) is shown as it is, a character a byte: scanned and
        // copied from its contiguous bytes, with no step through a string's view per byte.
        var text = text
        let width = text.withUTF8 { bytes -> Int? in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            row.append(contentsOf: bytes)
            return bytes.count
        }
        let shownWidth: Int
        if let width {
            shownWidth = width
        } else {
            let shown = DisplayText.escaped(text)
            row.append(contentsOf: shown.utf8)
            shownWidth = TextTable.isPlainASCII(shown) ? shown.utf8.count : shown.count
        }
        row.append(Self.separator)
        let column = rowCellCount
        rowCellCount += 1
        if column == widths.count { widths.append(0) }
        widths[column] = max(widths[column], shownWidth)
    }

    /// Ends the row being made.
    mutating func endRow() {
        if chunks.isEmpty || chunks[chunks.count - 1].count + row.count > Self.chunkSize {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(max(Self.chunkSize, row.count))
            chunks.append(chunk)
        }
        let chunk = chunks.count - 1
        starts.append(UInt64(chunk) << 32 | UInt64(chunks[chunk].count))
        chunks[chunk].append(contentsOf: row)
        byteCount += row.count - rowCellCount
        row.removeAll(keepingCapacity: true)
        rowCellCount = 0
    }

    /// Adds a whole row.
    mutating func appendRow(_ row: [String]) {
        for cell in row { append(cell) }
        endRow()
    }

    /// Calls `body` with the bytes of `row` (each cell followed by the separator), `ranges` set
    /// to where each cell lies in them, and whether they are all plain ASCII (no `\r` is left in
    /// escaped text): one pass over the row.
    func withCells<Result>(
        ofRow row: Int, ranges: inout [Range<Int>],
        _ body: (UnsafeBufferPointer<UInt8>, [Range<Int>], _ isASCII: Bool) -> Result
    ) -> Result {
        let place = starts[row]
        let chunk = Int(place >> 32)
        let start = Int(place & 0xFFFF_FFFF)
        let next = row + 1 < starts.count ? starts[row + 1] : nil
        let end =
            next.map { Int($0 >> 32) == chunk ? Int($0 & 0xFFFF_FFFF) : chunks[chunk].count } ?? chunks[chunk].count
        ranges.removeAll(keepingCapacity: true)
        return chunks[chunk].withUnsafeBufferPointer { chunkBytes in
            let bytes = UnsafeBufferPointer(rebasing: chunkBytes[start..<end])
            var cellStart = 0
            var highBits: UInt8 = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                highBits |= byte
                if byte == Self.separator {
                    ranges.append(cellStart..<index)
                    cellStart = index + 1
                }
            }
            return body(bytes, ranges, highBits < 0x80)
        }
    }

    /// Whether every cell of `row` is plain ASCII.
    func isASCII(row: Int) -> Bool {
        var ranges: [Range<Int>] = []
        return withCells(ofRow: row, ranges: &ranges) { _, _, isASCII in isASCII }
    }

    /// A cell as text (empty for a column the row does not have).
    func text(row: Int, column: Int) -> String {
        var ranges: [Range<Int>] = []
        return withCells(ofRow: row, ranges: &ranges) { bytes, ranges, _ in
            column < ranges.count
                ? String(decoding: UnsafeBufferPointer(rebasing: bytes[ranges[column]]), as: UTF8.self) : ""
        }
    }
}
