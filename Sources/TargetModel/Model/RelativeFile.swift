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
    package enum Problem: Equatable {
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
