#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
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
