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
    /// then the wrapping columns that stay narrow, the last first, down to their minimums. When
    /// even that is too wide (a case name longer than the terminal), each row is stacked: its first
    /// cell on a line (broken too when `breaksWholeCells`), every other cell on lines of its own,
    /// indented 4 columns more; the header is not shown then.
    static func fitted(
        _ rows: [[String]], fits: [ColumnFit], width: Int, hasHeader: Bool, breaksWholeCells: Bool
    ) -> String {
        let width = max(width, narrowestWidth)
        let count = max(fits.count, rows.map(\.count).max() ?? 0)
        let fits = fits + Array(repeating: ColumnFit.whole, count: count - fits.count)
        var limits = (0..<count).map { column in
            rows.map { column < $0.count ? DisplayColumns.width(of: $0[column]) : 0 }.max() ?? 0
        }
        var shown = Array(0..<count)
        func excess() -> Int { shown.map { limits[$0] }.reduce(0, +) + 2 * max(0, shown.count - 1) - width }
        let ranks = Set(fits.compactMap(\.dropRank)).sorted()
        for rank in ranks where excess() > 0 {
            for column in shown where fits[column].dropRank == rank {
                let over = excess()
                guard over > 0 else { break }
                if let minimum = fits[column].minimum, limits[column] - over >= minimum {
                    limits[column] -= over
                } else {
                    shown.removeAll { $0 == column }
                }
            }
        }
        for column in shown.reversed() where excess() > 0 {
            guard let minimum = fits[column].minimum, limits[column] > minimum else { continue }
            limits[column] -= min(excess(), limits[column] - minimum)
        }
        if excess() > 0 {
            return stacked(
                hasHeader ? Array(rows.dropFirst()) : rows, columns: shown, fits: fits, width: width,
                breaksWholeCells: breaksWholeCells)
        }
        var output = ""
        for row in rows {
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

    /// Each row as a block: its first cell, then its other cells in `columns` (non-empty ones),
    /// each on lines of its own indented 4 columns more than the first cell.
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
            for column in columns.dropFirst() where column < row.count && !row[column].isEmpty {
                let lines = DisplayColumns.wrapped(
                    row[column], width: width - indent.count, separator: fits[column].separator)
                for line in lines {
                    output += indent + line + "\n"
                }
            }
        }
        return output
    }
}
