extension APISpec {
    /// The variables an API's file reads as secrets: every `${secret:...}` of its headers and base
    /// URLs (top level, environments, cases), and every reference in its auth, however written.
    /// `serve` never logs nor answers with their values; a stubbed request, which is never sent,
    /// stands in for those that are not set.
    package var secretReferences: [Template.EnvironmentReference] {
        let environments = self.environments
        let cases = self.cases
        var templates = self.headers.map(\.value) + environments.flatMap(\.headers).map(\.value)
        templates += cases.flatMap { $0.headers.map(\.value) }
        templates += [self.baseURL] + environments.compactMap(\.baseURL) + cases.compactMap(\.baseURL)
        let auths = [self.auth].compactMap { $0 } + self.authSchemes.map(\.auth)
        let authTemplates = auths.flatMap(Self.templates(of:))
        return templates.flatMap(\.environmentReferences).filter(\.isSecret)
            + authTemplates.flatMap(\.environmentReferences)
    }

    private static func templates(of auth: AuthSpec) -> [Template] {
        switch auth {
        case .bearer(let token), .custom(_, let token), .apiKey(_, _, let token): [token]
        case .basic(let username, let password), .digest(let username, let password): [username, password]
        case .oauth2(let spec): [spec.clientSecret]
        case .command: []
        case .awsSigV4(let spec): [spec.accessKey, spec.secretKey] + (spec.sessionToken.map { [$0] } ?? [])
        }
    }
}
