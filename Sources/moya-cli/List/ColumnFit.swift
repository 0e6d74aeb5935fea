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
    /// The column's items (its text between `separator`s) stay whole while the table can afford
    /// it: the column narrows to its widest item at the most, or to what the columns that stay
    /// leave at their narrowest.
    var keepsItemsWhole = false
    /// When dropped, the column is shown below its row rather than not at all.
    var spillsBelow = false

    /// A column that is never wrapped or dropped (a name to type, a method).
    static let whole = ColumnFit(minimum: nil)

    /// A column wrapped, when it must be, down to `minimum` columns, broken at `separator`.
    static func wraps(minimum: Int, at separator: String = " ") -> ColumnFit {
        ColumnFit(minimum: minimum, separator: separator)
    }

    /// This column, its items kept whole while the table can afford it.
    func keepingItemsWhole() -> ColumnFit {
        var fit = self
        fit.keepsItemsWhole = true
        return fit
    }

    /// This column, when it cannot keep `minimum` columns beside the others, shown below its row
    /// (wrapped to the terminal) instead: a description in help.
    static func spillsBelow(minimum: Int) -> ColumnFit {
        ColumnFit(minimum: minimum, dropRank: 1, spillsBelow: true)
    }

    /// This column, dropped at `rank` when the table does not fit.
    func dropped(atRank rank: Int) -> ColumnFit {
        var fit = self
        fit.dropRank = rank
        return fit
    }
}
