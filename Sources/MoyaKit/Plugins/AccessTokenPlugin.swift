/// Adds `Authorization: <scheme> <token>` to requests whose target is `AccessTokenAuthorizable`
/// with a non-nil `authorizationType`.
public struct AccessTokenPlugin: PluginType {
    /// Returns the token for a target (the wrapped one, for a `MultiTarget`).
    public typealias TokenClosure = @Sendable (any TargetType) -> String

    /// Returns the token for a target.
    public let tokenClosure: TokenClosure

    /// Creates the plugin.
    public init(tokenClosure: @escaping TokenClosure) {
        self.tokenClosure = tokenClosure
    }

    /// Sets the `Authorization` header, replacing any.
    public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        guard let authorizable = target.accessTokenAuthorizable,
            let authorizationType = authorizable.authorizationType
        else { return request }
        let realTarget = (target as? MultiTarget)?.target ?? target
        var request = request
        request.setValue(authorizationType.value + " " + tokenClosure(realTarget), forHTTPHeaderField: "Authorization")
        return request
    }
}
