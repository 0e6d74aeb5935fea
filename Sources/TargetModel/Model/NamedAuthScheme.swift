/// One of an API's named auth schemes: `auth: {default: bearer, schemes: {bearer: {...}, basic: {...}}}`.
public struct NamedAuthScheme: Sendable, Hashable {
    /// The name a case's `auth:` chooses it by.
    public var name: String
    /// The credentials.
    public var auth: AuthSpec

    /// Creates a scheme.
    public init(name: String, auth: AuthSpec) {
        self.name = name
        self.auth = auth
    }
}
