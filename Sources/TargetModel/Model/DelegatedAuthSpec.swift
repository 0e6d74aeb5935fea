/// `auth: {type: oauth2, ...}`: a bearer token the OAuth 2.0 client credentials grant
/// (RFC 6749 §4.4) gets from a token endpoint.
public struct OAuth2AuthSpec: Sendable, Hashable {
    /// How the client authenticates to the token endpoint (RFC 6749 §2.3.1).
    public enum ClientAuthentication: String, Sendable, Hashable, CaseIterable {
        /// `Authorization: Basic base64(id:secret)`, which every server must support.
        case basic
        /// `client_id` and `client_secret` in the form body.
        case body
    }

    /// The token endpoint; `https`, or `http` only to a loopback host.
    public var tokenURL: Template
    /// The client identifier (not secret, like a user name).
    public var clientID: Template
    /// The client secret: exactly one `${VAR}`, secret wherever it appears.
    public var clientSecret: Template
    /// The scopes asked for; empty asks for the client's default.
    public var scopes: [String]
    /// How the client authenticates.
    public var clientAuthentication: ClientAuthentication

    /// Creates the spec.
    public init(
        tokenURL: Template, clientID: Template, clientSecret: Template, scopes: [String] = [],
        clientAuthentication: ClientAuthentication = .basic
    ) {
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scopes = scopes
        self.clientAuthentication = clientAuthentication
    }
}

/// `auth: {type: command, command: [gh, auth, token]}`: a bearer token a command prints.
///
/// A target file naming a command could run anything, so the command runs only from a file the
/// user trusts (see `AccessTokenRequest.TokenCommand.file` and moya-cli(1), SECURITY).
public struct CommandAuthSpec: Sendable, Hashable {
    /// The program and its arguments, run without a shell.
    public var arguments: [String]
    /// How long the command may run, in seconds.
    public var timeout: Double

    /// The default `timeout`.
    public static let defaultTimeout: Double = 30

    /// Creates the spec.
    public init(arguments: [String], timeout: Double = CommandAuthSpec.defaultTimeout) {
        self.arguments = arguments
        self.timeout = timeout
    }
}
