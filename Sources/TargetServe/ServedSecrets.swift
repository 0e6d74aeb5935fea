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
        return api.secretReferences
            .compactMap { Template.value(of: $0, environment: builder.processEnvironment, variables: variables) }
            .filter { $0.utf8.count >= SecretRedactor.minimumSecretLength }
    }
}
