import CCleanup
import PathResolution
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A file a response body (or any output) is written to, by the rules that keep data and the
/// system safe:
///
/// - a path that does not exist yet, or an existing regular file with `overwrite`, is written to
///   a temporary file in the same folder and moved into place on `commit()` only, so a failed or
///   interrupted write never leaves half a file; an existing regular file without `overwrite` is
///   refused;
/// - anything else that exists and can be written — a character device (`/dev/null`), a FIFO, a
///   terminal, a descriptor reached through `/dev/stdout` or `/proc/self/fd/N` — is opened and
///   written through, never replaced;
/// - a symbolic link is never replaced by a file: its target is written to by the same rules;
///   a block device needs `overwrite`; folders and sockets are refused.
///
/// The temporary file (and any folder created for it) is registered with the process's signal
/// clean-up, so SIGINT, SIGTERM and SIGHUP remove it too.
package final class OutputFile: @unchecked Sendable {
    /// How the bytes reach `path`.
    package enum Mode: Sendable, Hashable {
        /// A new or replaced regular file, written to a temporary file first.
        case atomic
        /// An existing special file, written in place.
        case writeThrough
    }

    /// The path as given, for messages.
    package let path: String
    /// How the bytes reach `path`.
    package let mode: Mode
    /// How many bytes were written so far.
    package private(set) var byteCount: Int64 = 0

    /// The file moved into place on commit (the symbolic link's target for a link).
    private let finalPath: String
    private let overwrite: Bool
    private let temporaryPath: String?
    private var descriptor: Int32
    private var cleanupSlot: Int32 = -1
    /// Folders made for this file, outermost first, removed again unless the commit succeeds.
    private var createdFolders: [(path: String, slot: Int32)] = []
    private var isSettled = false

    /// Opens `path` for writing by the rules above.
    /// - Parameters:
    ///   - overwrite: whether an existing regular file (or block device) may be replaced.
    ///   - createFolders: whether missing parent folders are created (and removed again on failure).
    /// - Throws: `FileError` of kind `.destinationExists` or `.cannotWriteOutput`, naming the path.
    package init(path: String, overwrite: Bool, createFolders: Bool = false) throws(FileError) {
        self.path = path
        self.overwrite = overwrite
        switch try Self.plan(for: path, overwrite: overwrite) {
        case .writeThrough(let appending):
            mode = .writeThrough
            finalPath = path
            temporaryPath = nil
            descriptor = try Self.openExisting(path, appending: appending)
            return
        case .atomic(let resolved):
            mode = .atomic
            finalPath = resolved
            descriptor = -1
        }
        let resolved = finalPath
        let folder = Self.folder(of: resolved)
        if createFolders { createdFolders = try Self.makeFolders(folder, for: path) }
        var created: (String, Int32)?
        for _ in 0..<16 {
            let candidate =
                folder + "/." + Self.baseName(of: resolved) + ".moya-"
                + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".part"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 {
                created = (candidate, fd)
                break
            }
            if errno != EEXIST {
                let reason = Self.describe(errno)
                Self.removeFolders(createdFolders)
                throw Self.failure(path, "cannot create a file in \(folder): \(reason)")
            }
        }
        guard let (candidate, fd) = created else {
            Self.removeFolders(createdFolders)
            throw Self.failure(path, "cannot create a temporary file in \(folder)")
        }
        temporaryPath = candidate
        descriptor = fd
        cleanupSlot = moya_cleanup_register(candidate, 0)
    }

    deinit {
        discard()
    }

    /// How a path is written.
    enum Plan: Equatable {
        /// Opened and written in place (appending to a regular file reached through /proc).
        case writeThrough(appending: Bool)
        /// Written to a temporary file and moved onto `resolvedPath`.
        case atomic(resolvedPath: String)
    }

    /// Decides how `path` is written, or why it cannot be, without opening or creating anything:
    /// what a command checks before it sends a request whose body goes there.
    package static func checkWritable(_ path: String, overwrite: Bool) throws(FileError) {
        _ = try plan(for: path, overwrite: overwrite)
    }

    /// Folders no output may create or replace a file in, whatever the path's form (relative,
    /// through `..` or a symbolic link): a program's own configuration that a download or a
    /// redirected body must never plant files in. `reason` ends the refusal's message. Set once
    /// at start-up.
    package static func protect(folders: [String], reason: String) {
        protection.withLock { $0 = (folders, reason) }
    }

    private static let protection = Mutex<(folders: [String], reason: String)>(([], ""))

    /// The protected folder `path` would land in, if any, and why it is protected.
    package static func protectedFolder(holding path: String) -> (folder: String, reason: String)? {
        let (folders, reason) = protection.withLock { $0 }
        guard !folders.isEmpty else { return nil }
        return folders.first { CanonicalPath.isInside(path, $0) }.map { ($0, reason) }
    }

    static func plan(for path: String, overwrite: Bool) throws(FileError) -> Plan {
        let plan = try unprotectedPlan(for: path, overwrite: overwrite)
        if case .atomic(let resolved) = plan, let (folder, reason) = protectedFolder(holding: resolved) {
            throw FileError(
                kind: .destinationProtected, message: "not writing \(path): it would land in \(folder), \(reason)")
        }
        return plan
    }

    private static func unprotectedPlan(for path: String, overwrite: Bool) throws(FileError) -> Plan {
        var status = stat()
        var linkStatus = stat()
        let exists = stat(path, &status) == 0
        let statError = errno
        let isLink = lstat(path, &linkStatus) == 0 && (linkStatus.st_mode & S_IFMT) == S_IFLNK
        if !exists && isLink {
            throw failure(path, statError == ENOENT ? "it is a symbolic link to a missing file" : describe(statError))
        }
        let type = status.st_mode & S_IFMT
        if exists && type != S_IFREG {
            switch type {
            case S_IFDIR: throw failure(path, "it is a folder")
            case S_IFSOCK: throw failure(path, "it is a socket")
            case S_IFBLK where !overwrite:
                throw FileError(kind: .destinationExists, message: "\(path) is a block device; not writing to it")
            default: return .writeThrough(appending: false)
            }
        }
        // A link through /proc (/dev/stdout, /dev/fd/N) names an open descriptor, whose file must
        // not be swapped under the process that opened it: appended to, as `>>` would.
        if exists && isLink && resolvesThroughProc(path) { return .writeThrough(appending: true) }
        if exists && !overwrite {
            throw FileError(kind: .destinationExists, message: "\(path) already exists; not overwriting it")
        }
        // A link is never replaced by a file: its target is.
        return .atomic(resolvedPath: isLink ? realPath(path) ?? path : path)
    }

    /// Saves `data` at `destination` by the rules of the type: whole or not at all for a regular
    /// file, written through for a special one; with `createFolders`, missing folders are made
    /// (and removed again if the write fails).
    package static func write(_ data: Data, to destination: URL, overwrite: Bool, createFolders: Bool = false)
        throws(FileError)
    {
        let file = try OutputFile(path: destination.path, overwrite: overwrite, createFolders: createFolders)
        do throws(FileError) {
            try file.write(data)
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }

    /// Whether `path` is (or links to) a block device: a disk, which `-o` writes only when told.
    package static func isBlockDevice(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFBLK
    }

    /// The path a download that must not replace anything is saved to: `path` itself when nothing
    /// is there, else the first of `name-1.ext`, `name-2.ext`, ... (as HTTPie's `--download` and
    /// a browser number them) that is free; `path` again when something there is written through
    /// (a device, a FIFO) or refused (a folder), so that the usual rules answer for it. `nil` when
    /// the first 9,999 numbers are all taken.
    ///
    /// Choosing a name and creating the file are two steps; a file that appears between them is
    /// still never replaced (`commit()` links without replacing and fails naming the path).
    package static func unusedPath(for path: String) -> String? {
        var status = stat()
        var linkStatus = stat()
        let exists = stat(path, &status) == 0
        guard exists || lstat(path, &linkStatus) == 0 else { return path }
        if exists && status.st_mode & S_IFMT != S_IFREG { return path }
        let folderEnd = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[folderEnd...]
        // `archive.tar.gz` becomes `archive.tar-1.gz`, `README` `README-1`; a leading dot is no extension.
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 } ?? path.endIndex
        for number in 1...9_999 {
            let candidate = String(path[..<dot]) + "-\(number)" + String(path[dot...])
            if lstat(candidate, &linkStatus) != 0 && errno == ENOENT { return candidate }
        }
        return nil
    }

    /// Appends `bytes`, retrying short writes.
    /// - Throws: `.cannotWriteOutput` naming the path and the system's reason, or `.cancelled` when
    ///   a signal interrupted a blocked write.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
        guard descriptor >= 0 else { throw Self.failure(path, "it is closed") }
        try Self.writeAll(bytes, to: descriptor, name: path)
        byteCount += Int64(bytes.count)
    }

    /// Appends `data`.
    package func write(_ data: Data) throws(FileError) {
        try FileError.withBytes(of: data) { (bytes) throws(FileError) in try write(bytes) }
    }

    /// Closes the file and, for a regular one, moves it into place.
    ///
    /// There is no `fsync`: like curl, the data reaches the disk when the kernel writes it back.
    /// What matters here is that the destination only ever appears whole (the rename or link).
    package func commit() throws(FileError) {
        guard descriptor >= 0 else { throw Self.failure(path, "it was already closed") }
        let closed = close(descriptor) == 0
        let closeError = errno
        descriptor = -1
        guard closed || mode == .writeThrough && closeError == EINTR else {
            discard()
            throw Self.failure(path, Self.describe(closeError))
        }
        guard mode == .atomic, let temporaryPath else {
            isSettled = true
            return
        }
        if overwrite {
            guard rename(temporaryPath, finalPath) == 0 else {
                let reason = Self.describe(errno)
                discard()
                throw Self.failure(path, "cannot move it into place: \(reason)")
            }
        } else {
            // link(2) fails if the destination appeared meanwhile, where rename(2) would replace it.
            var linked = link(temporaryPath, finalPath) == 0
            if !linked && (errno == EPERM || errno == EOPNOTSUPP) && access(finalPath, F_OK) != 0 {
                // A file system without hard links: fall back to a check-then-rename.
                linked = rename(temporaryPath, finalPath) == 0
            }
            guard linked else {
                if errno == EEXIST {
                    discard()
                    throw FileError(
                        kind: .destinationExists, message: "\(path) already exists; not overwriting it")
                }
                let reason = Self.describe(errno)
                discard()
                throw Self.failure(path, "cannot move it into place: \(reason)")
            }
            unlink(temporaryPath)
        }
        isSettled = true
        moya_cleanup_forget(cleanupSlot)
        for folder in createdFolders { moya_cleanup_forget(folder.slot) }
        createdFolders = []
    }

    /// Closes and removes the temporary file and the folders made for it (a no-op after `commit`).
    package func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        guard !isSettled else { return }
        isSettled = true
        if let temporaryPath { unlink(temporaryPath) }
        moya_cleanup_forget(cleanupSlot)
        Self.removeFolders(createdFolders)
        createdFolders = []
    }

    // MARK: - Shared with the standard output

    /// Writes all of `bytes` to `descriptor`, retrying short writes and interrupted ones; when
    /// `interruptible`, a signal caught for a graceful stop ends the write with `.cancelled`.
    package static func writeAll(
        _ bytes: UnsafeRawBufferPointer, to descriptor: Int32, name: String,
        interruptible: Bool = true
    ) throws(FileError) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            if interruptible && moya_signals_pending() != 0 {
                throw FileError(kind: .cancelled, message: "interrupted while writing \(name)")
            }
            let written = Glibc.write(descriptor, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    // A descriptor left non-blocking by whoever opened it: wait until it drains.
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                }
                throw failure(name, describe(errno), code: errno)
            }
            remaining -= written
            next += written
        }
    }

    /// The system's description of `code`.
    package static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    static func failure(_ path: String, _ reason: String, code: Int32 = 0) -> FileError {
        FileError(
            kind: code == EPIPE ? .brokenPipe : .cannotWriteOutput, message: "cannot write \(path): \(reason)")
    }

    private static func openExisting(_ path: String, appending: Bool) throws(FileError) -> Int32 {
        while true {
            // O_NOCTTY: a terminal named here must not become the controlling one.
            let fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (appending ? O_APPEND : 0))
            if fd >= 0 { return fd }
            if errno == EINTR && moya_signals_pending() == 0 { continue }
            if errno == EINTR { throw FileError(kind: .cancelled, message: "interrupted while opening \(path)") }
            throw failure(path, describe(errno))
        }
    }

    /// Whether following the link at `path` passes through /proc (a descriptor's magic link).
    private static func resolvesThroughProc(_ path: String) -> Bool {
        var current = path
        for _ in 0..<40 {
            if current.hasPrefix("/proc/") { return true }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { return false }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : folder(of: current) + "/" + target
        }
        return false
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    private static func baseName(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// Creates the missing folders of `folder`, outermost first, each registered for clean-up.
    private static func makeFolders(_ folder: String, for path: String) throws(FileError) -> [(
        path: String, slot: Int32
    )] {
        var missing: [String] = []
        var current = folder
        while !current.isEmpty, current != "/", current != ".", access(current, F_OK) != 0 {
            missing.append(current)
            current = self.folder(of: current)
        }
        var created: [(path: String, slot: Int32)] = []
        for folder in missing.reversed() {
            if mkdir(folder, 0o777) == 0 {
                created.append((folder, moya_cleanup_register(folder, 1)))
            } else if errno != EEXIST {
                let reason = describe(errno)
                removeFolders(created)
                throw failure(path, "cannot create folder \(folder): \(reason)")
            }
        }
        return created
    }

    private static func removeFolders(_ folders: [(path: String, slot: Int32)]) {
        for folder in folders.reversed() {
            rmdir(folder.path)
            moya_cleanup_forget(folder.slot)
        }
    }
}
