#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the standard streams are connected to, and whether color may be used.
enum Terminal {
    /// Whether `fileDescriptor` is a terminal.
    static func isTerminal(_ fileDescriptor: Int32) -> Bool {
        isatty(fileDescriptor) == 1
    }

    /// Whether output on `fileDescriptor` gets ANSI colors: only on a terminal, never with
    /// `--no-color`, `NO_COLOR` (any non-empty value, see no-color.org) or `TERM=dumb`.
    static func usesColor(on fileDescriptor: Int32, disabled: Bool, environment: [String: String]) -> Bool {
        if disabled { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return isTerminal(fileDescriptor)
    }
}

/// Unbuffered writes to the standard streams (stdout carries bodies, stderr everything else).
enum StandardStream {
    case output
    case error

    var fileDescriptor: Int32 { self == .output ? 1 : 2 }

    /// Writes all of `bytes`, retrying on short writes and EINTR; a closed pipe ends quietly.
    func write(_ bytes: some Collection<UInt8>) {
        var buffer = Array(bytes)
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeMutableBytes { raw in
                Glibc.write(fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
        buffer.removeAll()
    }

    /// Writes `text` as UTF-8.
    func write(_ text: String) {
        write(Array(text.utf8))
    }
}
