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

    /// The width of the terminal on `fileDescriptor`, or `nil` when it is not a terminal: `COLUMNS`
    /// when set to a number, else the window size the terminal reports.
    static func width(of fileDescriptor: Int32, environment: [String: String]) -> Int? {
        guard isTerminal(fileDescriptor) else { return nil }
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
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
