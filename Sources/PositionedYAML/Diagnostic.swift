/// One problem found in a target file, with where it is.
public struct Diagnostic: Sendable, Hashable, Comparable {
    /// How bad the problem is.
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
        /// Not a problem: a rule the file relies on without writing it (`validate` says it).
        case note
    }

    /// Whether this stops the file from loading.
    public var severity: Severity
    /// The file, as the user named it (relative paths stay relative).
    public var file: String
    /// Where in the file; `nil` for problems of the file as a whole (unreadable, too large).
    public var mark: Mark?
    /// What is wrong and, where possible, what to do about it.
    public var message: String

    /// Creates a diagnostic.
    public init(_ severity: Severity, file: String, mark: Mark?, message: String) {
        self.severity = severity
        self.file = file
        self.mark = mark
        self.message = message
    }

    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        if lhs.file != rhs.file { return lhs.file < rhs.file }
        let l = lhs.mark ?? Mark(line: 0, column: 0)
        let r = rhs.mark ?? Mark(line: 0, column: 0)
        if l != r { return l < r }
        return lhs.message < rhs.message
    }
}
