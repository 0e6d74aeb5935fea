import CCleanup
import PositionedYAML
import TargetModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A target file as read for editing: its bytes and what identifies this version of it.
package struct TargetFileSnapshot: Sendable, Equatable {
    package var path: String
    package var bytes: [UInt8]
    fileprivate var identity: FileIdentity
    /// What the edit does, for messages.
    fileprivate var purpose: String
}

/// Which file, and which version of it: a rename or a write in between changes it.
private struct FileIdentity: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
    var mode: mode_t
    var owner: uid_t
    var group: gid_t

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
        mode = info.st_mode
        owner = info.st_uid
        group = info.st_gid
    }
}

/// Reads a target file for editing and replaces it atomically: a temporary file in the same
/// folder with the file's mode, written, flushed to disk, then renamed over it — only if the
/// file is still the one read, so another program's change is never lost.
package enum TargetFileWriter {
    /// Reads the regular file at `path`, refusing a symbolic link (replacing it would replace
    /// the link, not the file it points to) and anything not a regular file.
    /// - Parameter purpose: what the edit does, for messages (`add a case to`, `record a sample in`).
    package static func read(
        _ path: String, purpose: String = "add a case to"
    ) throws(TargetFileEditError) -> TargetFileSnapshot {
        var link = stat()
        guard lstat(path, &link) == 0 else { throw failure(path, purpose: purpose, "cannot read it (\(reason()))") }
        if (link.st_mode & S_IFMT) == S_IFLNK {
            throw TargetFileEditError(
                .cannotWrite,
                purpose == "add a case to"
                    ? "\(path) is a symbolic link; cases are added only to the file itself: give its real path (--targets) or edit it by hand"
                    : "\(path) is a symbolic link; cannot \(purpose) it: give the file's real path (--targets) or edit it by hand"
            )
        }
        guard (link.st_mode & S_IFMT) == S_IFREG else {
            throw failure(path, purpose: purpose, "it is not a regular file")
        }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, purpose: purpose, "cannot read it (\(reason()))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw failure(path, purpose: purpose, "it is not a regular file")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { readSome(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw failure(path, purpose: purpose, "cannot read it (\(reason()))") }
            if count == 0 { break }
            bytes += chunk[0..<count]
            // The loader refuses a larger file anyway; a huge one is not read whole to say so.
            guard bytes.count <= YAMLLimits.default.maximumFileSize else {
                throw TargetFileEditError(
                    .invalidTargetFile,
                    "cannot \(purpose) \(path): it is larger than \(YAMLLimits.default.maximumFileSize) bytes, the largest target file"
                )
            }
        }
        return TargetFileSnapshot(path: path, bytes: bytes, identity: FileIdentity(info), purpose: purpose)
    }

    /// Replaces the file `snapshot` was read from with `bytes`, unless it is read-only or has
    /// changed since it was read (then nothing is written).
    package static func replace(_ snapshot: TargetFileSnapshot, with bytes: [UInt8]) throws(TargetFileEditError) {
        let path = snapshot.path
        try checkWritable(snapshot)
        let folder = APISpec.folder(of: path)
        var template = Array((folder + "/.moya-edit-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else {
            throw failure(path, purpose: snapshot.purpose, "cannot create a temporary file in \(folder) (\(reason()))")
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slot = moya_cleanup_register(temporary, 0)
        defer { moya_cleanup_forget(slot) }
        var written = fchmod(descriptor, snapshot.identity.mode & 0o7777) == 0
        // Keeps the group (and, for root, the owner) the file had; a user who may not is left
        // with their own, as any editor leaves it.
        _ = fchown(descriptor, snapshot.identity.owner, snapshot.identity.group)
        written = written && writeAll(bytes, to: descriptor) && fsync(descriptor) == 0
        let writeError = reason()
        written = close(descriptor) == 0 && written
        guard written else {
            unlink(temporary)
            throw failure(path, purpose: snapshot.purpose, "cannot write \(temporary) (\(writeError))")
        }
        guard isUnchanged(snapshot) else {
            unlink(temporary)
            throw failure(
                path, purpose: snapshot.purpose,
                "it changed since it was read (another program wrote it); nothing was written: run the command again")
        }
        guard rename(temporary, path) == 0 else {
            let renameError = reason()
            unlink(temporary)
            throw failure(path, purpose: snapshot.purpose, "cannot replace it (\(renameError))")
        }
        // The rename itself is made durable by flushing the folder.
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Refuses a read-only file: one no one may write is read-only for root too, as editors treat it.
    package static func checkWritable(_ snapshot: TargetFileSnapshot) throws(TargetFileEditError) {
        guard snapshot.identity.mode & 0o222 != 0, access(snapshot.path, W_OK) == 0 else {
            throw failure(
                snapshot.path, purpose: snapshot.purpose,
                snapshot.identity.mode & 0o222 == 0 || errno == EACCES || errno == EROFS
                    ? "it is read-only" : "cannot write it (\(reason()))")
        }
    }

    /// Whether the file at the snapshot's path is still the same file with the same bytes.
    private static func isUnchanged(_ snapshot: TargetFileSnapshot) -> Bool {
        var info = stat()
        guard lstat(snapshot.path, &info) == 0, FileIdentity(info) == snapshot.identity else { return false }
        guard let again = try? read(snapshot.path) else { return false }
        return again.bytes == snapshot.bytes
    }

    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return true }
                let count = write(descriptor, base + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    private static func failure(
        _ path: String, purpose: String = "add a case to", _ why: String
    ) -> TargetFileEditError {
        TargetFileEditError(.cannotWrite, "cannot \(purpose) \(path): \(why)")
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}

/// The system's `read(2)`, which the type's own `read` hides inside it.
func readSome(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
