/// A target that says which `Authorization` scheme `AccessTokenPlugin` should use for it.
public protocol AccessTokenAuthorizable {
    /// The scheme, or `nil` to send no token.
    var authorizationType: AuthorizationType? { get }
}

/// The scheme of an `Authorization` header: `<scheme> <token>`.
public enum AuthorizationType: Sendable, Hashable {
    /// `Basic`.
    case basic
    /// `Bearer`.
    case bearer
    /// Any other scheme, e.g. `"Token"`.
    case custom(String)

    /// The scheme as written in the header.
    public var value: String {
        switch self {
        case .basic: return "Basic"
        case .bearer: return "Bearer"
        case .custom(let scheme): return scheme
        }
    }
}
