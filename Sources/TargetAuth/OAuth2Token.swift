import ContentDigest
import MoyaKit
import TargetSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An access token from a token endpoint (RFC 6749 §5.1), with when it stops being valid.
package struct OAuth2Token: Sendable, Hashable {
    /// The bearer token. Secret.
    package var accessToken: String
    /// `token_type` as the server wrote it (`Bearer`).
    package var tokenType: String
    /// When it expires (`expires_in` after it was issued); `nil` when the server did not say,
    /// and then it is used until a request is refused with 401.
    package var expiresAt: Date?
    /// The scopes granted (`scope`), space-separated, when the server said.
    package var scope: String?
    /// A token to get a new access token with (RFC 6749 §6). Secret.
    package var refreshToken: String?

    /// Creates a token.
    package init(
        accessToken: String, tokenType: String = "Bearer", expiresAt: Date? = nil, scope: String? = nil,
        refreshToken: String? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.scope = scope
        self.refreshToken = refreshToken
    }

    /// How long before `expiresAt` a token is no longer handed out: a token about to expire could
    /// expire on the way, and clocks differ a little.
    package static let expirySkew: TimeInterval = 30

    /// Whether the token may still be sent at `now`.
    package func isValid(at now: Date, skew: TimeInterval = OAuth2Token.expirySkew) -> Bool {
        guard let expiresAt else { return true }
        return now.addingTimeInterval(skew) < expiresAt
    }
}

/// The cache key of an OAuth 2.0 client: everything that makes a token valid for a place. The
/// API, the token endpoint, the client, a digest of its secret, the scopes and the origin the
/// token is sent to: another target file repeating the API name, token URL, client id and scopes
/// without the secret, or pointing the API at another host, gets a token of its own, never this one.
package struct OAuth2CacheKey: Sendable, Hashable {
    package var apiName: String
    package var tokenURL: String
    package var clientID: String
    /// SHA-256 of the client secret, hex: the secret itself is never written or named.
    package var clientSecretDigest: String
    /// Sorted: the order a file lists scopes in asks for the same token.
    package var scopes: [String]
    /// `scheme://host:port` of the base URL the token goes to.
    package var origin: String

    /// The key of `client`.
    package init(_ client: AccessTokenRequest.OAuth2Client) {
        self.init(
            apiName: client.apiName, tokenURL: client.tokenURL, clientID: client.clientID,
            clientSecretDigest: Self.digest(ofSecret: client.clientSecret), scopes: client.scopes, origin: client.origin
        )
    }

    /// Creates a key.
    package init(
        apiName: String, tokenURL: String, clientID: String, clientSecretDigest: String, scopes: [String],
        origin: String
    ) {
        self.apiName = apiName
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecretDigest = clientSecretDigest
        self.scopes = scopes.sorted()
        self.origin = origin
    }

    /// The digest a key keeps of a client secret.
    package static func digest(ofSecret secret: String) -> String {
        SHA256.hexDigest(of: Array(("moya-cli client secret\n" + secret).utf8))
    }

    /// The cache file's name: the API's name (an API name is letters, digits, `_` and `-`), so
    /// `auth --logout` finds an API's files without resolving its variables, then a SHA-256 of
    /// the key's fields.
    package var fileName: String {
        let fields = [apiName, tokenURL, clientID, clientSecretDigest, origin] + scopes
        let digest = SHA256.hexDigest(of: Array(fields.joined(separator: "\n").utf8))
        return Self.filePrefix(apiName: apiName) + digest.prefix(32) + ".json"
    }

    /// What the names of an API's cache files start with.
    package static func filePrefix(apiName: String) -> String {
        "oauth2-" + apiName + "-"
    }
}
