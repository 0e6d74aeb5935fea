#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A file (or standard stream) that could not be written as asked: what `OutputFile` throws.
/// CurlTransport turns it into a `TransportError` of the same kind for a download
/// (`TransportError.init(_:)`), so a caller that sends maps one error, and a caller that only
/// writes (an import, a report, generated source) never needs the transport.
package struct FileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The classes of failure a caller can act on (the CLI maps them to exit codes).
    package enum Kind: Sendable, Hashable {
        /// The file exists and may not be replaced.
        case destinationExists
        /// The file would be created or replaced in a protected folder (`OutputFile.protect(folders:reason:)`).
        case destinationProtected
        /// The bytes could not be written where they were to go (disk full, I/O error, a folder).
        case cannotWriteOutput
        /// The reader went away (EPIPE on a pipe).
        case brokenPipe
        /// A signal caught for a graceful stop interrupted the write.
        case cancelled
    }

    /// What kind of failure this is.
    package let kind: Kind
    /// What went wrong, naming the path: `"cannot write out.json: No space left on device"`.
    package let message: String

    /// Creates an error.
    package init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}

extension FileError {
    /// Runs `body` over the bytes of `bytes`, keeping its typed error (`withUnsafeBytes` rethrows
    /// an untyped one): how `Data` and strings reach a writer of raw buffers.
    package static func withBytes(
        of bytes: some ContiguousBytes,
        _ body: (UnsafeRawBufferPointer) throws(FileError) -> Void
    ) throws(FileError) {
        var failure: FileError?
        bytes.withUnsafeBytes { raw in
            do throws(FileError) { try body(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}
