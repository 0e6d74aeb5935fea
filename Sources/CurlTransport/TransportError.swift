#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A failure to exchange a request and a response over the network.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The classes of failure a caller can act on (the CLI maps them to exit codes).
    public enum Kind: Sendable, Hashable {
        case timedOut
        case cannotResolveHost
        case cannotConnect
        case connectionLost
        case secureConnectionFailed
        case tooManyRedirects
        case cancelled
        case fileAccess
        /// An output file exists and may not be replaced.
        case destinationExists
        /// An output file would be created or replaced in a protected folder (`OutputFile.protect(folders:reason:)`).
        case destinationProtected
        /// The body could not be written where it was to go (disk full, I/O error, a closed stream).
        case cannotWriteOutput
        /// The body's reader went away (EPIPE on a pipe).
        case brokenPipe
        /// The body is larger than the limit set for keeping it in memory.
        case responseTooLarge
        case unsupportedProtocol
        case other
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// A human-readable explanation, e.g. `"Operation timed out after 2001 milliseconds"`.
    public let message: String

    /// Creates an error.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

extension TransportError {
    /// Runs `body` over the bytes of `bytes`, keeping its typed error (`withUnsafeBytes` rethrows
    /// an untyped one): how `Data` and strings reach a writer of raw buffers.
    public static func withBytes(
        of bytes: some ContiguousBytes,
        _ body: (UnsafeRawBufferPointer) throws(TransportError) -> Void
    ) throws(TransportError) {
        var failure: TransportError?
        bytes.withUnsafeBytes { raw in
            do throws(TransportError) { try body(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}
