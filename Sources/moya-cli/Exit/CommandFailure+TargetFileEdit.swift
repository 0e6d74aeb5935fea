import TargetModel
import TargetSpec

extension CommandFailure {
    /// The failure for a refused edit of a target file (`request --save-as`, `import curl` into
    /// an existing file), its diagnostics written to stderr first: a bad name or option is a usage
    /// error (64), a file that does not validate 65, an edit that would break the file 70, a
    /// file that cannot be written 74.
    static func reporting(_ error: TargetFileEditError) -> CommandFailure {
        if let diagnostics = error.diagnostics { StandardStream.error.write(diagnostics) }
        let status: ExitStatus =
            switch error.kind {
            case .usage: .usage
            case .invalidTargetFile: .invalidTargetFile
            case .invalidResult: .internalError
            case .cannotWrite: .cannotWriteOutput
            }
        return CommandFailure(status, error.message)
    }
}
