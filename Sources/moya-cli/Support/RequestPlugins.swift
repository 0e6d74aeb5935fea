import MoyaKit
import TargetSpec

/// What every request of `call`, `curl` and `check` goes through, defined once.
enum RequestPlugins {
    /// The case's credential (the target's `AccessTokenAuthorizable` side) and the `-H` overrides, in that order.
    static func base(headerOverrides: [HeaderOverride]) -> [any PluginType] {
        [AccessTokenPlugin(tokenClosure: { target in (target as? DynamicTarget)?.credential ?? "" }),
         HeaderOverridePlugin(overrides: headerOverrides)]
    }
}

extension SecretRedactor {
    /// The redactor for what is printed about `target`: its `${secret:...}` values and credential.
    init(target: DynamicTarget, showsSecrets: Bool) {
        self.init(secretValues: target.secretValues + [target.credential ?? ""].filter { !$0.isEmpty }, showsSecrets: showsSecrets)
    }
}
