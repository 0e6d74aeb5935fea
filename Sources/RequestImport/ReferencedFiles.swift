import PathResolution

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The files a command's text names (`-d @file`, `-F 'f=<file'`): read only inside the folder
/// the commands came from, since the text is someone else's and must not read the user's other
/// files into a target file. Files that become `file` values (`-F f=@file`, `-T file`) are not
/// read at all: the case takes the file when it is called.
package struct ReferencedFiles: Sendable {
    /// At most this much of one file is read into a case.
    package static let maximumFileSize = 1 << 20

    /// The folder files must be in (resolved, links followed).
    package var folder: String

    package init(folder: String) {
        self.folder = CanonicalPath.of(folder)
    }

    /// The bytes of `path` (relative to the folder), refused when it is outside the folder, not a
    /// regular file, or too large.
    package func read(_ path: String, at place: TextPlace) throws(RequestImportError) -> [UInt8] {
        guard path != "-" else {
            throw RequestImportError("'@-' reads standard input, which is not part of the command text", at: place)
        }
        let full = path.hasPrefix("/") ? path : folder + "/" + path
        guard !path.isEmpty, CanonicalPath.isInside(full, folder) else {
            throw RequestImportError(
                "the command reads '\(path)', outside the folder it came from (\(folder)); only files beside the command file are read",
                at: place)
        }
        let descriptor = open(full, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw RequestImportError(
                "cannot read '\(path)', which the command names: \(String(cString: strerror(errno)).lowercased())",
                at: place)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw RequestImportError("'\(path)', which the command names, is not a regular file", at: place)
        }
        guard Int(status.st_size) <= Self.maximumFileSize else {
            throw RequestImportError(
                "'\(path)', which the command names, is \(status.st_size) bytes; at most \(Self.maximumFileSize >> 20) MiB is read into a case",
                at: place)
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        return Array(bytes.prefix(count))
    }
}
