#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension YAMLLoader {
    /// Reads the file at `path`, refusing it before reading a byte if it is over the size limit.
    /// - Parameters:
    ///   - path: where the file is.
    ///   - file: the name diagnostics should show; defaults to `path`.
    ///   - limits: the bounds; only ``YAMLLimits/maximumFileSize`` is used here.
    /// - Returns: the file's bytes, to pass to ``load(_:file:limits:)`` and to keep
    ///   for rendering diagnostics.
    /// - Throws: ``YAMLLoadError`` naming the file (missing, unreadable, a directory, too large).
    public static func readFile(atPath path: String, file: String? = nil, limits: YAMLLimits = .default) throws(YAMLLoadError) -> [UInt8] {
        let name = file ?? path
        func refuse(_ problem: YAMLProblem) -> YAMLLoadError {
            YAMLLoadError(diagnostics: [Diagnostic(.error, file: name, mark: nil, message: problem.message)])
        }
        func systemError() -> YAMLLoadError {
            refuse(.unreadable(reason: String(cString: strerror(errno)).lowercased()))
        }
        // Without blocking: a FIFO would wait for a writer forever, before any timeout applies.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw systemError() }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw systemError() }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw refuse(.unreadable(reason: "it is a directory")) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw refuse(.unreadable(reason: "it is not a regular file")) }
        let size = Int(status.st_size)
        guard size <= limits.maximumFileSize else { throw refuse(.fileTooLarge(size: size, limit: limits.maximumFileSize)) }

        // One byte more than the limit allows, so a file that grew since fstat is still caught.
        let capacity = limits.maximumFileSize + 1
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        var chunk = [UInt8](repeating: 0, count: max(1, min(capacity, 1 << 16)))
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw systemError()
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= limits.maximumFileSize else {
                throw refuse(.fileTooLarge(size: bytes.count, limit: limits.maximumFileSize))
            }
        }
        return bytes
    }
}
