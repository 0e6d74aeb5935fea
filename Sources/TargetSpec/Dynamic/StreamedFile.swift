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

    /// Whether `path` is (or leads to) a FIFO, a pipe, a socket or a character device.
    static func isStream(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type == S_IFIFO || type == S_IFCHR || type == S_IFSOCK
    }

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
