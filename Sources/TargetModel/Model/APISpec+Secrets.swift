extension APISpec {
    /// The variables an API's file reads as secrets: every `${secret:...}` of its headers and base
    /// URLs (top level, environments, cases), and every reference in its auth, however written.
    /// `serve` never logs nor answers with their values; a stubbed request, which is never sent,
    /// stands in for those that are not set.
    package var secretReferences: [Template.EnvironmentReference] {
        // Loops, not key paths passed as functions (`map(\.value)`): those are built at run time,
        // and their generic metadata cost every call ~150,000 instructions.
        var templates: [Template] = []
        for header in self.headers { templates.append(header.value) }
        for environment in self.environments {
            for header in environment.headers { templates.append(header.value) }
        }
        for spec in self.cases {
            for header in spec.headers { templates.append(header.value) }
        }
        templates.append(self.baseURL)
        for environment in self.environments { if let url = environment.baseURL { templates.append(url) } }
        for spec in self.cases { if let url = spec.baseURL { templates.append(url) } }
        var references: [Template.EnvironmentReference] = []
        for template in templates {
            for reference in template.environmentReferences where reference.isSecret { references.append(reference) }
        }
        var auths: [AuthSpec] = []
        if let auth = self.auth { auths.append(auth) }
        for scheme in self.authSchemes { auths.append(scheme.auth) }
        for auth in auths {
            for template in Self.templates(of: auth) { references += template.environmentReferences }
        }
        return references
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
