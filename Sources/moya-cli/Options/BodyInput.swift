import CurlTransport
import FoundationEssentials
import MoyaKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A replacement body read from standard input or a file (`--data -`, `--json @FILE`...), never
/// more than a limit: an endless or huge input ends with a usage error, not with memory exhausted.
///
/// Up to `memoryThreshold` bytes stay in memory. Past it, `--data`'s bytes go to a temporary file
/// that is unlinked at once (nothing is left behind, whatever ends the process) and the request
/// streams that file as its body: memory stays fixed whatever the size, up to the limit.
enum BodyInput {
    /// The most a body from a stream keeps in memory before it goes to a temporary file.
    static let memoryThreshold = 1 << 20

    /// What was read: the bytes, or a file the request streams (a temporary one is kept open by
    /// `keeping` while the request needs it).
    enum Contents: Sendable {
        case bytes(Data)
        case file(URL, keeping: SpooledFile?)
    }

    /// What a body past its limit is told.
    static let bodyLimitNote =
        "the most a body read from a stream may take (--max-body-size); raise --max-body-size to send more"

    /// Reads `descriptor` to its end, failing past `limit` bytes (saying `limitNote`). With
    /// `spools`, a body larger than `memoryThreshold` goes to a temporary file.
    /// - Throws: `CommandFailure` (usage, 64) naming `place` ("--data -") and `source`
    ///   ("standard input", a file's path).
    static func read(
        _ descriptor: Int32, limit: Int, spools: Bool, place: String, source: String,
        limitNote: String = bodyLimitNote
    ) throws -> Contents {
        var data = Data()
        var file: SpooledFile?
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandFailure(.usage, "\(place): cannot read \(source): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            total += count
            guard total <= limit else {
                throw CommandFailure(
                    .usage, "\(place): \(source) holds more than \(ByteCount.describe(limit)), \(limitNote)")
            }
            if let file {
                try chunk.withUnsafeBytes {
                    try file.write(UnsafeRawBufferPointer(rebasing: $0[0..<count]), place: place)
                }
                continue
            }
            data.append(contentsOf: chunk[0..<count])
            if spools && data.count > memoryThreshold {
                let spooled = try SpooledFile(place: place)
                try data.withUnsafeBytes { try spooled.write($0, place: place) }
                data = Data()
                file = spooled
            }
        }
        return file.map { .file($0.url, keeping: $0) } ?? .bytes(data)
    }
}

/// A temporary file, unlinked as soon as it is made, that holds a body for the request to stream.
/// The file lives as long as its descriptor: the request opens it again through
/// `/proc/self/fd/N` (a regular file, so it can be resent after a redirect).
final class SpooledFile: Sendable {
    let descriptor: Int32

    init(place: String) throws {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder + "/moya-cli-body-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else {
            throw CommandFailure(
                .usage,
                "\(place): cannot make a temporary file in \(folder) for the body: \(String(cString: strerror(errno)))")
        }
        // Not inherited by a token command, and gone from the folder before anything is written.
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The path the request reads the body from.
    var url: URL { URL(fileURLWithPath: "/proc/self/fd/\(descriptor)") }

    func write(_ bytes: UnsafeRawBufferPointer, place: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw CommandFailure(
                    .usage, "\(place): cannot keep the body in a temporary file: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}
