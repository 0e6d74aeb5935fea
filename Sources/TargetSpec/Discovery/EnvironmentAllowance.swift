/// Which environment variables a target file may read with `${VAR}`.
///
/// A trusted file (`TargetTrust`) reads any. Any other file - `./targets` of a cloned repository,
/// `--targets`, the shipped examples - reads only the variables the user allows with
/// `MOYA_ALLOW_ENV`: colon- or comma-separated names, each exact or ending in `*` for a prefix
/// (`GITHUB_TOKEN:PET_STORE_*`). The others are hidden from it, as if unset: a `${VAR:-default}`
/// takes its default, and a required one fails naming the rule. So a file cannot send
/// `${AWS_SECRET_ACCESS_KEY}` to its own server unless the user said it may.
public struct EnvironmentAllowance: Sendable, Hashable {
    /// The environment variable that lists the allowed names.
    public static let environmentVariable = "MOYA_ALLOW_ENV"

    /// Exact names allowed.
    public var names: Set<String>
    /// Prefixes allowed (`PET_STORE_` for `PET_STORE_*`); a lone `*` allows every name.
    public var prefixes: [String]

    /// The allowance `environment`'s `MOYA_ALLOW_ENV` gives.
    public init(environment: [String: String]) {
        self.init(
            patterns: (environment[Self.environmentVariable] ?? "").split(whereSeparator: { $0 == ":" || $0 == "," })
                .map {
                    String($0.filter { $0 != " " })
                })
    }

    /// Allows `patterns`: names, or prefixes ending in `*`.
    public init(patterns: [String]) {
        var names: Set<String> = []
        var prefixes: [String] = []
        for pattern in patterns where !pattern.isEmpty {
            if pattern.hasSuffix("*") { prefixes.append(String(pattern.dropLast())) } else { names.insert(pattern) }
        }
        self.names = names
        self.prefixes = prefixes
    }

    /// Whether an untrusted file may read `name`.
    public func allows(_ name: String) -> Bool {
        names.contains(name) || prefixes.contains { name.hasPrefix($0) }
    }

    /// What a file sees of `environment`: all of it when `isTrusted`, else the allowed variables;
    /// and the names hidden from it (set, but not allowed), for messages.
    public func view(of environment: [String: String], isTrusted: Bool) -> (
        visible: [String: String], hidden: Set<String>
    ) {
        if isTrusted { return (environment, []) }
        var visible: [String: String] = [:]
        var hidden: Set<String> = []
        for (name, value) in environment {
            if allows(name) { visible[name] = value } else { hidden.insert(name) }
        }
        return (visible, hidden)
    }
}
