#if canImport(Glibc)
import Glibc
#endif

/// A response body streamed to a temporary file next to its destination, moved into place only
/// when the transfer succeeds, so a failed or cancelled download never leaves a partial file.
///
/// The temporary file is created with `O_EXCL` and mode 0666 (less the umask), so the finished
/// file gets the permissions any new file would; it is removed on every path but success.
///
/// Live downloads stream into it; stubbed downloads and the CLI's `--output` save whole bodies
/// through `write(_:to:overwrite:)`, so every file MoyaKit or the CLI saves lands the same way.
public final class DownloadFile {
    /// Where the file goes on success.
    let destination: URL
    /// Whether an existing destination may be replaced.
    let overwrite: Bool
    /// The temporary file being written.
    let temporaryPath: String
    private var descriptor: Int32
    /// Why the last write failed, for the transfer's error.
    private(set) var writeError: TransportError?
    /// Whether the temporary file is gone: moved into place or removed.
    private var isSettled = false

    /// Creates the temporary file, refusing up front an existing destination without `overwrite`.
    init(destination: URL, overwrite: Bool) throws(TransportError) {
        let path = destination.path
        if !overwrite && access(path, F_OK) == 0 {
            throw TransportError(kind: .fileAccess, message: "\(path) already exists; not overwriting it")
        }
        let folder = destination.deletingLastPathComponent().path
        let baseName = destination.lastPathComponent
        for _ in 0..<16 {
            let candidate = folder + "/." + baseName + ".moya-" + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".part"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 {
                self.destination = destination
                self.overwrite = overwrite
                self.temporaryPath = candidate
                self.descriptor = fd
                return
            }
            if errno != EEXIST {
                throw TransportError(kind: .fileAccess, message: "cannot create a file in \(folder) for \(path): \(Self.describe(errno))")
            }
        }
        throw TransportError(kind: .fileAccess, message: "cannot create a temporary file in \(folder) for \(path)")
    }

    deinit {
        discard()
    }

    /// Saves `data` at `destination` as a download would land: written to a temporary file next
    /// to it, then moved into place whole; an existing destination is refused unless `overwrite`,
    /// and the temporary file is removed if anything fails.
    public static func write(_ data: Data, to destination: URL, overwrite: Bool) throws(TransportError) {
        let file = try DownloadFile(destination: destination, overwrite: overwrite)
        let isWritten = data.withUnsafeBytes { file.write($0.bindMemory(to: UInt8.self)) }
        guard isWritten else {
            file.discard()
            throw file.writeError ?? TransportError(kind: .fileAccess, message: "cannot write \(destination.path)")
        }
        try file.commit()
    }

    /// Appends `bytes`; returns false (and records why) on failure.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard descriptor >= 0, var next = bytes.baseAddress else { return bytes.isEmpty }
        var remaining = bytes.count
        while remaining > 0 {
            let written = Glibc.write(descriptor, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                writeError = TransportError(kind: .fileAccess, message: "cannot write \(destination.path): \(Self.describe(errno))")
                return false
            }
            remaining -= written
            next += written
        }
        return true
    }

    /// Closes the file and moves it to the destination.
    ///
    /// There is no `fsync`: like curl, the data reaches the disk when the kernel writes it back.
    /// Forcing a 1 GiB file out before the rename cost about a second; what matters here is that
    /// the destination only ever appears whole (the rename or link), never half-written.
    func commit() throws(TransportError) {
        let path = destination.path
        guard descriptor >= 0 else {
            throw TransportError(kind: .fileAccess, message: "the download of \(path) was already closed")
        }
        let closed = close(descriptor) == 0
        descriptor = -1
        guard closed else {
            discard()
            throw TransportError(kind: .fileAccess, message: "cannot write \(path): \(Self.describe(errno))")
        }
        if overwrite {
            guard rename(temporaryPath, path) == 0 else {
                let reason = Self.describe(errno)
                discard()
                throw TransportError(kind: .fileAccess, message: "cannot move the download to \(path): \(reason)")
            }
        } else {
            // link(2) fails if the destination appeared meanwhile, where rename(2) would replace it.
            var linked = link(temporaryPath, path) == 0
            if !linked && (errno == EPERM || errno == EOPNOTSUPP) && access(path, F_OK) != 0 {
                // A file system without hard links: fall back to a check-then-rename.
                linked = rename(temporaryPath, path) == 0
            }
            guard linked else {
                let reason = errno == EEXIST ? "it already exists; not overwriting it" : Self.describe(errno)
                discard()
                throw TransportError(kind: .fileAccess, message: "cannot move the download to \(path): \(reason)")
            }
            unlink(temporaryPath)
        }
        isSettled = true
    }

    /// Closes and removes the temporary file (a no-op after `commit`).
    func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if !isSettled {
            unlink(temporaryPath)
            isSettled = true
        }
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
