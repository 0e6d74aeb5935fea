import TargetModel

/// What a bearer token must be obtained for: the API's `oauth2` or `command` auth with its
/// references resolved. `TargetBuilder` makes one and asks an `AccessTokenSource` for the token.
public enum AccessTokenRequest: Sendable, Hashable {
    /// The client credentials grant at a token endpoint.
    case oauth2(OAuth2Client)
    /// A command that prints a token.
    case command(TokenCommand)

    /// An OAuth 2.0 client, resolved: what the token endpoint is asked with.
    public struct OAuth2Client: Sendable, Hashable {
        /// The API's name (part of the cache key).
        public var apiName: String
        /// The token endpoint, checked by `TokenURLCheck`.
        public var tokenURL: String
        public var clientID: String
        /// Secret: never printed, never part of a file name.
        public var clientSecret: String
        public var scopes: [String]
        public var clientAuthentication: OAuth2AuthSpec.ClientAuthentication
        /// The origin (`scheme://host:port`) of the base URL the token is sent to: a token is
        /// obtained for one place and never sent to another.
        public var origin: String

        /// Creates a client.
        public init(
            apiName: String, tokenURL: String, clientID: String, clientSecret: String, scopes: [String],
            clientAuthentication: OAuth2AuthSpec.ClientAuthentication, origin: String
        ) {
            self.origin = origin
            self.apiName = apiName
            self.tokenURL = tokenURL
            self.clientID = clientID
            self.clientSecret = clientSecret
            self.scopes = scopes
            self.clientAuthentication = clientAuthentication
        }
    }

    /// A token command and the file that asks for it (whose trust decides whether it runs).
    public struct TokenCommand: Sendable, Hashable {
        public var apiName: String
        /// The program and its arguments.
        public var arguments: [String]
        /// Seconds the command may run.
        public var timeout: Double
        /// The target file that names the command.
        public var file: String

        /// Creates a command.
        public init(apiName: String, arguments: [String], timeout: Double, file: String) {
            self.apiName = apiName
            self.arguments = arguments
            self.timeout = timeout
            self.file = file
        }
    }
}

/// Hands out bearer tokens for `oauth2` and `command` auth (the TargetAuth library has one that
/// caches them). `TargetBuilder` asks it while building a target; a caller whose request was
/// refused with 401 asks again, naming the refused token, to get a new one.
public protocol AccessTokenSource: Sendable {
    /// A token for `request`. `rejected`: a token the server refused, which must not be handed
    /// out again.
    func accessToken(for request: AccessTokenRequest, replacing rejected: String?) throws(AccessTokenError) -> String
}

/// Why no token could be obtained; the message never holds a secret.
public struct AccessTokenError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public enum Kind: Sendable, Hashable {
        /// The token endpoint could not be reached, or timed out.
        case transport
        /// The token endpoint answered with an error, or with something that is no token.
        case refused
        /// The token command failed, timed out, or printed nothing.
        case command
        /// The auth cannot be used as configured (an untrusted file's command, a bad token URL, no source).
        case notAllowed
    }

    public var kind: Kind
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
