#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reading a descriptor to its end: a target file, an OpenAPI document, standard input for `-`.
/// The counterpart of ``OutputFile/writeAll(_:to:name:done:)``.
package enum InputFile {
    /// Why reading stopped.
    package enum ReadProblem: Error, Sendable, Hashable {
        /// More than the limit arrived; `count` bytes had been read.
        case tooLarge(count: Int)
        /// `read(2)` failed with this `errno`.
        case system(Int32)

        /// `strerror`'s words for a system error, lowercased (`is a directory`).
        package static func reason(_ code: Int32) -> String {
            String(cString: strerror(code)).lowercased()
        }
    }

    /// Reads `descriptor` until its end, retrying reads that a signal interrupted, and stops as
    /// soon as more than `limit` bytes have arrived (one more than allowed is read, so a file that
    /// grew past it is caught). `expectedSize` only reserves room.
    package static func readAll(_ descriptor: Int32, limit: Int = .max, expectedSize: Int = 0) throws(ReadProblem)
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(expectedSize)
        var chunk = [UInt8](repeating: 0, count: limit >= 1 << 16 ? 1 << 16 : max(1, limit + 1))
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= limit else { throw .tooLarge(count: bytes.count) }
        }
    }

    /// A small file a user names (a netrc, a file sent with a request), read as it is when it is
    /// a regular file: its bytes and permission bits.
    package enum SmallFile: Sendable, Equatable {
        /// Its bytes, its mode's permission bits (`0o644`) and its owner.
        case contents([UInt8], permissions: UInt32, owner: UInt32)
        /// Nothing at the path.
        case missing
        /// Not a regular file (a folder, a FIFO, a device), larger than allowed, or unreadable: why.
        case refused(String)
    }

    /// Reads the regular file at `path` when it holds at most `limit` bytes: opened without
    /// blocking (a FIFO's open does not wait for a writer) and checked on the open descriptor, so
    /// a path swapped after the check is never read.
    package static func readSmallRegularFile(_ path: String, limit: Int) -> SmallFile {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            return errno == ENOENT ? .missing : .refused(ReadProblem.reason(errno))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .refused(ReadProblem.reason(errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .refused("not a regular file") }
        guard Int(status.st_size) <= limit else { return .refused("larger than \(limit) bytes") }
        do throws(ReadProblem) {
            let bytes = try readAll(descriptor, limit: limit, expectedSize: Int(status.st_size))
            return .contents(bytes, permissions: UInt32(status.st_mode) & 0o7777, owner: UInt32(status.st_uid))
        } catch {
            if case .system(let code) = error { return .refused(ReadProblem.reason(code)) }
            return .refused("larger than \(limit) bytes")
        }
    }
}
