import MoyaKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The files a command line may name as streams for an upload or a multipart part: `-`
/// (standard input, as curl's `-T -` and `-F name=@-`), a FIFO (`<(…)`, `mkfifo`), a pipe or a
/// terminal reached through `/dev/stdin` or `/dev/fd/N`. Sent as they are read, chunked.
enum StreamedFile {
    /// The path a stream is read from (`/dev/stdin` for `-`), or nil when `given` names no stream
    /// (a regular file, which is sent with its size; anything else is refused later).
    static func path(_ given: String) -> String? {
        if given == "-" { return "/dev/stdin" }
        return isStream(given) ? given : nil
    }

    /// Whether `path` is (or leads to) a FIFO, a pipe or a socket, or is standard input on a
    /// terminal. Not another device: `/dev/zero` typed as a file is refused, as before, rather
    /// than sent for ever (`-` stays the way to send whatever standard input is).
    static func isStream(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        switch status.st_mode & S_IFMT {
        case S_IFIFO, S_IFSOCK: return true
        case S_IFCHR: return standardInputNames.contains(path) && isatty(0) == 1
        default: return false
        }
    }

    /// The names standard input goes by.
    static let standardInputNames: Set = ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]

    /// The streamed paths `task` sends: its upload file, its multipart files.
    static func paths(in task: MoyaKit.Task) -> Set<String> {
        var urls: [URL] = []
        switch task {
        case .uploadFile(let url), .uploadCompositeFile(let url, _): urls = [url]
        case .uploadMultipart(let parts), .uploadCompositeMultipart(let parts, _):
            urls = parts.compactMap { if case .file(let url) = $0.provider { url } else { nil } }
        default: break
        }
        return Set(urls.map(\.path).filter { $0 == "/dev/stdin" || isStream($0) })
    }
}
