/// Why a case could not be added to a target file; nothing was written.
package struct TargetFileEditError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, and so the exit status moya-cli(1) documents for it.
    package enum Kind: Sendable, Equatable {
        /// The case name is invalid or taken, or the request cannot be written as a case: 64.
        case usage
        /// The target file has errors, or `cases` is not a block mapping: 65.
        case invalidTargetFile
        /// The edited file does not validate: moya-cli made something it cannot stand behind: 70.
        case invalidResult
        /// The file cannot be replaced: read-only, a symbolic link, not a regular file, changed
        /// by someone else since it was read, or an I/O error: 74.
        case cannotWrite

        /// The exit status moya-cli(1) gives this kind (EXIT STATUS).
        package var exitStatus: Int32 {
            switch self {
            case .usage: 64
            case .invalidTargetFile: 65
            case .invalidResult: 70
            case .cannotWrite: 74
            }
        }
    }

    package var kind: Kind
    /// One line naming the file (and line) and what to do.
    package var message: String
    /// The loader's rendered diagnostics, for ``Kind/invalidTargetFile`` and ``Kind/invalidResult``.
    package var diagnostics: String?

    package init(_ kind: Kind, _ message: String, diagnostics: String? = nil) {
        self.kind = kind
        self.message = message
        self.diagnostics = diagnostics
    }

    package var description: String { message }
}
