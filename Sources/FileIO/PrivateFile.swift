import CCleanup

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A file of this user's state that holds a secret (a cached token, a session's cookies), by the
/// rules that keep it private: its folder is made with mode 0700 and must be this user's own
/// directory; the file is written with mode 0600 to a temporary file next to it and renamed, so a
/// reader never sees half of it (and Ctrl-C leaves no temporary file); it is only believed when
/// it is a regular file (not a symlink, FIFO or device), owned by this user, readable by nobody
/// else and small: anything else could be another user's plant, or leak what it holds.
package enum PrivateFile {
    /// What reading found.
    package enum ReadOutcome: Sendable {
        /// No file.
        case missing
        /// A file not to believe, and why.
        case refused(String)
        /// The file's bytes.
        case contents(Data)
    }

    /// Why a private folder cannot be used.
    package enum FolderProblem: Error, Sendable {
        /// `lstat` failed other than with ENOENT: the reason.
        case unusable(String)
        /// `mkdir` failed: the reason.
        case cannotCreate(String)
        /// It is a symbolic link or a file.
        case notADirectory
        /// It belongs to another user.
        case otherUsersFolder
        /// Others may open it, and `chmod` could not stop them.
        case cannotMakePrivate
    }

    /// Why a private file was not written.
    package enum WriteProblem: Error, Sendable {
        /// The temporary file could not be created: the reason.
        case cannotCreate(String)
        /// Writing, syncing or renaming it failed: the reason.
        case cannotWrite(String)
    }

    /// Reads `path` if it is a file only this user can read, of at most `limit` bytes: opened
    /// without following a symlink and without blocking (a FIFO), then checked on the open
    /// descriptor, so it cannot be swapped between the check and the read.
    package static func read(_ path: String, limit: Int) -> ReadOutcome {
        var link = stat()
        guard lstat(path, &link) == 0 else {
            return errno == ENOENT ? .missing : .refused(String(cString: strerror(errno)))
        }
        if (link.st_mode & S_IFMT) == S_IFLNK { return .refused("it is a symbolic link") }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .refused(String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .refused(String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .refused("it is not a regular file") }
        guard info.st_uid == geteuid() else { return .refused("it belongs to another user") }
        guard info.st_mode & 0o077 == 0 else {
            return .refused(
                "its mode \(String(info.st_mode & 0o777, radix: 8)) lets others read or change it (it must be 600)")
        }
        guard info.st_size <= limit else { return .refused("it is larger than \(limit / 1024) KiB") }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while data.count <= limit {
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return .contents(data)
    }

    /// Makes `folder` (mode 0700, its missing parents too) if needed, and checks it is this
    /// user's own directory, private.
    package static func ensureFolder(_ folder: String) throws(FolderProblem) {
        var info = stat()
        if lstat(folder, &info) != 0 {
            guard errno == ENOENT else { throw .unusable(String(cString: strerror(errno))) }
            // The missing parents first, each mode 0700 (mkdir(2) one by one: Foundation's
            // createDirectory costs half a million instructions the first time).
            let parent = folder.lastIndex(of: "/").map { String(folder[..<$0]) } ?? "."
            var made = parent.hasPrefix("/") ? "" : "."
            for component in parent.split(separator: "/") {
                made += "/" + component
                _ = mkdir(made, 0o700)
            }
            guard mkdir(folder, 0o700) == 0 || errno == EEXIST, lstat(folder, &info) == 0 else {
                throw .cannotCreate(String(cString: strerror(errno)))
            }
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .notADirectory }
        guard info.st_uid == geteuid() else { throw .otherUsersFolder }
        if info.st_mode & 0o077 != 0 && chmod(folder, 0o700) != 0 { throw .cannotMakePrivate }
    }

    /// Writes `data` as `folder/name`, mode 0600, whole or not at all. `folder` must have passed
    /// `ensureFolder`. Without `syncing` (a cache, whose readers check what they read), the data
    /// is not flushed to the disk before the rename: after a crash the file may be empty or cut.
    package static func write(_ data: Data, named name: String, in folder: String, syncing: Bool = true)
        throws(WriteProblem)
    {
        let final = folder + "/" + name
        let temporary = folder + "/.tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-" + name
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .cannotCreate(String(cString: strerror(errno))) }
        // Ctrl-C while writing must not leave the temporary file (a secret) behind.
        let slot = moya_cleanup_register(temporary, 0)
        defer { if slot >= 0 { moya_cleanup_forget(slot) } }
        var written = fchmod(fd, 0o600) == 0
        if written {
            written = data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let count = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { return false }
                    offset += count
                }
                return true
            }
        }
        written = written && (!syncing || fsync(fd) == 0)
        close(fd)
        guard written, rename(temporary, final) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .cannotWrite(reason)
        }
    }
}
