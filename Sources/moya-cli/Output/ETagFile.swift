import FileIO
import HTTPTypes
import MoyaKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// curl's `--etag-compare FILE` and `--etag-save FILE`: a polling script's ETag kept in a file.
enum ETagFile {
    /// The most of the file read: an ETag is a short line.
    static let limit = 8 * 1024

    /// The ETag on the first line of `path`, trimmed; `nil` when the file is missing or that
    /// line is empty (curl then sends no condition). A line that cannot be a header value exits 64.
    static func read(_ path: String) throws -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw CommandFailure(.usage, "--etag-compare: cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw CommandFailure(.usage, "--etag-compare: \(path) is not a regular file")
        }
        let bytes: [UInt8]
        do {
            bytes = try InputFile.readAll(descriptor, limit: limit)
        } catch {
            throw CommandFailure(.usage, "--etag-compare: cannot read \(path) (at most \(limit / 1024) KiB)")
        }
        let line = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
        let tag = String(decoding: line, as: UTF8.self).trimmed
        if tag.isEmpty { return nil }
        guard tag.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw CommandFailure(.usage, "--etag-compare: the first line of \(path) cannot be a header value")
        }
        return tag
    }

    /// Writes the answer's ETag (and a newline) to `path`, whole or not at all; an answer
    /// without one leaves the file as it was, so the next run still compares with the last tag.
    static func save(_ result: Result<Response, MoyaError>, to path: String) throws {
        let response: Response?
        switch result {
        case .success(let answer): response = answer
        case .failure(let error): response = error.response
        }
        guard let tag = response?.response?.headers[.eTag] else { return }
        do throws(FileError) {
            try OutputFile.write(Data((tag + "\n").utf8), to: URL(fileURLWithPath: path), overwrite: true)
        } catch {
            throw CommandFailure(ResponseWriter.status(for: error), "--etag-save: " + error.message)
        }
    }
}
