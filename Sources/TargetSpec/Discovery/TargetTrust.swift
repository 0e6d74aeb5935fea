import CurlTransport
import PathResolution

#if canImport(Glibc)
import Glibc
#endif

/// Which target files the user trusts: the one rule behind running token commands and reading
/// the environment freely.
///
/// A target file is untrusted input (it may come with a cloned repository). A file is trusted when
/// it lies in the user's own targets folder (`$XDG_CONFIG_HOME/moya/targets`, else
/// `~/.config/moya/targets`) or under a path listed in `MOYA_TRUSTED_TARGETS` (colon-separated
/// absolute files or folders), and belongs to the user and is writable by nobody else (or someone
/// else could change what it does). Paths are compared with symbolic links resolved. moya-cli
/// itself never writes into these places (`protects(_:)`), so only the user makes a file trusted.
public struct TargetTrust: Sendable {
    /// Folders and files whose target files are trusted, resolved.
    public var trustedPaths: [String]

    /// The environment variable that names more trusted paths.
    public static let environmentVariable = "MOYA_TRUSTED_TARGETS"

    /// The rule for `environment`: the user's targets folder and `MOYA_TRUSTED_TARGETS`.
    public init(environment: [String: String]) {
        trustedPaths = Self.declaredPaths(environment: environment).compactMap(CanonicalPath.resolved)
    }

    /// Creates a rule trusting exactly `paths`.
    public init(trustedPaths: [String]) {
        self.trustedPaths = trustedPaths.compactMap(CanonicalPath.resolved)
    }

    /// The trusted places as the environment names them, whether or not they exist yet: the
    /// user's targets folder, then `MOYA_TRUSTED_TARGETS`'s absolute entries.
    public static func declaredPaths(environment: [String: String]) -> [String] {
        var paths: [String] = []
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            paths.append(config + "/moya/targets")
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            paths.append(home + "/.config/moya/targets")
        }
        paths += (environment[environmentVariable] ?? "").split(separator: ":").map(String.init).filter {
            $0.hasPrefix("/")
        }
        return paths
    }

    /// Why `file` is not trusted, or `nil` when it is.
    public func refusal(for file: String) -> String? {
        guard let path = CanonicalPath.resolved(file) else { return "\(file) cannot be resolved" }
        guard trustedPaths.contains(where: { CanonicalPath.isResolved(path, inside: $0) }) else {
            return
                "it is not in ~/.config/moya/targets or under a path listed in \(Self.environmentVariable) (colon-separated)"
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot inspect \(file): \(String(cString: strerror(errno)))" }
        guard info.st_uid == geteuid() else { return "\(file) belongs to another user, who could change what it does" }
        guard info.st_mode & 0o022 == 0 else {
            return "\(file) is writable by other users, who could change what it does"
        }
        return nil
    }

    /// Whether `file` is trusted.
    public func trusts(_ file: String) -> Bool {
        refusal(for: file) == nil
    }
}
