import CCleanup
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
/// target file's folder only. The folders on the way are opened one by one from the target
/// file's folder, never following a symbolic link (so nothing is written outside, even if one
/// is swapped in meanwhile), and the file itself must be a regular file or absent (a link, FIFO
/// or device there is refused). It is written atomically: a new file in the same folder,
/// flushed, renamed over it.
enum SampleFile {
    /// Whether the file at `relative` (in `folder`) holds exactly `bytes`; `false` when it is absent.
    static func holds(
        _ bytes: [UInt8], at relative: String, besideFileIn folder: String, file: String
    ) throws(TargetFileEditError) -> Bool {
        guard let (directory, name) = try openParent(of: relative, in: folder, file: file, creatingFolders: false)
        else { return false }
        defer { close(directory) }
        var info = stat()
        guard fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw refusal(relative, file, "it is not a regular file") }
        guard Int(info.st_size) == bytes.count else { return false }
        let descriptor = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
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
        guard let (directory, name) = try openParent(of: relative, in: folder, file: file, creatingFolders: true)
        else { return }
        defer { close(directory) }
        var info = stat()
        if fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw refusal(relative, file, "it is not a regular file (a link, FIFO or device is never written through)")
        }
        let temporary = ".moya-sample-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let descriptor = openat(
            directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o644))
        guard descriptor >= 0 else { throw refusal(relative, file, "cannot create a file next to it (\(reason()))") }
        let shown = APISpec.folder(of: folder + "/" + relative) + "/" + temporary
        let slot = moya_cleanup_register(shown, 0)
        defer { moya_cleanup_forget(slot) }
        var written = TargetFileWriter.writeAll(bytes, to: descriptor) && fsync(descriptor) == 0
        let writeError = reason()
        written = close(descriptor) == 0 && written
        guard written, renameat(directory, temporary, directory, name) == 0 else {
            let why = written ? reason() : writeError
            unlinkat(directory, temporary, 0)
            throw refusal(relative, file, "cannot write it (\(why))")
        }
        _ = fsync(directory)
    }

    /// The folder `relative`'s file goes in, opened from `folder` one component at a time without
    /// following links (made when `creatingFolders`), and the file's name; `nil` when a folder is
    /// missing and not made.
    private static func openParent(
        of relative: String, in folder: String, file: String, creatingFolders: Bool
    ) throws(TargetFileEditError) -> (directory: Int32, name: String)? {
        let components = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let name = components.last,
            components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.utf8.contains(0) })
        else {
            throw refusal(relative, file, "it is not a plain path inside the target file's folder")
        }
        var directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw refusal(relative, file, "cannot open the folder \(folder) (\(reason()))") }
        var path = folder
        for component in components.dropLast() {
            path += "/" + component
            if creatingFolders, mkdirat(directory, component, 0o755) != 0, errno != EEXIST {
                let why = reason()
                close(directory)
                throw refusal(relative, file, "cannot make the folder \(path) (\(why))")
            }
            let next = openat(directory, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let openError = errno
            close(directory)
            guard next >= 0 else {
                if openError == ENOENT, !creatingFolders { return nil }
                throw refusal(
                    relative, file,
                    "\(path) is not a folder (a symbolic link is not followed: the file stays inside the target file's folder)"
                )
            }
            directory = next
        }
        return (directory, name)
    }

    private static func refusal(_ relative: String, _ file: String, _ why: String) -> TargetFileEditError {
        TargetFileEditError(
            .cannotWrite,
            "cannot record the sample of \(DisplayText.escaped(file)) in \(DisplayText.escaped(relative)): \(DisplayText.escaped(why))"
        )
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
