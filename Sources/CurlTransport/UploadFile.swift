import CCleanup
import FileIO

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A file streamed as a request body, read piece by piece as libcurl sends it, so uploads of any
/// size use a fixed amount of memory.
///
/// Only regular files are sent: the file is opened without blocking (a FIFO would wait for a
/// writer) and anything else is refused. A regular file that reports size 0 but has content (the
/// pseudo-files of /proc and /sys) is read first, up to `pseudoFileLimit`, and sent from memory
/// with its real length, rather than announced as empty.
final class UploadFile {
    /// The most a pseudo-file's contents may take.
    static let pseudoFileLimit = 16 << 20

    /// The file being sent.
    let path: String
    /// Its size when opened: the Content-Length announced; nil for a stream, sent chunked.
    let size: Int64?
    private var descriptor: Int32
    /// A pseudo-file's contents, and how far they were sent.
    private var contents: [UInt8]?
    private var offset = 0
    /// Why the last read failed, for the transfer's error.
    private(set) var readError: TransportError?

    /// Opens `url` for reading. With `streams`, a FIFO, pipe, socket or terminal is taken too (a
    /// file the user named as a stream, `URLRequest.streamedFilePaths`), and read as it comes.
    init(url: URL, streams: Bool = false) throws(TransportError) {
        path = url.path
        if streams, let stream = try Self.openStream(path) {
            descriptor = stream
            size = nil
            return
        }
        descriptor = try Self.openRegular(path, what: "upload file")
        var status = stat()
        _ = fstat(descriptor, &status)
        if status.st_size == 0 {
            do throws(TransportError) {
                let read = try Self.readPseudoFile(descriptor, path: path)
                contents = read
                size = Int64(read.count)
            } catch {
                close(descriptor)
                throw error
            }
        } else {
            size = Int64(status.st_size)
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Opens `path` for reading when it is a stream (not a regular file): blocking, as a FIFO
    /// waits for its writer, unless a signal stops the run. Nil for a regular file.
    static func openStream(_ path: String) throws(TransportError) -> Int32? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw TransportError(kind: .fileAccess, message: "cannot read \(path): \(OutputFile.describe(errno))")
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFIFO || type == S_IFCHR || type == S_IFSOCK else { return nil }
        while true {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
            if descriptor >= 0 { return descriptor }
            if errno == EINTR && moya_signals_pending() == 0 { continue }
            if errno == EINTR { throw TransportError(kind: .cancelled, message: "interrupted while opening \(path)") }
            throw TransportError(kind: .fileAccess, message: "cannot read \(path): \(OutputFile.describe(errno))")
        }
    }

    /// Opens `path` for reading without blocking; refuses anything but a regular file.
    static func openRegular(_ path: String, what: String) throws(TransportError) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            throw TransportError(
                kind: .fileAccess, message: "cannot read \(what) \(path): \(OutputFile.describe(errno))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw TransportError(kind: .fileAccess, message: "cannot send \(path): not a regular file")
        }
        // Back to blocking reads: a regular file never blocks, and libcurl expects whole reads.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    /// Reads what a file that claims to be empty holds, up to the limit.
    static func readPseudoFile(_ descriptor: Int32, path: String) throws(TransportError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw TransportError(kind: .fileAccess, message: "cannot read \(path): \(OutputFile.describe(errno))")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > pseudoFileLimit {
                throw TransportError(
                    kind: .fileAccess,
                    message:
                        "cannot send \(path): it reports no size and holds more than \(ByteCount.describe(pseudoFileLimit))"
                )
            }
        }
    }

    /// Reads the next bytes into `buffer`: the count, 0 at the end, nil on error.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let base = buffer.baseAddress else { return 0 }
        if let contents {
            let count = min(buffer.count, contents.count - offset)
            contents.withUnsafeBytes { source in
                base.copyMemory(from: source.baseAddress! + offset, byteCount: count)
            }
            offset += count
            return count
        }
        while true {
            let count = Glibc.read(descriptor, base, buffer.count)
            if count >= 0 { return count }
            // A stream blocks until its writer writes: a signal that stops the run ends the wait.
            if errno == EINTR && moya_signals_pending() != 0 {
                readError = TransportError(kind: .cancelled, message: "interrupted while reading \(path)")
                return nil
            }
            if errno == EINTR { continue }
            readError = TransportError(
                kind: .fileAccess, message: "cannot read upload file \(path): \(OutputFile.describe(errno))")
            return nil
        }
    }

    /// Moves the read position, for a resend; returns false on failure (always for a stream,
    /// whose bytes are gone once sent).
    func seek(to offset: Int64) -> Bool {
        if size == nil { return false }
        if let contents {
            guard offset >= 0, offset <= contents.count else { return false }
            self.offset = Int(offset)
            return true
        }
        return lseek(descriptor, off_t(offset), SEEK_SET) >= 0
    }
}
