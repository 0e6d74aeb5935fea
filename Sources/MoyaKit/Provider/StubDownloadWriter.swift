#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a stubbed download's sample data where its destination says, as a live download would:
/// into a temporary file next to the destination, renamed into place only once complete.
enum StubDownloadWriter {
    static func write(_ data: Data, destination: DownloadDestination, head: HTTPResponseHead) throws(TransportError) {
        let fileManager = FileManager.default
        let temporaryURL = fileManager.temporaryDirectory.appendingPathComponent("moyakit-\(UUID().uuidString)")
        let (url, options) = destination(temporaryURL, head)
        let folder = url.deletingLastPathComponent()
        if options.contains(.createIntermediateDirectories) {
            try? fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        if fileManager.fileExists(atPath: url.path), !options.contains(.removePreviousFile) {
            throw TransportError(kind: .fileAccess, message: "\(url.path) already exists; not overwriting it")
        }
        let partialURL = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).part")
        do {
            try data.write(to: partialURL)
        } catch {
            throw TransportError(kind: .fileAccess, message: "cannot write \(partialURL.path): \(error)")
        }
        // rename(2) replaces the destination atomically, so a reader never sees half a file.
        guard rename(partialURL.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? fileManager.removeItem(at: partialURL)
            throw TransportError(kind: .fileAccess, message: "cannot move the download to \(url.path): \(reason)")
        }
    }
}
