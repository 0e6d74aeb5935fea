/// One of an API's named auth schemes: `auth: {default: bearer, schemes: {bearer: {...}, basic: {...}}}`.
package struct NamedAuthScheme: Sendable, Hashable {
    /// The name a case's `auth:` chooses it by.
    package var name: String
    /// The credentials.
    package var auth: AuthSpec

    /// Creates a scheme.
    package init(name: String, auth: AuthSpec) {
        self.name = name
        self.auth = auth
    }
}
