import FileIO
import PositionedYAML

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
    public static func readFile(atPath path: String, file: String? = nil, limits: YAMLLimits = .default)
        throws(YAMLLoadError) -> [UInt8]
    {
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
        guard size <= limits.maximumFileSize else {
            throw refuse(.fileTooLarge(size: size, limit: limits.maximumFileSize))
        }

        do throws(InputFile.ReadProblem) {
            return try InputFile.readAll(descriptor, limit: limits.maximumFileSize, expectedSize: size)
        } catch {
            switch error {
            case .tooLarge(let count): throw refuse(.fileTooLarge(size: count, limit: limits.maximumFileSize))
            case .system(let code): throw refuse(.unreadable(reason: InputFile.ReadProblem.reason(code)))
            }
        }
    }
}
