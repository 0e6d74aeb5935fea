import MoyaKit
import TargetModel
import TargetSpec

/// The secrets an API's file resolves (`${secret:...}` in its headers and base URLs, everything
/// in its auth): what `serve` never logs or answers with, should a client send one or a route
/// hold one (`baseURL: https://api.telegram.org/bot${secret:BOT_TOKEN}` puts it in every route). (Samples cannot read the environment, so
/// no answer holds one.)
enum ServedSecrets {
    /// The set values of every secret reference of `builder`'s API, through its selected environment.
    static func values(of builder: TargetBuilder) -> [String] {
        let api = builder.api
        let environment = (builder.environmentName ?? api.defaultEnvironment).flatMap {
            try? api.environment(named: $0)
        }
        let variables = (try? environment?.resolvedVariables(processEnvironment: builder.processEnvironment)) ?? [:]
        var templates = api.headers.map(\.value) + (environment?.headers ?? []).map(\.value)
        let auths = [api.auth].compactMap { $0 } + api.authSchemes.map(\.auth)
        templates += auths.flatMap(authTemplates)
        templates += api.cases.flatMap { $0.headers.map(\.value) }
        templates += [api.baseURL] + api.environments.compactMap(\.baseURL) + api.cases.compactMap(\.baseURL)
        // Everything in auth is secret, whether written `${secret:...}` or not.
        let authReferences = Set(auths.flatMap(authTemplates).flatMap(\.environmentReferences).map(\.name))
        return templates.flatMap(\.environmentReferences).filter { $0.isSecret || authReferences.contains($0.name) }
            .compactMap { Template.value(of: $0, environment: builder.processEnvironment, variables: variables) }
            .filter { $0.utf8.count >= SecretRedactor.minimumSecretLength }
    }

    private static func authTemplates(_ auth: AuthSpec) -> [Template] {
        switch auth {
        case .bearer(let token), .custom(_, let token), .apiKey(_, _, let token): [token]
        case .basic(_, let password), .digest(_, let password): [password]
        case .oauth2(let spec): [spec.clientSecret]
        case .command: []
        }
    }
}
