import CCleanup
import Synchronization
import TargetSpec

#if canImport(Glibc)
import Glibc
#endif

/// Runs `prepare` programs for the one sender, once per request: only from a target file the
/// user trusts (the rule token commands follow, `TargetTrust`), announced on first use, as
/// `ProgramRun` runs a program (no shell, killed after its timeout or on Ctrl-C).
package final class PrepareHookRunner: PrepareHookRunning {
    /// The most a program may print: a JSON object of headers, not a stream.
    static let outputLimit = 64 * 1024

    package let trust: TargetTrust
    /// Told, before it first runs, of each program: a program a target file runs is never run
    /// silently. Once per program and run.
    package let announce: @Sendable (PrepareHook) -> Void
    package let isInterrupted: @Sendable () -> Bool
    private let announced = Mutex<Set<PrepareHook>>([])

    /// Creates a runner.
    package init(
        trust: TargetTrust, announce: @escaping @Sendable (PrepareHook) -> Void = { _ in },
        isInterrupted: @escaping @Sendable () -> Bool = { moya_signals_pending() != 0 }
    ) {
        self.trust = trust
        self.announce = announce
        self.isInterrupted = isInterrupted
    }

    package func run(_ hook: PrepareHook, input: [UInt8]) throws(PrepareHookError) -> [UInt8] {
        let program = hook.arguments.first ?? ""
        if let refusal = trust.refusal(for: hook.file) {
            throw PrepareHookError(
                "not running the prepare program '\(program)' of API '\(hook.apiName)': moya-cli runs a program "
                    + "only from a target file you trust, and \(hook.file) is not trusted: " + refusal
                    + " (see SECURITY in moya-cli(1))", isRefusal: true)
        }
        if announced.withLock({ $0.insert(hook).inserted }) { announce(hook) }
        let run = ProgramRun(
            arguments: hook.arguments, timeout: hook.timeout, input: input, outputLimit: Self.outputLimit,
            isInterrupted: isInterrupted)
        switch run.run() {
        case .cannotStart(let code):
            throw PrepareHookError("cannot run the prepare program '\(program)': \(String(cString: strerror(code)))")
        case .interrupted:
            throw PrepareHookError("interrupted")
        case .timedOut:
            throw PrepareHookError(
                "the prepare program '\(program)' did not finish within \(TokenCommandRunner.seconds(hook.timeout)); "
                    + "it was stopped")
        case .ended(let exitCode, let signal, let output):
            // Past the limit, reading stopped: a program still writing ended by SIGPIPE.
            if output.count > Self.outputLimit {
                throw PrepareHookError(
                    "the prepare program '\(program)' printed more than \(Self.outputLimit / 1024) KiB; "
                        + "it prints one JSON object of headers")
            }
            if signal != 0 {
                throw PrepareHookError("the prepare program '\(program)' was killed by signal \(signal)")
            }
            if exitCode != 0 {
                throw PrepareHookError("the prepare program '\(program)' failed with exit status \(exitCode)")
            }
            return output
        }
    }
}
