/// A position in a source file: 1-based line and column (columns count Unicode scalars).
///
/// Kept in 32 bits each: a target file is limited to far fewer lines and columns, and every
/// scalar, node, case and event of a load carries a mark (8 bytes less each, 10% of the events
/// handed between the parsing threads). Values outside `0...UInt32.max` are clamped.
public struct Mark: Sendable, Hashable, Comparable, CustomStringConvertible {
    private var storedLine: UInt32
    private var storedColumn: UInt32

    /// The 1-based line.
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = UInt32(clamping: newValue) }
    }

    /// The 1-based column.
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = UInt32(clamping: newValue) }
    }

    /// Creates a mark.
    public init(line: Int, column: Int) {
        storedLine = UInt32(clamping: line)
        storedColumn = UInt32(clamping: column)
    }

    public static func < (lhs: Mark, rhs: Mark) -> Bool {
        (lhs.storedLine, lhs.storedColumn) < (rhs.storedLine, rhs.storedColumn)
    }

    public var description: String { "\(line):\(column)" }
}
