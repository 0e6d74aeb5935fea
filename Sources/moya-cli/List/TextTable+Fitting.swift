import TextSafety

extension TextTable {
    /// The narrowest terminal tables and help are fitted to: below it (`COLUMNS=1`) nothing
    /// readable fits, so lines are made for this width.
    static let narrowestWidth = 20

    /// `rows` (escaped cells; the first the header when `hasHeader`) laid out for a terminal
    /// `width` columns wide, measured in display columns (a CJK character takes two). A table that
    /// fits is laid out as on a pipe (its ASCII to the byte; wide text padded in columns). One that
    /// does not: columns with a `dropRank` give way, lowest
    /// first, each wrapped within its own column when it can keep its minimum width, else dropped;
    /// then the wrapping columns that stay narrow, the last first, down to their minimums; a
    /// column that keeps its items whole (VALUES) narrows, in a first attempt, no narrower than its
    /// widest item, or than what the columns that stay leave at their narrowest. A dropped column
    /// that spills (a help's description) is shown below its row instead, wrapped, indented 4
    /// columns more than the row's first cell. When even that is too wide (a case name longer than the terminal), each row is stacked: its first
    /// cell on a line (broken too when `breaksWholeCells`), every other cell on lines of its own,
    /// indented 4 columns more; the header is not shown then.
    static func fitted(
        _ rows: [[String]], fits: [ColumnFit], width: Int, hasHeader: Bool, breaksWholeCells: Bool
    ) -> String {
        let width = max(width, narrowestWidth)
        let count = max(fits.count, rows.map(\.count).max() ?? 0)
        let fits = fits + Array(repeating: ColumnFit.whole, count: count - fits.count)
        let natural = (0..<count).map { column in
            rows.map { column < $0.count ? DisplayColumns.width(of: $0[column]) : 0 }.max() ?? 0
        }
        // Items kept whole where the table can afford it (a value `state: open|closed = open`
        // is what one types); else wrapped down to the plain minimums; else stacked.
        let body = hasHeader ? Array(rows.dropFirst()) : rows
        let itemMinimums = (0..<count).map { column -> Int? in
            guard let minimum = fits[column].minimum else { return nil }
            guard fits[column].keepsItemsWhole else { return minimum }
            let widest =
                body.map { row in
                    column < row.count ? widestItem(row[column], separator: fits[column].separator) : 0
                }.max() ?? 0
            // No wider than what the columns that stay leave at their narrowest.
            let staying = (0..<count).filter { $0 != column && fits[$0].dropRank == nil }
            let left =
                width - staying.map { min(fits[$0].minimum ?? natural[$0], natural[$0]) }.reduce(0, +) - 2
                * staying.count
            return min(natural[column], max(minimum, min(widest, left)))
        }
        let whole = layout(natural: natural, minimums: itemMinimums, fits: fits, width: width)
        let (shown, limits, over) =
            whole.excess <= 0
            ? whole : layout(natural: natural, minimums: fits.map(\.minimum), fits: fits, width: width)
        let spilled = (0..<count).filter { fits[$0].spillsBelow && !shown.contains($0) }
        if over > 0 {
            return stacked(
                body, columns: shown + spilled, fits: fits, width: width, breaksWholeCells: breaksWholeCells)
        }
        var output = ""
        for (rowIndex, row) in rows.enumerated() {
            defer {
                // A column given up for room goes below its row when it spills (a description).
                let lead = (row.first?.prefix { $0 == " " }.count ?? 0) + 4
                for column in spilled where column < row.count && !(hasHeader && rowIndex == 0) {
                    for line in DisplayColumns.wrapped(row[column], width: width - lead) where !line.isEmpty {
                        output += String(repeating: " ", count: lead) + line + "\n"
                    }
                }
            }
            let cellLines = shown.map { column -> [String] in
                let cell = column < row.count ? row[column] : ""
                return DisplayColumns.wrapped(cell, width: limits[column], separator: fits[column].separator)
            }
            for index in 0..<(cellLines.map(\.count).max() ?? 1) {
                var line = ""
                for (position, lines) in cellLines.enumerated() {
                    let text = index < lines.count ? lines[index] : ""
                    line += text
                    if position < cellLines.count - 1 {
                        let pad = limits[shown[position]] + 2 - DisplayColumns.width(of: text)
                        line += String(repeating: " ", count: max(0, pad))
                    }
                }
                while line.last == " " { line.removeLast() }
                output += line + "\n"
            }
        }
        return output
    }

    /// The columns shown and their widths for `width`: columns with a `dropRank` give way, lowest
    /// first, each wrapped within its own column when it can keep its minimum, else dropped; then
    /// the wrapping columns that stay narrow, the last first, down to their minimums. `excess`: how much wider than `width` that still is.
    private static func layout(natural: [Int], minimums: [Int?], fits: [ColumnFit], width: Int) -> (
        shown: [Int], limits: [Int], excess: Int
    ) {
        var limits = natural
        var shown = Array(natural.indices)
        func excess() -> Int { shown.map { limits[$0] }.reduce(0, +) + 2 * max(0, shown.count - 1) - width }
        for rank in Set(fits.compactMap(\.dropRank)).sorted() where excess() > 0 {
            for column in shown where fits[column].dropRank == rank {
                let over = excess()
                guard over > 0 else { break }
                if let minimum = minimums[column], limits[column] - over >= minimum {
                    limits[column] -= over
                } else {
                    shown.removeAll { $0 == column }
                }
            }
        }
        let shrinking =
            shown.reversed().filter { !fits[$0].keepsItemsWhole } + shown.reversed().filter { fits[$0].keepsItemsWhole }
        for column in shrinking where excess() > 0 {
            guard let minimum = minimums[column], limits[column] > minimum else { continue }
            limits[column] -= min(excess(), limits[column] - minimum)
        }
        return (shown, limits, excess())
    }

    /// The widest of `cell`'s items (its text between `separator`s), as shown.
    private static func widestItem(_ cell: String, separator: String) -> Int {
        let shown = DisplayText.escaped(cell)
        return shown.split(separator: separator).map { DisplayColumns.width(of: String($0)) + 1 }.max() ?? 0
    }

    /// Each row as a block: its first cell, then its other cells in `columns` (non-empty ones)
    /// indented 4 columns more than the first cell, packed on lines while they fit, a wider one
    /// wrapped on lines of its own.
    private static func stacked(
        _ rows: [[String]], columns: [Int], fits: [ColumnFit], width: Int, breaksWholeCells: Bool
    ) -> String {
        var output = ""
        for row in rows {
            guard let first = row.first else { continue }
            let lead = first.prefix { $0 == " " }.count
            let firstLines =
                breaksWholeCells
                ? DisplayColumns.wrapped(String(first.dropFirst(lead)), width: width - lead)
                : [DisplayText.escaped(String(first.dropFirst(lead)))]
            for line in firstLines { output += String(repeating: " ", count: lead) + line + "\n" }
            let indent = String(repeating: " ", count: lead + 4)
            let room = width - indent.count
            // Cells packed on lines while they fit (`GET  /get`), a wider one on lines of its own.
            var line = ""
            for column in columns.dropFirst() where column < row.count && !row[column].isEmpty {
                let shown = DisplayText.escaped(row[column])
                let lineWidth = DisplayColumns.width(of: line)
                if !line.isEmpty && lineWidth + 2 + DisplayColumns.width(of: shown) <= room {
                    line += "  " + shown
                    continue
                }
                if !line.isEmpty { output += indent + line + "\n" }
                let lines = DisplayColumns.wrapped(row[column], width: room, separator: fits[column].separator)
                guard lines.count == 1 else {
                    for wrapped in lines { output += indent + wrapped + "\n" }
                    line = ""
                    continue
                }
                line = lines[0]
            }
            if !line.isEmpty { output += indent + line + "\n" }
        }
        return output
    }
}
