import MoyaKit
#if canImport(Glibc)
import Glibc
#endif

/// Decides whether a target file may run its token command.
///
/// A target file is untrusted input (it may come with a cloned repository), and a command in it
/// could do anything. So a file's command runs only when the user has said they trust the file:
/// it lies in their own targets folder (`$XDG_CONFIG_HOME/moya/targets`, `~/.config/moya/targets`),
/// or a path in `MOYA_TRUSTED_TARGETS` (colon-separated files or folders) holds it. Either way the
/// file must belong to the user and be writable by nobody else, or someone else could change what
/// runs. Paths are compared with symbolic links resolved.
public struct CommandTrust: Sendable {
    /// Folders and files whose target files may run commands, resolved.
    public var trustedPaths: [String]

    /// The environment variable that names more trusted paths.
    public static let environmentVariable = "MOYA_TRUSTED_TARGETS"

    /// The rule for `environment`: the user's targets folder and `MOYA_TRUSTED_TARGETS`.
    public init(environment: [String: String]) {
        var paths: [String] = []
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            paths.append(config + "/moya/targets")
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            paths.append(home + "/.config/moya/targets")
        }
        paths += (environment[Self.environmentVariable] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        trustedPaths = paths.compactMap(Self.resolved)
    }

    /// Creates a rule trusting exactly `paths`.
    public init(trustedPaths: [String]) {
        self.trustedPaths = trustedPaths.compactMap(Self.resolved)
    }

    /// Why `file` may not run a command, or `nil` when it may.
    public func refusal(for file: String) -> String? {
        guard let path = Self.resolved(file) else { return "\(file) cannot be resolved" }
        guard trustedPaths.contains(where: { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
            return "moya-cli runs a token command only from a target file you trust: one in ~/.config/moya/targets, "
                + "or under a path listed in \(Self.environmentVariable) (colon-separated); \(file) is neither"
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot inspect \(file): \(String(cString: strerror(errno)))" }
        guard info.st_uid == geteuid() else { return "\(file) belongs to another user, who could change the command it runs" }
        guard info.st_mode & 0o022 == 0 else { return "\(file) is writable by other users, who could change the command it runs" }
        return nil
    }

    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
