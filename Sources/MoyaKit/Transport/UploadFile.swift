#if canImport(Glibc)
import Glibc
#endif

/// A file streamed as a request body, read piece by piece as libcurl sends it, so uploads of any
/// size use a fixed amount of memory.
final class UploadFile {
    /// The file being sent.
    let path: String
    /// Its size when opened: the Content-Length announced.
    let size: Int64
    private var descriptor: Int32
    /// Why the last read failed, for the transfer's error.
    private(set) var readError: TransportError?

    /// Opens `url` for reading.
    init(url: URL) throws(TransportError) {
        path = url.path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TransportError(kind: .fileAccess, message: "cannot read upload file \(path): \(DownloadFile.describe(errno))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw TransportError(kind: .fileAccess, message: "cannot upload \(path): not a regular file")
        }
        size = Int64(status.st_size)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Reads the next bytes into `buffer`: the count, 0 at the end, nil on error.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let base = buffer.baseAddress else { return 0 }
        while true {
            let count = Glibc.read(descriptor, base, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            readError = TransportError(kind: .fileAccess, message: "cannot read upload file \(path): \(DownloadFile.describe(errno))")
            return nil
        }
    }

    /// Moves the read position, for a resend; returns false on failure.
    func seek(to offset: Int64) -> Bool {
        lseek(descriptor, off_t(offset), SEEK_SET) >= 0
    }
}
