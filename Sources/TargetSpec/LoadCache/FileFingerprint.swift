#if canImport(Glibc)
import Glibc
#endif

/// What `stat(2)` says of a file that changes whenever its contents do: device, inode, size, and
/// the modification and change times to the nanosecond. The change time cannot be set back by a
/// user; a file changed within the same clock tick as it was looked at is not *settled* (the
/// kernel's file times advance by ticks of a few milliseconds): a change to come might not show
/// in its times, so the load cache keeps no entry for it (git's "racily clean" files).
struct FileFingerprint: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    /// Modification and change times, in nanoseconds since the epoch.
    var modified: Int64
    var changed: Int64

    /// A fingerprint of these numbers (read back from the load cache).
    init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    /// How long after its last change a file counts as settled, in nanoseconds.
    static let settling: Int64 = 2_000_000_000

    /// The fingerprint of the file at `path` (links followed), or `nil` when it cannot be read.
    static func of(_ path: String) -> FileFingerprint? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileFingerprint(info)
    }

    /// The fingerprint of what `info` describes.
    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }

    /// Whether the file last changed long enough before now that a change to come must show in
    /// its times (see the type's note).
    var isSettled: Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        return max(modified, changed) <= nanoseconds - Self.settling
    }

    /// The fingerprint as text: its numbers, with colons between them.
    var text: String { "\(device):\(inode):\(size):\(modified):\(changed)" }

    /// The settled fingerprint of the file at `path`, or `nil`.
    static func settled(_ path: String) -> FileFingerprint? {
        of(path).flatMap { $0.isSettled ? $0 : nil }
    }
}
