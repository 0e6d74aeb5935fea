import FileIO

extension TransportError {
    /// The transport's error for a file that could not be written (a download's destination, the
    /// standard output a body streams to): the same kind and message.
    package init(_ error: FileError) {
        let kind: Kind =
            switch error.kind {
            case .destinationExists: .destinationExists
            case .destinationProtected: .destinationProtected
            case .cannotWriteOutput: .cannotWriteOutput
            case .brokenPipe: .brokenPipe
            case .cancelled: .cancelled
            }
        self.init(kind: kind, message: error.message)
    }

    /// Runs `body`, a file operation, and throws its failure as a `TransportError`: how a writer
    /// whose caller expects the transport's errors (a download, a body sink) uses `OutputFile`.
    package static func converting<Result>(_ body: () throws(FileError) -> Result) throws(TransportError) -> Result {
        do throws(FileError) {
            return try body()
        } catch {
            throw TransportError(error)
        }
    }
}
