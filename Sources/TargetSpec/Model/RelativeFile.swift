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
enum RelativeFile {
    /// Why a path names no file that can be read.
    enum Problem: Equatable {
        /// Nothing is there.
        case missing
        /// A folder, or a file this process may not read.
        case notReadable
    }

    /// `path` resolved against `folder` unless it is absolute; `.` leaves it as written.
    static func resolve(_ path: String, against folder: String) -> String {
        path.hasPrefix("/") || folder == "." ? path : folder + "/" + path
    }

    /// What keeps the (resolved) `path` from being read as a file, or `nil` when it can be.
    static func problem(at path: String) -> Problem? {
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
    static func isInside(_ path: String, root: String) -> Bool {
        let folder = canonical(root)
        let target = canonical(path)
        return target == folder || target.hasPrefix(folder == "/" ? "/" : folder + "/")
    }

    /// `path` made absolute and resolved component by component as the kernel would: each
    /// existing component's links followed before a later `..` applies, so `link/..` is the
    /// link target's parent; components that do not exist (yet) are taken as written.
    static func canonical(_ path: String) -> String {
        var current = path.hasPrefix("/") ? "/" : realPath(".") ?? FileManager.default.currentDirectoryPath
        for component in path.split(separator: "/") {
            switch component {
            case ".":
                continue
            case "..":
                current = parent(of: current)
            default:
                let candidate = (current == "/" ? "/" : current + "/") + component
                current = realPath(candidate) ?? candidate
            }
        }
        return current
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
