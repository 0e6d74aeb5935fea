import OrderedJSON
import PathResolution

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one rule for files a target file names (`dataFile`, uploads, multipart files, sample files,
/// `file` values and their defaults): relative to the target file's folder, and a readable file.
package enum RelativeFile {
    /// Why a path names no file that can be read.
    package enum Problem: Hashable, Sendable {
        /// Nothing is there.
        case missing
        /// A folder, or a file this process may not read.
        case notReadable
    }

    /// `path` resolved against `folder` unless it is absolute; `.` leaves it as written.
    package static func resolve(_ path: String, against folder: String) -> String {
        path.hasPrefix("/") || folder == "." ? path : folder + "/" + path
    }

    /// What keeps the (resolved) `path` from being read as a file, or `nil` when it can be.
    package static func problem(at path: String) -> Problem? {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .missing }
        guard !isDirectory, FileManager.default.isReadableFile(atPath: path) else { return .notReadable }
        return nil
    }
}

extension RelativeFile {
    /// Whether `path` is `root` or inside it, once both are resolved the way the system will open
    /// them: symbolic links followed for the part that exists, `.` and `..` applied to the rest,
    /// relative paths taken from the current folder. A link inside `root` that points outside is
    /// outside.
    package static func isInside(_ path: String, root: String) -> Bool {
        CanonicalPath.isInside(path, root)
    }

    /// The first component of a relative path that is hidden (starts with `.`, but is not `.` or
    /// `..`), or `nil`: a download destination a file names may not be a dotfile or go into a
    /// dot-folder (`.profile`, `.ssh/authorized_keys`, `.config/moya/targets/x.yaml`).
    package static func hiddenComponent(of path: String) -> String? {
        path.split(separator: "/").first { $0.hasPrefix(".") && $0 != "." && $0 != ".." }.map(String.init)
    }
}

/// One question the validator asked the file system, with its answer. A file's verdict depends on
/// the files around it only through these, so the load cache (`TargetSpec`'s `LoadCache`) asks them
/// again before it believes what it kept: a sample deleted, a folder made a link, and the file is
/// validated anew.
package enum FileProbe: Hashable, Sendable {
    /// ``RelativeFile/problem(at:)`` of a path.
    case problem(path: String, answer: RelativeFile.Problem?)
    /// ``RelativeFile/isInside(_:root:)`` of a path and a root.
    case inside(path: String, root: String, answer: Bool)
    /// Whether a sample file is JSON: the problem reported (`nil` when it is), and the file's
    /// fingerprint when it was settled (then an unchanged fingerprint answers without reading it).
    case json(path: String, fingerprint: FileFingerprint?, answer: String?)

    /// Whether the file system still answers as it did.
    package var stillHolds: Bool {
        switch self {
        case .problem(let path, let answer): RelativeFile.problem(at: path) == answer
        case .inside(let path, let root, let answer): RelativeFile.isInside(path, root: root) == answer
        case .json(let path, let fingerprint, let answer):
            (fingerprint != nil && FileFingerprint.of(path) == fingerprint)
                || RelativeFile.jsonProblem(at: path) == answer
        }
    }
}

extension RelativeFile {
    /// Why the file at `path` is not JSON: the message after the file's name, or `nil` when it is.
    package static func jsonProblem(at path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return "cannot be read" }
        do {
            _ = try JSONValue(parsing: data)
            return nil
        } catch {
            return "is not valid JSON: \(error.line):\(error.column): \(error.message)"
        }
    }
}

/// What `stat(2)` says of a file that changes whenever its contents do: device, inode, size, and
/// the modification and change times to the nanosecond. The change time cannot be set back by a
/// user; a file changed within the same clock tick as it was looked at is not *settled* (the
/// kernel's file times advance by ticks of a few milliseconds), and its fingerprint is not
/// believed: as git does with a "racily clean" file, its contents are looked at instead.
package struct FileFingerprint: Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    /// Modification and change times, in nanoseconds since the epoch.
    package var modified: Int64
    package var changed: Int64

    /// A fingerprint of these numbers (read back from the load cache).
    package init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    /// How long after its last change a file counts as settled, in nanoseconds.
    static let settling: Int64 = 2_000_000_000

    /// The fingerprint of the file at `path` (links followed), or `nil` when it cannot be read.
    package static func of(_ path: String) -> FileFingerprint? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileFingerprint(info)
    }

    /// The fingerprint of what `info` describes.
    package init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }

    /// Whether the file last changed long enough before now that a change to come must show in
    /// its times (see the type's note).
    package var isSettled: Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        return max(modified, changed) <= nanoseconds - Self.settling
    }

    /// The fingerprint as text: its numbers, with colons between them.
    package var text: String { "\(device):\(inode):\(size):\(modified):\(changed)" }

    /// The settled fingerprint of the file at `path`, or `nil`.
    package static func settled(_ path: String) -> FileFingerprint? {
        of(path).flatMap { $0.isSettled ? $0 : nil }
    }
}
