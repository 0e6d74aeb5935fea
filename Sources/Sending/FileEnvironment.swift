import Synchronization
import TargetSpec
import TextSafety

#if canImport(Glibc)
import Glibc
#endif

/// What a target file sees of the process environment: all of it when the file is trusted, else
/// the variables `MOYA_ALLOW_ENV` allows (`EnvironmentAllowance`). Worked out once per file and
/// run: `check` builds a target for every case of a file. Says on stderr, once per run each, what
/// the user would otherwise not learn: a granted file that changed, a trust store that cannot be
/// read, a set variable hidden from a file whose fallback is used instead, an untrusted file that
/// shadows a trusted file's API.
package enum FileEnvironment {
    package struct View: Sendable {
        package var visible: [String: String]
        package var hidden: Set<String>
        package var isTrusted: Bool
        package var verdict: TargetTrust.Verdict
    }

    private static let views = Mutex<[String: View]>([:])
    /// The run's trust rule, its store read once.
    private static let trust = Mutex<TargetTrust?>(nil)
    /// What was said already.
    private static let said = Mutex<Set<String>>([])

    /// The view of `environment` (the process's, the same for the whole run) that `file` gets.
    package static func view(for file: String, environment: [String: String]) -> View {
        if let known = views.withLock({ $0[file] }) { return known }
        let trust = rule(environment: environment)
        let verdict = trust.verdict(for: file)
        if case .changedSinceGranted(let granted, let now) = verdict {
            warnOnce(
                TargetTrust.changedMessage(file: file, granted: granted, now: now)
                    + "; until then it is untrusted")
        }
        let (visible, hidden) = EnvironmentAllowance(environment: environment).view(
            of: environment, isTrusted: verdict.isTrusted)
        let view = View(visible: visible, hidden: hidden, isTrusted: verdict.isTrusted, verdict: verdict)
        views.withLock { $0[file] = view }
        return view
    }

    /// `builder` reading only what its API's file may see; a hidden variable's fallback said once,
    /// and an untrusted file shadowing a trusted definition of its API named.
    package static func restrict(_ builder: inout TargetBuilder, environment: [String: String]) {
        let file = builder.api.file
        let view = view(for: file, environment: environment)
        builder.processEnvironment = view.visible
        builder.hiddenVariableNames = view.hidden
        builder.isTrustedFile = view.isTrusted
        guard !view.isTrusted else { return }
        builder.hiddenFallbackNotice = { name in
            warnOnce(
                "\(file) reads ${\(name):-...}: \(name) is set, but hidden from this untrusted file, so its fallback "
                    + "is used; allow it with \(EnvironmentAllowance.environmentVariable)=\(name), or trust the file: "
                    + "moya-cli trust \(ShellQuoting.quotedUnlessPlainASCII(file))")
        }
        let name = builder.api.name
        guard said.withLock({ $0.insert("shadow " + name).inserted }) else { return }
        let trusted = TrustedDefinitions.files(
            definingAPI: name, trust: rule(environment: environment), environment: environment, except: file)
        for other in trusted {
            warnOnce(
                "API '\(name)' is defined by \(file), which is not trusted, and by \(other), which is; "
                    + "\(file) is used (the first place found wins: --targets, MOYA_TARGETS_PATH, ./targets, then "
                    + "~/.config/moya/targets), and it reads only the variables MOYA_ALLOW_ENV allows and runs no "
                    + "command; rename one with 'api:', or trust it if it is yours (moya-cli trust)")
        }
    }

    /// The run's `TargetTrust`; a store that cannot be read is said once (its grants ignored).
    private static func rule(environment: [String: String]) -> TargetTrust {
        if let known = trust.withLock({ $0 }) { return known }
        let rule = TargetTrust(environment: environment)
        if let problem = rule.storeProblem { warnOnce(problem.description) }
        trust.withLock { $0 = rule }
        return rule
    }

    /// `moya-cli: warning: MESSAGE` on stderr, escaped for a terminal, once per run.
    private static func warnOnce(_ message: String) {
        guard said.withLock({ $0.insert(message).inserted }) else { return }
        // Straight to file descriptor 2: this library has no output streams of its own, and a
        // warning must not wait behind the command's buffered output.
        var line = Array("moya-cli: warning: \(DisplayText.escaped(message))\n".utf8)
        line.withUnsafeMutableBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else { break }
            }
        }
    }
}
