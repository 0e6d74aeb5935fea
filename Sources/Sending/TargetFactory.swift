import TargetModel
import TargetSpec

/// Where every `TargetBuilder` of a run is made (`call`, `curl`, `request`, `check`, `serve`,
/// `auth`), so the rule every builder needs is applied once: an untrusted target file sees only
/// the variables `MOYA_ALLOW_ENV` allows (`FileEnvironment`). With `--env` and `--base-url`, and the
/// token source live requests ask.
package struct TargetFactory: Sendable {
    /// The process environment; each file sees its view of it.
    package var environment: [String: String]
    /// `--env`: the API's environment to use.
    package var environmentName: String?
    /// `--base-url`.
    package var baseURLOverride: String?
    /// Where `oauth2` and `command` tokens come from for requests that are sent (never for stubs),
    /// and where a token refused with 401 is renewed; `nil`: nowhere.
    package var accessTokens: (any AccessTokenSource)?
    /// `--cache` (`true`) or `--no-cache` (`false`); `nil`: as each file says.
    package var cacheOverride: Bool?

    /// Creates a factory.
    package init(
        environment: [String: String], environmentName: String? = nil, baseURLOverride: String? = nil,
        accessTokens: (any AccessTokenSource)? = nil
    ) {
        self.environment = environment
        self.environmentName = environmentName
        self.baseURLOverride = baseURLOverride
        self.accessTokens = accessTokens
    }

    /// The builder of `api`'s targets, reading only what its file may see of the environment; a
    /// download goes to `downloadDestination` (`nil`: where the case says).
    package func builder(
        for api: APISpec, isStubbed: Bool, downloadDestination: String? = nil, overwritesDownloads: Bool = false
    ) -> TargetBuilder {
        var builder = TargetBuilder(
            api: api, processEnvironment: environment, environmentName: environmentName,
            baseURLOverride: baseURLOverride, isStubbed: isStubbed, downloadDestinationOverride: downloadDestination,
            overwritesDownloads: overwritesDownloads, accessTokens: isStubbed ? nil : accessTokens)
        builder.cacheOverride = cacheOverride
        FileEnvironment.restrict(&builder, environment: environment)
        if isStubbed { standIn(forUnsetSecretsOf: &builder) }
        return builder
    }

    /// The value a stubbed request has for a secret that is not set.
    package static let secretStandIn = "moya-offline-secret"

    /// A stubbed request is never sent: a secret the file reads and the environment does not set
    /// (or hides from an untrusted file) is given a stand-in, so `check` offline and `--stub` work
    /// in CI with no credential at hand. Plain variables (`${HOST}`) are not: they shape the request.
    private func standIn(forUnsetSecretsOf builder: inout TargetBuilder) {
        for reference in builder.api.secretReferences
        where reference.fallback == nil && builder.processEnvironment[reference.name] == nil {
            builder.processEnvironment[reference.name] = Self.secretStandIn
        }
    }
}
