import MoyaKit
import OrderedJSON
import TargetModel
import TargetSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The token endpoint of an API's `oauth2` auth, served beside its cases so that a client of the
/// served API gets a token as from the real one: any client credentials are accepted, and the
/// token is a fixed text that grants nothing anywhere else.
struct TokenEndpoint: Sendable {
    var apiName: String
    /// The token URL's path, as segments (percent-decoded, empty ones dropped).
    var path: [String]
    var scopes: [String]

    /// The token served.
    static let token = "moya-cli-serve-token"

    /// The token endpoints of `builder`'s API: one per `oauth2` scheme whose token URL renders
    /// (its `${VAR}` read as the API's base URL is, through the selected environment).
    static func endpoints(of builder: TargetBuilder) -> [TokenEndpoint] {
        let api = builder.api
        let environment = (builder.environmentName ?? api.defaultEnvironment).flatMap {
            try? api.environment(named: $0)
        }
        let variables = (try? environment?.resolvedVariables(processEnvironment: builder.processEnvironment)) ?? [:]
        return ([api.auth].compactMap { $0 } + api.authSchemes.map(\.auth)).compactMap { auth in
            guard case .oauth2(let spec) = auth,
                let text = try? spec.tokenURL.render(environment: builder.processEnvironment, variables: variables),
                let url = URL(string: text)
            else { return nil }
            let segments = url.path.split(separator: "/").map { PercentEncoding.decoded(String($0)) ?? String($0) }
            return TokenEndpoint(apiName: api.name, path: segments, scopes: spec.scopes)
        }
    }

    /// RFC 6749's successful token response.
    var response: ServeResponse {
        var fields: [(String, JSONValue)] = [
            ("access_token", .string(Self.token)), ("token_type", .string("Bearer")), ("expires_in", .int(3600))
        ]
        if !scopes.isEmpty { fields.append(("scope", .string(scopes.joined(separator: " ")))) }
        var response = ServeResponder.json(200, .object(fields))
        response.headers.append(("Cache-Control", "no-store"))
        return response
    }
}
