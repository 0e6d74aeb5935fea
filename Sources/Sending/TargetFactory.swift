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
        FileEnvironment.restrict(&builder, environment: environment)
        return builder
    }
}
