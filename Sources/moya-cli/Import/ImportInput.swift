import FileIO

#if canImport(Glibc)
import Glibc
#endif

/// What `import` reads (a spec, curl commands, a capture): a file, a pipe or a device
/// (`<(curl …)`), or standard input, bounded.
enum ImportInput {
    /// UTF-8's byte order mark.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The bytes of `path` (`-`: standard input), at most `limit`: a larger regular file is
    /// refused before it is read, a pipe once it passes the limit (exit 65). A UTF-8 byte order
    /// mark at the start (Fiddler and Windows editors write one) is dropped, for every reader alike.
    static func read(_ path: String, name: String, limit: Int, what: String) throws -> [UInt8] {
        let descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            throw CommandFailure(.usage, "cannot read \(path): \(String(cString: strerror(errno)).lowercased())")
        }
        defer { if descriptor != 0 { close(descriptor) } }
        var status = stat()
        if fstat(descriptor, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR {
                throw CommandFailure(.usage, "cannot read \(name): it is a directory")
            }
            if status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) > limit {
                throw CommandFailure(
                    .invalidTargetFile,
                    "\(name) is \(status.st_size) bytes, larger than \(limit >> 20) MiB, the most \(what) read")
            }
        }
        do throws(InputFile.ReadProblem) {
            let bytes = try InputFile.readAll(descriptor, limit: limit)
            return bytes.starts(with: byteOrderMark) ? Array(bytes.dropFirst(byteOrderMark.count)) : bytes
        } catch {
            switch error {
            case .tooLarge:
                throw CommandFailure(
                    .invalidTargetFile, "\(name) is larger than \(limit >> 20) MiB, the most \(what) read")
            case .system(let code):
                throw CommandFailure(.usage, "cannot read \(name): \(InputFile.ReadProblem.reason(code))")
            }
        }
    }
}
