import FoundationEssentials
import MoyaKit
import Sending
import TargetModel
import TargetSpec

/// What every request of `call`, `curl` and `check` goes through, defined once.
enum RequestPlugins {
    /// The case's credential (the target's `AccessTokenAuthorizable` side), the default
    /// User-Agent and Accept-Language, `--query`/`--json`/`--data`, the `-H` overrides, and the marks on headers that
    /// carry secrets, in that order.
    static func base(headerOverrides: [HeaderOverride], override: RequestOverridePlugin? = nil) -> [any PluginType] {
        [
            AccessTokenPlugin(tokenClosure: { target in (target as? DynamicTarget)?.credential ?? "" }),
            CredentialsPlugin(credentialsClosure: { target in (target as? DynamicTarget)?.digestCredential }),
            DefaultUserAgentPlugin(),
            AcceptLanguagePlugin()
        ]
            + (override.map { [$0] } ?? [])
            + [HeaderOverridePlugin(overrides: headerOverrides), SensitiveHeadersPlugin(), StreamedFilesPlugin()]
    }

    /// Refuses `--json`/`--data` for a case that transfers a file (upload, multipart, download):
    /// its body is the file.
    static func checkBodyOverride(_ overrides: OverrideOptions, task: TaskSpec) throws {
        guard overrides.replacesBody else { return }
        switch task {
        case .uploadFile, .multipart, .compositeMultipart, .download, .downloadParameters:
            throw CommandFailure(
                .usage,
                "--json and --data replace a request body, and this case's task is a file transfer "
                    + "(\(task.moyaName)); leave them out")
        default:
            return
        }
    }
}

extension SecretRedactor {
    /// The redactor for what is printed about `target` sent with `request`'s options (`Redaction`).
    init(target: DynamicTarget, request: RequestOptions) {
        self = Redaction(request: request).redactor(for: target)
    }

    /// The redactor of `init(target:request:)` for any target without secrets of its own
    /// (`DynamicTarget.hasOwnSecrets`): the default sensitive headers and `request`'s passwords.
    init(request: RequestOptions) {
        self = Redaction(request: request).sharedRedactor
    }

    /// The password of a URL's `user:password@`, as written and percent-decoded.
    static func userinfoPasswords(in url: String) -> [String] {
        guard let schemeEnd = url.firstRange(of: "://") else { return [] }
        let authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return [] }
        let password = String(authority[authority.index(after: colon)..<at])
        guard !password.isEmpty else { return [] }
        return [password, PercentEncoding.decoded(password)].compactMap { $0 }
    }
}
