import MoyaKit
import TargetSpec

/// What every request of `call`, `curl` and `check` goes through, defined once.
enum RequestPlugins {
    /// The case's credential (the target's `AccessTokenAuthorizable` side), the `-H` overrides, and
    /// the marks on headers that carry secrets, in that order.
    static func base(headerOverrides: [HeaderOverride]) -> [any PluginType] {
        [AccessTokenPlugin(tokenClosure: { target in (target as? DynamicTarget)?.credential ?? "" }),
         HeaderOverridePlugin(overrides: headerOverrides),
         SensitiveHeadersPlugin()]
    }
}

extension SecretRedactor {
    /// The redactor for what is printed about `target`: its `${secret:...}` values and credential.
    init(target: DynamicTarget, showsSecrets: Bool) {
        self.init(secretValues: target.secretValues + [target.credential ?? ""].filter { !$0.isEmpty }, showsSecrets: showsSecrets)
    }
}
