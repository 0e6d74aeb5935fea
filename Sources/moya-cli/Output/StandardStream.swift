import FileIO
import MoyaKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered writes to the standard streams (stdout carries bodies, stderr everything else).
///
/// Every write to stdout is checked: the first failure is remembered, later writes are skipped,
/// and `MoyaCommand.terminate` turns it into the documented exit status (74 with a message naming
/// the stream; 141, quietly, when the reader closed the pipe). Failures on stderr are ignored:
/// there is nowhere left to report them.
enum StandardStream {
    case output
    case error

    var fileDescriptor: Int32 { self == .output ? 1 : 2 }

    /// The first failed write to stdout.
    private static let outputFailure = Mutex<FileError?>(nil)

    /// Why writing stdout failed, if it did.
    static var failure: FileError? { outputFailure.withLock { $0 } }

    /// Writes all of `bytes`, retrying on short writes and EINTR; records a failure on stdout.
    func write(_ bytes: some Collection<UInt8>) {
        // Contiguous bytes (an array, `Data`) are written where they are, not copied first.
        let written: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(FileError) { try writeChecked(UnsafeRawBufferPointer(buffer)) } catch {}
        }
        if written != nil { return }
        let buffer = Array(bytes)
        buffer.withUnsafeBytes { raw in
            do throws(FileError) { try writeChecked(raw) } catch {}
        }
    }

    /// Writes `text` as UTF-8.
    func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            do throws(FileError) { try writeChecked(UnsafeRawBufferPointer(buffer)) } catch {}
        }
    }

    /// Writes `text` as UTF-8; throws (and remembers, for stdout) the failure.
    func writeChecked(_ text: String) throws(FileError) {
        try FileError.withBytes(of: Array(text.utf8)) { (raw) throws(FileError) in try writeChecked(raw) }
    }

    /// Writes all of `bytes`; throws (and remembers, for stdout) the failure.
    func writeChecked(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        if self == .output, let failure = Self.failure { throw failure }
        do throws(FileError) {
            // A progress line on the terminal goes first, so nothing lands behind it.
            try ProgressLine.clearingLine(before: fileDescriptor) { () throws(FileError) in
                try OutputFile.writeAll(
                    bytes, to: fileDescriptor, name: self == .output ? "standard output" : "standard error",
                    interruptible: self == .output)
            }
        } catch {
            if self == .output { Self.recordOutputFailure(error) }
            throw error
        }
    }

    /// Records a failure met while writing stdout elsewhere (a sink that failed).
    static func recordOutputFailure(_ error: FileError) {
        guard error.kind == .cannotWriteOutput || error.kind == .brokenPipe else { return }
        outputFailure.withLock { if $0 == nil { $0 = error } }
    }
}
