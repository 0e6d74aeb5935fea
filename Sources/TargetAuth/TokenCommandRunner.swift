import CCleanup
import MoyaKit
import TargetSpec

#if canImport(Glibc)
import Glibc
#endif

/// Runs a token command (`auth: {type: command, command: [gh, auth, token]}`) and takes the first
/// line of what it prints, trimmed, as the token.
///
/// The command runs as `ProgramRun` runs a program, with stdin from /dev/null and at most
/// `outputLimit` bytes of stdout read. It is killed after its timeout.
package struct TokenCommandRunner: Sendable {
    /// The most stdout is read: a token is a line, not a stream.
    static let outputLimit = 64 * 1024

    /// Whether the user asked to stop (Ctrl-C): the command is then killed (see
    /// `OAuth2TokenClient.isInterrupted`).
    package var isInterrupted: @Sendable () -> Bool

    /// Creates a runner.
    package init(isInterrupted: @escaping @Sendable () -> Bool = { moya_signals_pending() != 0 }) {
        self.isInterrupted = isInterrupted
    }

    /// Runs `command`; the token it printed.
    package func token(for command: AccessTokenRequest.TokenCommand) throws(AccessTokenError) -> String {
        let program = command.arguments.first ?? ""
        let run = ProgramRun(
            arguments: command.arguments, timeout: command.timeout, input: nil, outputLimit: Self.outputLimit,
            isInterrupted: isInterrupted)
        let output: [UInt8]
        switch run.run() {
        case .cannotStart(let code):
            throw AccessTokenError(
                .command, "cannot run the token command '\(program)': \(String(cString: strerror(code)))")
        case .interrupted:
            throw AccessTokenError(.command, "interrupted")
        case .timedOut:
            throw AccessTokenError(
                .command,
                "the token command '\(program)' did not finish within \(Self.seconds(command.timeout)); it was stopped")
        case .ended(let exitCode, let signal, let printed):
            // Killed by SIGPIPE after its first line was read: that line is still its answer.
            let endedByPipe = signal == SIGPIPE && printed.contains(UInt8(ascii: "\n"))
            if signal != 0 && !endedByPipe {
                throw AccessTokenError(.command, "the token command '\(program)' was killed by signal \(signal)")
            }
            if signal == 0 && exitCode != 0 {
                throw AccessTokenError(.command, "the token command '\(program)' failed with exit status \(exitCode)")
            }
            output = printed
        }
        let firstLine =
            output.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        let token = String(decoding: firstLine, as: UTF8.self).trimmingWhitespace
        guard !token.isEmpty else {
            throw AccessTokenError(.command, "the token command '\(program)' printed no token on its first line")
        }
        guard TokenResponse.isHeaderSafe(token) else {
            throw AccessTokenError(
                .command,
                "the token command '\(program)' printed a first line that cannot be a token "
                    + "(spaces or control characters inside it)")
        }
        return token
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and carriage returns.
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
