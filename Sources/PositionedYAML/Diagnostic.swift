/// One problem found in a target file, with where it is.
package struct Diagnostic: Sendable, Hashable, Comparable {
    /// How bad the problem is.
    package enum Severity: String, Sendable, Hashable {
        case error
        case warning
        /// Not a problem: a rule the file relies on without writing it (`validate` says it).
        case note
    }

    /// Whether this stops the file from loading.
    package var severity: Severity
    /// The file, as the user named it (relative paths stay relative).
    package var file: String
    /// Where in the file; `nil` for problems of the file as a whole (unreadable, too large).
    package var mark: Mark?
    /// What is wrong and, where possible, what to do about it.
    package var message: String

    /// Creates a diagnostic.
    package init(_ severity: Severity, file: String, mark: Mark?, message: String) {
        self.severity = severity
        self.file = file
        self.mark = mark
        self.message = message
    }

    package static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        if lhs.file != rhs.file { return lhs.file < rhs.file }
        let l = lhs.mark ?? Mark(line: 0, column: 0)
        let r = rhs.mark ?? Mark(line: 0, column: 0)
        if l != r { return l < r }
        return lhs.message < rhs.message
    }
}
