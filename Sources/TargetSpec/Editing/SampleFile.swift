import TargetModel
import TextSafety
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A recorded body's file beside the target file (`samples/API/CASE.json`): made inside the
/// target file's folder only — every folder on the way must be a real folder there (a symbolic
/// link is refused, so nothing is written outside), and the file itself a regular file or
/// absent (a link, FIFO or device there is refused). It is written atomically: a temporary file
/// in the same folder, flushed, renamed over it.
enum SampleFile {
    /// Whether the file at `relative` (in `folder`) holds exactly `bytes`; `false` when it is absent.
    static func holds(
        _ bytes: [UInt8], at relative: String, besideFileIn folder: String, file: String
    ) throws(TargetFileEditError) -> Bool {
        let path = try checkedPath(relative, in: folder, file: file, creatingFolders: false)
        guard let path else { return false }
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw refusal(relative, file, "it is not a regular file") }
        guard Int(info.st_size) == bytes.count else { return false }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var read: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while read.count <= bytes.count {
            let count = chunk.withUnsafeMutableBytes { readSome(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            read += chunk[0..<count]
        }
        return read == bytes
    }

    /// Writes `bytes` to `relative` in `folder`, making the folders on the way.
    static func write(
        _ bytes: [UInt8], at relative: String, besideFileIn folder: String, file: String
    ) throws(TargetFileEditError) {
        guard let path = try checkedPath(relative, in: folder, file: file, creatingFolders: true) else { return }
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw refusal(relative, file, "it is not a regular file (a link, FIFO or device is never written through)")
        }
        let parent = APISpec.folder(of: path)
        var template = Array((parent + "/.moya-sample-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else { throw refusal(relative, file, "cannot create a file in \(parent) (\(reason()))") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var written = fchmod(descriptor, 0o644) == 0
        written = written && TargetFileWriter.writeAll(bytes, to: descriptor) && fsync(descriptor) == 0
        let writeError = reason()
        written = close(descriptor) == 0 && written
        guard written, rename(temporary, path) == 0 else {
            let why = written ? reason() : writeError
            unlink(temporary)
            throw refusal(relative, file, "cannot write it (\(why))")
        }
    }

    /// The path of `relative` in `folder`, each folder on the way checked to be a real folder
    /// (made when `creatingFolders`); `nil` when one is missing and not made.
    private static func checkedPath(
        _ relative: String, in folder: String, file: String, creatingFolders: Bool
    ) throws(TargetFileEditError) -> String? {
        let components = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.utf8.contains(0) }) else {
            throw refusal(relative, file, "it is not a plain path inside the target file's folder")
        }
        var path = folder
        for component in components.dropLast() {
            path += "/" + component
            var info = stat()
            if lstat(path, &info) != 0 {
                guard creatingFolders else { return nil }
                guard mkdir(path, 0o755) == 0 || errno == EEXIST, lstat(path, &info) == 0 else {
                    throw refusal(relative, file, "cannot make the folder \(path) (\(reason()))")
                }
            }
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw refusal(
                    relative, file,
                    "\(path) is not a folder (a symbolic link is not followed: the file stays inside the target file's folder)"
                )
            }
        }
        return path + "/" + (components.last ?? "")
    }

    private static func refusal(_ relative: String, _ file: String, _ why: String) -> TargetFileEditError {
        TargetFileEditError(
            .cannotWrite,
            "cannot record the sample of \(DisplayText.escaped(file)) in \(DisplayText.escaped(relative)): \(DisplayText.escaped(why))"
        )
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
