import CCleanup
import MoyaKit
import TargetSpec

#if canImport(Glibc)
import Glibc
#endif

/// Runs a token command (`auth: {type: command, command: [gh, auth, token]}`) and takes the first
/// line of what it prints, trimmed, as the token.
///
/// The command runs without a shell (argv as the file lists it, the program found on `PATH`),
/// with stdin from /dev/null, stdout read (at most `outputLimit` bytes), stderr passed through
/// to the user's. It is killed after its timeout.
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
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw AccessTokenError(.command, "cannot run the token command: \(String(cString: strerror(errno)))")
        }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addclose(&actions, writeEnd)

        // The command starts with default signal handling and no blocked signals, whatever this
        // process chose (moya-cli ignores SIGPIPE): a command writing on after its first line was
        // read then ends by SIGPIPE, as in a shell pipeline.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, signal) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        // A group of its own, killed whole on a timeout or a signal: `sh -c 'sleep 100'` must
        // not leave its `sleep` running after moya-cli is gone.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        // A SIGTERM, SIGINT or SIGHUP to moya-cli alone (not to its terminal's group) must end
        // the command too, even before the command line installed its handlers.
        moya_signals_ensure_installed()

        var pid: pid_t = 0
        let arguments = command.arguments.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        // No signal between the start and the registration, or the command would be left behind.
        var deferred = sigset_t()
        var previous = sigset_t()
        sigemptyset(&deferred)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&deferred, signal) }
        pthread_sigmask(SIG_BLOCK, &deferred, &previous)
        let spawned = posix_spawnp(&pid, program, &actions, &attributes, arguments, environ)
        let childSlot = spawned == 0 ? moya_children_register(pid) : -1
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            throw AccessTokenError(
                .command, "cannot run the token command '\(program)': \(String(cString: strerror(spawned)))")
        }

        let deadline = ContinuousClock.now + .milliseconds(Int(command.timeout * 1000))
        var output: [UInt8] = []
        var timedOut = false
        var interrupted = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        reading: while true {
            let left = deadline - ContinuousClock.now
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
            if milliseconds <= 0 {
                timedOut = true
                break
            }
            if isInterrupted() {
                interrupted = true
                break
            }
            var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(milliseconds, 50)))
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { continue }
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break reading }
            // Read to the end (a command that prints more than its token, or writes to stderr
            // after it, finishes normally), but keep no more than the limit: past it, reading
            // stops and a command that goes on ends by SIGPIPE.
            if output.count <= Self.outputLimit { output.append(contentsOf: buffer[0..<count]) } else { break reading }
        }
        close(readEnd)
        if timedOut || interrupted { kill(-pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        moya_children_forget(childSlot)

        if interrupted { throw AccessTokenError(.command, "interrupted") }
        if timedOut {
            throw AccessTokenError(
                .command,
                "the token command '\(program)' did not finish within \(Self.seconds(command.timeout)); it was stopped")
        }
        let exitCode = (status >> 8) & 0xFF
        let signal = status & 0x7F
        // Killed by SIGPIPE after its first line was read: that line is still its answer.
        let endedByPipe = signal == SIGPIPE && output.contains(UInt8(ascii: "\n"))
        if signal != 0 && !endedByPipe {
            throw AccessTokenError(.command, "the token command '\(program)' was killed by signal \(signal)")
        }
        if signal == 0 && exitCode != 0 {
            throw AccessTokenError(.command, "the token command '\(program)' failed with exit status \(exitCode)")
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
