#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's environment variables, working folder and executable, read with the system's
/// calls rather than through FoundationEssentials' `ProcessInfo` and `FileManager`, whose shared
/// instances a call would otherwise set up only for these.
///
/// On Linux they are read straight from `environ`: FoundationEssentials'
/// `ProcessInfo.processInfo.environment` first sets up the shared `ProcessInfo` (its start-up
/// work, then the dictionary, cost a call about a tenth of a millisecond, 5% of a stubbed call).
/// As with getenv(3), a name defined twice has its first value; an entry without `=` is skipped.
public enum ProcessEnvironment {
    /// The variables, read now.
    public static var current: [String: String] {
        #if os(Linux)
        var variables: [String: String] = [:]
        guard var entry = Optional(environ) else { return variables }
        while let pointer = entry.pointee {
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                count: strlen(pointer))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                if variables[name] == nil {
                    variables[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
                }
            }
            entry += 1
        }
        return variables
        #else
        return ProcessInfo.processInfo.environment
        #endif
    }

    /// The working folder (getcwd(3)), or `""` when it cannot be read (deleted, or too long), as
    /// `FileManager.currentDirectoryPath` answers.
    public static var currentDirectory: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The running binary's path, from `/proc/self/exe`, or `nil` where that cannot be read.
    public static var executablePath: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count)
        guard count > 0, count < buffer.count else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
