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
/// absolute files or folders), or its bytes are those the user granted with `moya-cli trust`
/// (`TrustGrants`); and it belongs to the user and is writable by nobody else (or someone else
/// could change what it does). Paths are compared with symbolic links resolved. moya-cli itself
/// never writes into these places or the trust store, so only the user makes a file trusted.
public struct TargetTrust: Sendable {
    /// Folders and files whose target files are trusted, resolved.
    public var trustedPaths: [String]
    /// The files trusted by their content.
    public var grants = TrustGrants()
    /// Why the trust store could not be read (its grants are then ignored), for a warning.
    public var storeProblem: TrustStoreError?

    /// The environment variable that names more trusted paths.
    public static let environmentVariable = "MOYA_TRUSTED_TARGETS"

    /// The rule for `environment`: the user's targets folder and `MOYA_TRUSTED_TARGETS`.
    public init(environment: [String: String]) {
        trustedPaths = Self.declaredPaths(environment: environment).compactMap(CanonicalPath.resolved)
        if let store = TrustGrants.storePath(environment: environment) {
            do {
                grants = try TrustGrants.load(from: store)
            } catch {
                storeProblem = error
            }
        }
    }

    /// The user's moya configuration folder: `$XDG_CONFIG_HOME/moya` when that is absolute (as the
    /// XDG rules say), else `~/.config/moya`; `nil` without either. Its `targets` are trusted, and
    /// `config.yaml` holds the user's default options.
    public static func userConfigurationFolder(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/moya" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.config/moya" }
        return nil
    }

    /// Creates a rule trusting exactly `paths`.
    public init(trustedPaths: [String]) {
        self.trustedPaths = trustedPaths.compactMap(CanonicalPath.resolved)
    }

    /// The trusted places as the environment names them, whether or not they exist yet: the
    /// user's targets folder, then `MOYA_TRUSTED_TARGETS`'s absolute entries.
    public static func declaredPaths(environment: [String: String]) -> [String] {
        var paths: [String] = []
        if let folder = userConfigurationFolder(environment: environment) { paths.append(folder + "/targets") }
        paths += (environment[environmentVariable] ?? "").split(separator: ":").map(String.init).filter {
            $0.hasPrefix("/")
        }
        return paths
    }

    /// How `file` stands.
    public enum Verdict: Sendable, Equatable {
        /// In a trusted place.
        case trustedByPlace
        /// Its bytes are those granted with `moya-cli trust`.
        case trustedByContent
        /// Granted once, but its bytes changed since (the digests, then and now).
        case changedSinceGranted(granted: String, now: String)
        /// Not trusted, for this reason.
        case untrusted(String)

        /// Whether the file is trusted.
        public var isTrusted: Bool {
            self == .trustedByPlace || self == .trustedByContent
        }
    }

    /// How `file` stands: trusted by its place or content, or why not.
    public func verdict(for file: String) -> Verdict {
        guard let path = CanonicalPath.resolved(file) else { return .untrusted("\(file) cannot be resolved") }
        var verdict = Verdict.trustedByPlace
        if !trustedPaths.contains(where: { CanonicalPath.isResolved(path, inside: $0) }) {
            guard let grant = grants.grant(for: path) else {
                return .untrusted(
                    "it is not in ~/.config/moya/targets or under a path listed in \(Self.environmentVariable) "
                        + "(colon-separated), and you have not trusted it with 'moya-cli trust \(file)'")
            }
            let now = TrustGrants.digest(ofFileAt: path) ?? "unreadable"
            guard now == grant.digest else { return .changedSinceGranted(granted: grant.digest, now: now) }
            verdict = .trustedByContent
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            return .untrusted("cannot inspect \(file): \(String(cString: strerror(errno)))")
        }
        guard info.st_uid == geteuid() else {
            return .untrusted("\(file) belongs to another user, who could change what it does")
        }
        guard info.st_mode & 0o022 == 0 else {
            return .untrusted("\(file) is writable by other users, who could change what it does")
        }
        return verdict
    }

    /// Why `file` is not trusted, or `nil` when it is.
    public func refusal(for file: String) -> String? {
        switch verdict(for: file) {
        case .trustedByPlace, .trustedByContent: nil
        case .untrusted(let reason): reason
        case .changedSinceGranted(let granted, let now):
            Self.changedMessage(file: file, granted: granted, now: now)
        }
    }

    /// What is said of a granted file whose bytes changed.
    public static func changedMessage(file: String, granted: String, now: String) -> String {
        "\(file) changed since you trusted it with 'moya-cli trust' (SHA-256 \(granted.prefix(12))... then, "
            + "\(now.prefix(12))... now); review it (git diff, git log), then run 'moya-cli trust \(file)' again"
    }

    /// Whether `file` is trusted.
    public func trusts(_ file: String) -> Bool {
        refusal(for: file) == nil
    }
}
