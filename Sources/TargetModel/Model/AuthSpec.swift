/// The API's credentials (Moya's AccessTokenPlugin / CredentialsPlugin). Every reference is secret.
public enum AuthSpec: Sendable, Hashable {
    /// `Authorization: Bearer <token>`.
    case bearer(token: Template)
    /// `Authorization: Basic base64(username:password)`.
    case basic(username: Template, password: Template)
    /// HTTP Digest (RFC 7616): the password answers the server's challenge, never sent itself.
    case digest(username: Template, password: Template)
    /// `Authorization: <scheme> <token>`.
    case custom(scheme: String, token: Template)
    /// `Authorization: Bearer <token>`, the token from an OAuth 2.0 token endpoint.
    case oauth2(OAuth2AuthSpec)
    /// `Authorization: Bearer <token>`, the token a command prints.
    case command(CommandAuthSpec)
    /// An API key in a header (`X-API-Key: <key>`) or a query parameter (`?api_key=<key>`), as
    /// OpenAPI's `apiKey` security schemes send it.
    case apiKey(location: APIKeyLocation, name: String, key: Template)
    /// AWS Signature Version 4: each request signed as sent (`Authorization: AWS4-HMAC-SHA256 …`,
    /// `X-Amz-Date`, `X-Amz-Content-SHA256`), by the sender, once per request.
    case awsSigV4(AWSSigV4AuthSpec)

    /// Where an API key goes.
    public enum APIKeyLocation: String, Sendable, Hashable, CaseIterable {
        /// A request header (secret: hidden in output, kept from other origins).
        case header
        /// A query parameter.
        case query
    }

    /// The auth types a file may name.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `bearer`.
        case bearer
        /// `basic`.
        case basic
        /// `digest`.
        case digest
        /// `custom`.
        case custom
        /// `oauth2`.
        case oauth2
        /// `command`.
        case command
        /// `apiKey`.
        case apiKey
        /// `awsSigV4`.
        case awsSigV4
    }

    /// This auth's type.
    public var kind: Kind {
        switch self {
        case .bearer: .bearer
        case .basic: .basic
        case .digest: .digest
        case .custom: .custom
        case .oauth2: .oauth2
        case .command: .command
        case .apiKey: .apiKey
        case .awsSigV4: .awsSigV4
        }
    }
}

/// A case's `auth:`.
public enum CaseAuthMode: Sendable, Hashable {
    /// No `auth:` key: the API's auth applies, if it has one.
    case inherited
    /// `auth: none`: no Authorization header (Moya's `authorizationType: nil`).
    case none
    /// `auth: bearer` etc.: the API's auth, named explicitly (the loader checks it matches), or the
    /// scheme of that name when the API names its schemes.
    case explicit(AuthSpec.Kind)
    /// `auth: NAME`: the API's auth scheme `NAME` (`auth: {schemes: {NAME: ...}}`).
    case scheme(String)

    /// The scheme name the case chooses, if it names one.
    public var schemeName: String? {
        switch self {
        case .inherited, .none: nil
        case .explicit(let kind): kind.rawValue
        case .scheme(let name): name
        }
    }
}

/// `auth: {type: awsSigV4, region: us-east-1, service: s3, accessKey: "${secret:AWS_ACCESS_KEY_ID}",
/// secretKey: "${secret:AWS_SECRET_ACCESS_KEY}", sessionToken: "${secret:AWS_SESSION_TOKEN}"}`.
public struct AWSSigV4AuthSpec: Sendable, Hashable {
    /// The region, such as `us-east-1` (may hold `${VAR}`).
    public var region: Template
    /// The service, such as `s3` or `execute-api` (may hold `${VAR}`).
    public var service: Template
    /// The access key ID (one `${VAR}` reference, secret).
    public var accessKey: Template
    /// The secret access key (one `${VAR}` reference, secret).
    public var secretKey: Template
    /// A temporary credential's session token, sent as `X-Amz-Security-Token` (secret).
    public var sessionToken: Template?

    /// Creates the spec.
    public init(
        region: Template, service: Template, accessKey: Template, secretKey: Template, sessionToken: Template? = nil
    ) {
        self.region = region
        self.service = service
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken
    }
}
