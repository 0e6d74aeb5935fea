/// How a column of a table gives way when the table is wider than the terminal (see
/// `TextTable.fitted(_:fits:width:hasHeader:breaksWholeCells:)`): kept whole, or wrapped down to
/// a minimum width; dropped, lowest `dropRank` first, before the kept columns wrap.
struct ColumnFit: Sendable {
    /// The narrowest the column wraps to; `nil`: the column is never wrapped.
    var minimum: Int?
    /// Where a cell's lines break: `" "`, or `", "` between the items of a list.
    var separator = " "
    /// The column goes when the table does not fit, lower ranks first (a wrapping one first
    /// wraps, if it can keep its minimum); `nil`: it stays.
    var dropRank: Int?

    /// A column that is never wrapped or dropped (a name to type, a method).
    static let whole = ColumnFit(minimum: nil)

    /// A column wrapped, when it must be, down to `minimum` columns, broken at `separator`.
    static func wraps(minimum: Int, at separator: String = " ") -> ColumnFit {
        ColumnFit(minimum: minimum, separator: separator)
    }

    /// This column, dropped at `rank` when the table does not fit.
    func dropped(atRank rank: Int) -> ColumnFit {
        var fit = self
        fit.dropRank = rank
        return fit
    }
}
