import TargetModel

#if canImport(Glibc)
import Glibc
#endif

/// Files a request reads (uploads, `dataFile`, multipart files, samples) must be regular files.
enum RegularFile {
    /// Refuses `path` unless it is a regular file (after links), without opening it.
    static func check(_ path: String) throws(TargetBuildError) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .unreadableFile(path) }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else { throw .notRegularFile(path, kind: describe(type)) }
        guard access(path, R_OK) == 0 else { throw .unreadableFile(path) }
    }

    /// `a FIFO`, `a character device`, ...
    static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a folder"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}

extension HeaderLine {
    /// Refuses `value` if it holds CR, LF or NUL; `field` names it in the message.
    static func check(_ value: String, field: @autoclosure () -> String) throws(TargetBuildError) {
        if holdsLineBreak(value) { throw .lineBreakInField(field()) }
    }
}
