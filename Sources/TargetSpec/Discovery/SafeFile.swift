#if canImport(Glibc)
import Glibc
#endif

/// Reading and replacing a file only its owner may change (the trust store), and reading a file
/// without blocking on a FIFO or following a final link.
enum SafeFile {
    /// Why a file cannot be used.
    enum Failure: Error, CustomStringConvertible {
        case missing
        case refused(String)
        case failed(String)

        var description: String {
            switch self {
            case .missing: "does not exist"
            case .refused(let reason), .failed(let reason): reason
            }
        }
    }

    /// The bytes of the regular file at `path` (a final symbolic link refused, a FIFO or device
    /// refused without blocking), at most `limit`; when `mustBePrivate`, it and its folder must
    /// be the user's and writable by nobody else. With `prefix`, only the first `prefix` bytes,
    /// whatever its size.
    static func read(_ path: String, limit: Int, mustBePrivate: Bool, prefix: Int? = nil) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { throw .missing }
            if code == ELOOP { throw .refused("is a symbolic link") }
            throw .failed("cannot be read: \(String(cString: strerror(code)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .failed("cannot be inspected") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .refused("is not a regular file") }
        if mustBePrivate {
            try checkPrivate(info, what: "it")
            try checkPrivateFolder(of: path)
        }
        guard prefix != nil || Int(info.st_size) <= limit else { throw .refused("is larger than \(limit) bytes") }
        var bytes = [UInt8](repeating: 0, count: min(Int(info.st_size), prefix ?? .max))
        var count = 0
        while count < bytes.count {
            let read = bytes[count...].withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { break }
            count += read
        }
        return Array(bytes[..<count])
    }

    /// Replaces the file at `path` with `bytes`: the folders made (0700) when missing; an
    /// existing file must be a private regular file, the folder the user's alone; a temporary
    /// file (0600) beside it written, synced and renamed over it.
    static func replace(_ path: String, with bytes: [UInt8]) throws(Failure) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        try makeFolders(folder.isEmpty ? "/" : folder)
        try checkPrivateFolder(of: path)
        var existing = stat()
        if lstat(path, &existing) == 0 {
            guard existing.st_mode & S_IFMT == S_IFREG else {
                throw .refused(existing.st_mode & S_IFMT == S_IFLNK ? "is a symbolic link" : "is not a regular file")
            }
            try checkPrivate(existing, what: "it")
        }
        var template = Array((path + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else { throw .failed("cannot be written: \(String(cString: strerror(errno)))") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        let synced = fchmod(descriptor, 0o600) == 0 && fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .failed("cannot be written: \(reason)")
        }
    }

    private static func checkPrivate(_ info: stat, what: String) throws(Failure) {
        guard info.st_uid == geteuid() else { throw .refused("belongs to another user") }
        guard info.st_mode & 0o022 == 0 else { throw .refused("is writable by other users") }
    }

    /// The folder holding `path` must be a folder of the user's that nobody else may write to
    /// (or someone else could put a store of theirs in its place).
    private static func checkPrivateFolder(of path: String) throws(Failure) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        var info = stat()
        guard lstat(folder.isEmpty ? "/" : folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw .refused("is in \(folder), which is not a folder")
        }
        guard info.st_uid == geteuid(), info.st_mode & 0o022 == 0 else {
            throw .refused("is in \(folder), which another user owns or may write to")
        }
    }

    /// Makes `folder` and its missing parents, 0700.
    private static func makeFolders(_ folder: String) throws(Failure) {
        var info = stat()
        if stat(folder, &info) == 0 { return }
        let parent = String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)])
        if !parent.isEmpty { try makeFolders(parent) }
        guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
            throw .failed("cannot be written: cannot make \(folder): \(String(cString: strerror(errno)))")
        }
    }
}
