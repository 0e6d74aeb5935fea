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
