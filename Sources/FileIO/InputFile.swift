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
}
