import CCleanup
import TextSafety

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Asks for a password on the controlling terminal, never echoed (`-u USER` without `:PASSWORD`).
///
/// It reads `/dev/tty`, not standard input, as curl and ssh do: standard input may be the request
/// body or a pipe, and a password must come from the person at the terminal. Echo is turned off
/// for the one line and put back afterwards, also when a signal ends the process there
/// (`moya_terminal_register`).
enum PasswordPrompt {
    /// The longest password read, in bytes; a longer line is refused rather than cut.
    static let maximumLength = 4096

    /// The password typed for `user`, without its line break.
    static func ask(user: String) throws -> String {
        let terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else {
            throw CommandFailure(
                .usage,
                "-u \(DisplayText.escaped(user)): no password given and no terminal to ask for it; "
                    + "write -u USER:PASSWORD")
        }
        defer { close(terminal) }
        var saved = termios()
        guard tcgetattr(terminal, &saved) == 0 else {
            throw CommandFailure(
                .usage, "-u \(DisplayText.escaped(user)): cannot turn echo off on the terminal; write -u USER:PASSWORD")
        }
        // A signal from here on puts the terminal back before the process ends.
        moya_signals_ensure_installed()
        moya_terminal_register(terminal, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO | ECHOE | ECHOK | ECHONL)
        silent.c_lflag |= tcflag_t(ICANON)
        // Echo goes off before the prompt shows, so nothing typed after it is ever echoed.
        _ = tcsetattr(terminal, TCSAFLUSH, &silent)
        show(terminal, "Password for '\(DisplayText.escaped(user))': ")
        let line = readLine(terminal)
        _ = tcsetattr(terminal, TCSAFLUSH, &saved)
        moya_terminal_forget()
        show(terminal, "\n")
        if let failure = Interrupt.failureIfSignalled { throw failure }
        switch line {
        case .line(let password): return password
        case .endOfInput:
            throw CommandFailure(.usage, "-u \(DisplayText.escaped(user)): no password was typed (end of input)")
        case .tooLong:
            throw CommandFailure(
                .usage, "-u \(DisplayText.escaped(user)): the password is longer than \(maximumLength) bytes")
        case .failed(let error):
            throw CommandFailure(
                .usage,
                "-u \(DisplayText.escaped(user)): cannot read the password from the terminal: \(String(cString: strerror(error)))"
            )
        }
    }

    private enum Line {
        case line(String)
        case endOfInput
        case tooLong
        case failed(Int32)
    }

    /// One line from `terminal`, byte by byte so that nothing after it is consumed.
    private static func readLine(_ terminal: Int32) -> Line {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(terminal, &byte, 1)
            if count < 0 {
                if errno == EINTR, Interrupt.failureIfSignalled == nil { continue }
                return .failed(errno)
            }
            if count == 0 { return bytes.isEmpty ? .endOfInput : .line(String(decoding: bytes, as: UTF8.self)) }
            if byte == UInt8(ascii: "\n") { break }
            guard bytes.count < maximumLength else { return .tooLong }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return .line(String(decoding: bytes, as: UTF8.self))
    }

    private static func show(_ terminal: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = write(terminal, bytes.baseAddress, bytes.count) }
    }
}
