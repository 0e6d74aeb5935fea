import CCleanup
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One run of a program a trusted target file names (a token command, a `prepare` program):
/// without a shell (argv as the file lists it, the program found on `PATH`), `input` on its
/// standard input (or /dev/null), its standard output read (at most `outputLimit` bytes), its
/// standard error passed through to the user's. It is killed, with its whole process group,
/// after `timeout` seconds or when `isInterrupted` says so.
package struct ProgramRun {
    /// How the run ended.
    package enum Outcome {
        /// The program could not be started (`errno`).
        case cannotStart(Int32)
        case timedOut
        case interrupted
        /// It ended: its exit code, or the signal that killed it, and what it printed.
        case ended(exitCode: Int32, signal: Int32, output: [UInt8])
    }

    var arguments: [String]
    var timeout: Double
    var input: [UInt8]?
    var outputLimit: Int
    var isInterrupted: @Sendable () -> Bool

    package init(
        arguments: [String], timeout: Double, input: [UInt8]?, outputLimit: Int,
        isInterrupted: @escaping @Sendable () -> Bool
    ) {
        self.arguments = arguments
        self.timeout = timeout
        self.input = input
        self.outputLimit = outputLimit
        self.isInterrupted = isInterrupted
    }

    /// Held while pipes are made and a program started: `check --jobs` runs programs from
    /// several threads at once, and each pipe end is made close-on-exec before another program
    /// can start (the child gets its own by dup2), so no program inherits another's pipe and
    /// holds it open past that program's end.
    private static let spawning = Mutex<Void>(())

    /// A started program: its process, its slot among the children a signal kills, and the
    /// ends of its output and input pipes this process keeps.
    private struct Started {
        var pid: pid_t
        var childSlot: Int32
        var readEnd: Int32
        var inputEnd: Int32
    }

    package func run() -> Outcome {
        let started: Started
        switch Self.spawning.withLock({ _ in start() }) {
        case .success(let value): started = value
        case .failure(let code): return .cannotStart(code.value)
        }
        let (pid, childSlot, readEnd) = (started.pid, started.childSlot, started.readEnd)
        var inputEnd = started.inputEnd

        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var output: [UInt8] = []
        var written = 0
        let pending = input ?? []
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
            var descriptors = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
            if inputEnd >= 0 { descriptors.append(pollfd(fd: inputEnd, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(min(milliseconds, 50)))
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { continue }
            if inputEnd >= 0, descriptors[1].revents != 0 {
                // Feed standard input as the program reads it; a program that stops reading
                // (it closed its input) just gets no more.
                let count = pending[written...].withUnsafeBytes { write(inputEnd, $0.baseAddress, $0.count) }
                if count > 0 { written += count }
                if count < 0 && errno != EAGAIN && errno != EINTR || written >= pending.count {
                    close(inputEnd)
                    inputEnd = -1
                }
            }
            guard descriptors[0].revents != 0 else { continue }
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break reading }
            // Read to the end, but keep no more than the limit: past it, reading stops and a
            // program that goes on ends by SIGPIPE.
            if output.count <= outputLimit { output.append(contentsOf: buffer[0..<count]) } else { break reading }
        }
        close(readEnd)
        if inputEnd >= 0 { close(inputEnd) }
        if timedOut || interrupted { kill(-pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        moya_children_forget(childSlot)

        if interrupted { return .interrupted }
        if timedOut { return .timedOut }
        return .ended(exitCode: (status >> 8) & 0xFF, signal: status & 0x7F, output: output)
    }

    /// Makes the pipes and starts the program; the `errno` when it cannot.
    private func start() -> Result<Started, SpawnError> {
        let program = arguments.first ?? ""
        var outputEnds: [Int32] = [-1, -1]
        guard pipe(&outputEnds) == 0 else { return .failure(SpawnError(value: errno)) }
        let (readEnd, writeEnd) = (outputEnds[0], outputEnds[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        var inputEnds: [Int32] = [-1, -1]
        if input != nil {
            guard pipe(&inputEnds) == 0 else {
                let code = errno
                close(readEnd)
                close(writeEnd)
                return .failure(SpawnError(value: code))
            }
            for end in inputEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(inputEnds[1], F_SETFL, fcntl(inputEnds[1], F_GETFL) | O_NONBLOCK)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, inputEnds[0], 0)
            posix_spawn_file_actions_addclose(&actions, inputEnds[0])
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addclose(&actions, writeEnd)

        // The program starts with default signal handling and no blocked signals, whatever this
        // process chose (moya-cli ignores SIGPIPE): a program writing on after what was read
        // then ends by SIGPIPE, as in a shell pipeline.
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
        // the program too, even before the command line installed its handlers.
        moya_signals_ensure_installed()

        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        // No signal between the start and the registration, or the program would be left behind.
        var deferred = sigset_t()
        var previous = sigset_t()
        sigemptyset(&deferred)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&deferred, signal) }
        pthread_sigmask(SIG_BLOCK, &deferred, &previous)
        let spawned = posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
        let childSlot = spawned == 0 ? moya_children_register(pid) : -1
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        close(writeEnd)
        if input != nil { close(inputEnds[0]) }
        let inputEnd: Int32 = input != nil ? inputEnds[1] : -1
        guard spawned == 0 else {
            close(readEnd)
            if inputEnd >= 0 { close(inputEnd) }
            return .failure(SpawnError(value: spawned))
        }
        return .success(Started(pid: pid, childSlot: childSlot, readEnd: readEnd, inputEnd: inputEnd))
    }

    /// An `errno` a start failed with.
    struct SpawnError: Error {
        var value: Int32
    }

}
