import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What /proc says about the running process: memory peaks and loaded libraries.
public enum ProcessInspection {
    /// The whole text of a /proc file. (Reading with `String(contentsOfFile:)` stops after one
    /// page, because /proc files report a size of 0.)
    public static func contents(of path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A `kB` field of /proc/self/status, e.g. `VmHWM` (peak resident memory) or `VmRSS`.
    public static func statusKiB(_ field: String) -> Int? {
        for line in contents(of: "/proc/self/status").split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    /// Resets the peak resident memory to the current size (Linux 4.0+); false if not possible.
    @discardableResult
    public static func resetPeakMemory() -> Bool {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(descriptor, "5", 1) == 1
    }

    /// Whether a mapped file's path contains `name`, e.g. `"libcurl"`.
    public static func isLibraryMapped(_ name: String) -> Bool {
        contents(of: "/proc/self/maps").contains(name)
    }
}
