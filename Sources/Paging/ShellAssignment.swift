import TextSafety

/// `name=value` lines a POSIX shell can `eval`: the value single-quoted, so nothing in it (`$`,
/// backquotes, `;`, newlines, quotes) is ever run.
package enum ShellAssignment {
    /// Why a value cannot be given to a shell.
    package enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// A NUL cannot be in a shell variable; it would cut the value.
        case nul(name: String)

        package var description: String {
            switch self {
            case .nul(let name):
                "capture '\(name)' holds a NUL byte, which no shell variable can hold; refusing to print it"
            }
        }
    }

    /// `name='value'`, with each `'` in the value written `'\''`. Newlines and other control
    /// characters stay inside the quotes (a shell keeps them literally); a NUL is refused.
    ///
    /// `name` must be an identifier (`[A-Za-z_][A-Za-z0-9_]*`): the loader allows no other.
    package static func line(name: String, value: String) throws(Problem) -> String {
        if value.utf8.contains(0) { throw .nul(name: name) }
        return name + "=" + ShellQuoting.singleQuoted(value)
    }
}
