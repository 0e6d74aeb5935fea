import PositionedYAML
import TextSafety

/// `auth:` and `environments:`.
extension TargetFileValidator {
    private static let authKeys: [AuthSpec.Kind: [String]] = [
        .bearer: ["type", "token"],
        .basic: ["type", "username", "password"],
        .digest: ["type", "username", "password"],
        .custom: ["type", "scheme", "token"],
        .oauth2: ["type", "tokenURL", "clientId", "clientSecret", "scopes", "clientAuth"],
        .command: ["type", "command", "timeout"],
        .apiKey: ["type", "in", "name", "key"],
        .awsSigV4: ["type", "region", "service", "accessKey", "secretKey", "sessionToken"]
    ]

    /// How cases may name the API's auth.
    enum APIAuthNames {
        /// `auth: {type: ...}`: a case names the type (or `none`).
        case single(AuthSpec.Kind)
        /// `auth: {schemes: {...}}`: a case names a scheme (or `none`).
        case schemes([String])
    }

    /// The API's `auth:` as read: the default credentials, the named schemes and their names.
    struct APIAuthReading {
        var defaultAuth: AuthSpec?
        /// `nil` for the one-scheme form.
        var schemes: [NamedAuthScheme]?
        var names: APIAuthNames

        /// The named schemes; the one-scheme form's is named by its type.
        var namedSchemes: [NamedAuthScheme] {
            schemes ?? defaultAuth.map { [NamedAuthScheme(name: $0.kind.rawValue, auth: $0)] } ?? []
        }
    }

    /// `auth:` in either form: one scheme (`{type: bearer, token: ...}`) or named schemes
    /// (`{default: NAME, schemes: {NAME: {type: ...}, ...}}`).
    mutating func readAPIAuth(_ node: Node) -> APIAuthReading? {
        if case .mapping(let entries, _) = node, entries.contains(where: { $0.key.text == "schemes" }) {
            return readAuthSchemes(node)
        }
        guard let auth = readAuth(node) else { return nil }
        return APIAuthReading(defaultAuth: auth, schemes: nil, names: .single(auth.kind))
    }

    private mutating func readAuthSchemes(_ node: Node) -> APIAuthReading? {
        guard let fields = fields(node, allowed: ["default", "schemes"], context: "in auth with schemes"),
            let schemesNode = fields["schemes"],
            let entries = entries(
                schemesNode,
                expected: "a map of scheme names to auth, such as {basic: {type: basic, username: ..., password: ...}}")
        else { return nil }
        if entries.isEmpty {
            error("'schemes' is empty; name at least one auth scheme", at: schemesNode.mark)
            return nil
        }
        var schemes: [NamedAuthScheme] = []
        var isValid = true
        for entry in entries {
            let name = entry.key.text
            guard Self.isIdentifier(name), name != "none" else {
                error(
                    "invalid auth scheme name '\(name)'; a scheme name starts with a letter or '_', holds letters, digits and '_', and is not 'none'",
                    at: entry.key.mark)
                isValid = false
                continue
            }
            if let auth = readAuth(entry.value) {
                schemes.append(NamedAuthScheme(name: name, auth: auth))
            } else {
                isValid = false
            }
        }
        let names = entries.map(\.key.text)
        var defaultAuth: AuthSpec?
        if let defaultNode = fields["default"], let text = string(defaultNode) {
            if let scheme = schemes.first(where: { $0.name == text }) {
                defaultAuth = scheme.auth
            } else if !names.contains(text) {
                unknownScheme(text, names: names, at: defaultNode.mark, what: "default auth scheme")
                isValid = false
            }
        }
        guard isValid else { return nil }
        return APIAuthReading(defaultAuth: defaultAuth, schemes: schemes, names: .schemes(names))
    }

    /// Reports a scheme name that names none of `names`, with a did-you-mean suggestion.
    mutating func unknownScheme(_ text: String, names: [String], at mark: Mark, what: String) {
        let hint = Suggestion.didYouMean(text, in: names)
        error(
            "unknown \(what) '\(text)'" + (hint.isEmpty ? "; expected one of " + names.joined(separator: ", ") : hint),
            at: mark)
    }

    mutating func readAuth(_ node: Node) -> AuthSpec? {
        let allKeys = [
            "type", "token", "username", "password", "scheme", "in", "name", "key", "tokenURL", "clientId",
            "clientSecret", "scopes",
            "clientAuth", "command", "timeout", "region", "service", "accessKey", "secretKey", "sessionToken"
        ]
        guard case .mapping = node else {
            typeError(expected: "a map such as {type: bearer, token: \"${TOKEN}\"}", found: node)
            return nil
        }
        guard let loose = fields(node, allowed: allKeys, context: "in auth") else { return nil }
        guard let typeNode = loose["type"] else {
            error(
                "missing required key 'type' in auth; use bearer, basic, custom, apiKey, oauth2, command or awsSigV4",
                at: loose.mark)
            return nil
        }
        guard let typeName = choice(typeNode, from: AuthSpec.Kind.allCases.map(\.rawValue), what: "auth type"),
            let kind = AuthSpec.Kind(rawValue: typeName)
        else { return nil }
        let allowed = Self.authKeys[kind] ?? []
        for entry in loose.entries where !allowed.contains(entry.key.text) {
            error(
                "auth type '\(typeName)' has no key '\(entry.key.text)'; it takes "
                    + allowed.dropFirst().joined(separator: " and "), at: entry.key.mark)
        }
        switch kind {
        case .bearer:
            guard let token = secret("token", in: loose) else { return nil }
            return .bearer(token: token)
        case .basic:
            let username = required("username", in: loose).flatMap { authTemplate($0) }
            let password = secret("password", in: loose)
            guard let username, let password else { return nil }
            return .basic(username: username, password: password)
        case .digest:
            let username = required("username", in: loose).flatMap { authTemplate($0) }
            let password = secret("password", in: loose)
            guard let username, let password else { return nil }
            return .digest(username: username, password: password)
        case .custom:
            var scheme: String?
            if let schemeNode = required("scheme", in: loose), let text = string(schemeNode) {
                if Self.isToken(text) {
                    scheme = text
                } else {
                    error("invalid auth scheme '\(text)'; a scheme is one word such as Token", at: schemeNode.mark)
                }
            }
            let token = secret("token", in: loose)
            guard let scheme, let token else { return nil }
            return .custom(scheme: scheme, token: token)
        case .apiKey:
            var location: AuthSpec.APIKeyLocation?
            if let node = required("in", in: loose),
                let text = choice(
                    node, from: AuthSpec.APIKeyLocation.allCases.map(\.rawValue), what: "API key location")
            {
                location = AuthSpec.APIKeyLocation(rawValue: text)
            }
            var name: String?
            if let node = required("name", in: loose), let text = string(node) {
                // A header name is a token; a query parameter name anything printable on one line.
                if location == .header
                    ? Self.isToken(text)
                    : (!text.isEmpty && !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
                {
                    name = text
                } else {
                    error(
                        "invalid API key \(location == .header ? "header" : "parameter") name '\(DisplayText.escaped(text))'",
                        at: node.mark)
                }
            }
            let key = secret("key", in: loose)
            guard let location, let name, let key else { return nil }
            return .apiKey(location: location, name: name, key: key)
        case .oauth2:
            return readOAuth2(loose)
        case .command:
            return readCommandAuth(loose)
        case .awsSigV4:
            return readAWSSigV4(loose)
        }
    }

    /// `{type: awsSigV4, region: ..., service: ..., accessKey: "${secret:...}", secretKey: "${secret:...}"}`:
    /// region and service are words (or `${VAR}`), the keys references as every secret is.
    private mutating func readAWSSigV4(_ fields: Fields) -> AuthSpec? {
        var scope: [String: Template] = [:]
        for key in ["region", "service"] {
            guard let node = required(key, in: fields), let template = authTemplate(node) else { continue }
            if let text = template.literalText, !Self.isSigV4ScopeWord(text) {
                error(
                    "invalid \(key) '\(DisplayText.escaped(text))'; a SigV4 \(key) is a word of letters, digits and '-', such as \(key == "region" ? "us-east-1" : "s3")",
                    at: node.mark)
                continue
            }
            scope[key] = template
        }
        let accessKey = secret("accessKey", in: fields)
        let secretKey = secret("secretKey", in: fields)
        var sessionToken: Template?
        if fields["sessionToken"] != nil {
            guard let token = secret("sessionToken", in: fields) else { return nil }
            sessionToken = token
        }
        guard let region = scope["region"], let service = scope["service"], let accessKey, let secretKey else {
            return nil
        }
        return .awsSigV4(
            AWSSigV4AuthSpec(
                region: region, service: service, accessKey: accessKey, secretKey: secretKey, sessionToken: sessionToken
            ))
    }

    /// Whether `text` may stand in a SigV4 credential scope (`AKID/DATE/REGION/SERVICE/aws4_request`).
    package static func isSigV4ScopeWord(_ text: String) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "_"
            }
    }

    /// `{type: oauth2, tokenURL: ..., clientId: ..., clientSecret: "${secret:...}", scopes: [...], clientAuth: basic}`.
    private mutating func readOAuth2(_ fields: Fields) -> AuthSpec? {
        var tokenURL: Template?
        if let node = required("tokenURL", in: fields) {
            let position = TemplatePosition(name: "tokenURL", placeholderRole: nil, allowsEnvironment: true)
            if let template = template(node, at: position) {
                if let text = template.literalText, let problem = TokenURLCheck.problem(in: text) {
                    error(problem, at: node.mark)
                } else if template.containsSecret {
                    // The token URL is shown in messages and `moya-cli auth`; a secret belongs in clientSecret.
                    error(
                        "tokenURL cannot hold a ${secret:...} reference; it is shown in messages (the client's secret goes in clientSecret)",
                        at: node.mark)
                } else {
                    tokenURL = template
                }
            }
        }
        let clientID = required("clientId", in: fields).flatMap { authTemplate($0) }
        let clientSecret = secret("clientSecret", in: fields)
        var scopes: [String] = []
        var scopesAreValid = true
        if let node = fields["scopes"], let items = sequence(node, expected: "a list of scopes, like [read, write]") {
            for item in items {
                guard let scope = string(item) else {
                    scopesAreValid = false
                    continue
                }
                // RFC 6749 §3.3: a scope token is printable ASCII without space, '"' or '\'.
                guard !scope.isEmpty,
                    scope.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) && $0 != "\"" && $0 != "\\" })
                else {
                    error(
                        "invalid scope '\(scope)'; a scope is printable ASCII without spaces, '\"' or '\\'",
                        at: item.mark)
                    scopesAreValid = false
                    continue
                }
                scopes.append(scope)
            }
        } else if fields["scopes"] != nil {
            scopesAreValid = false
        }
        var clientAuthentication = OAuth2AuthSpec.ClientAuthentication.basic
        if let node = fields["clientAuth"] {
            guard
                let text = choice(
                    node, from: OAuth2AuthSpec.ClientAuthentication.allCases.map(\.rawValue), what: "clientAuth"),
                let value = OAuth2AuthSpec.ClientAuthentication(rawValue: text)
            else { return nil }
            clientAuthentication = value
        }
        guard let tokenURL, let clientID, let clientSecret, scopesAreValid else { return nil }
        return .oauth2(
            OAuth2AuthSpec(
                tokenURL: tokenURL, clientID: clientID, clientSecret: clientSecret, scopes: scopes,
                clientAuthentication: clientAuthentication))
    }

    /// `{type: command, command: [gh, auth, token], timeout: 30}`: a literal argument list, no
    /// shell, no `${VAR}` (what runs is what the file shows).
    private mutating func readCommandAuth(_ fields: Fields) -> AuthSpec? {
        guard let node = required("command", in: fields),
            let arguments = readProgramArguments(node, what: "command", example: "[gh, auth, token]")
        else { return nil }
        var timeout = CommandAuthSpec.defaultTimeout
        if let timeoutNode = fields["timeout"] {
            guard let value = positiveNumber(timeoutNode) else { return nil }
            timeout = value
        }
        return .command(CommandAuthSpec(arguments: arguments, timeout: timeout))
    }

    /// A program and its arguments (`auth: {type: command}`'s `command`, `prepare`): a literal
    /// list, no shell, no `${VAR}` (what runs is what the file shows).
    mutating func readProgramArguments(_ node: Node, what: String, example: String) -> [String]? {
        guard let items = sequence(node, expected: "a list of the program and its arguments, like \(example)")
        else { return nil }
        guard !items.isEmpty else {
            error("'\(what)' is empty; name the program to run, like \(example)", at: node.mark)
            return nil
        }
        var arguments: [String] = []
        for item in items {
            guard let text = string(item) else { return nil }
            if text.utf8.contains(0) {
                error("a command argument cannot hold a NUL character", at: item.mark)
                return nil
            }
            arguments.append(text)
        }
        if arguments[0].isEmpty {
            error("the program to run is empty", at: items[0].mark)
            return nil
        }
        return arguments
    }

    private mutating func required(_ key: String, in fields: Fields) -> Node? {
        guard let node = fields[key] else {
            error("missing required key '\(key)' in auth", at: fields.mark)
            return nil
        }
        return node
    }

    private mutating func authTemplate(_ node: Node) -> Template? {
        let position = TemplatePosition(name: "auth", placeholderRole: nil, allowsEnvironment: true)
        return template(node, at: position)?.markingReferencesSecret()
    }

    /// A token or password: exactly one `${VAR}` reference, no fallback; never literal.
    private mutating func secret(_ key: String, in fields: Fields) -> Template? {
        guard let node = required(key, in: fields), let template = authTemplate(node) else { return nil }
        let references = template.environmentReferences
        guard template.segments.count == 1, let reference = references.first else {
            error("literal secret in file; use ${VAR} for auth \(key)", at: node.mark)
            return nil
        }
        if reference.fallback != nil {
            error(
                "literal secret in file (the fallback of ${\(reference.name)}); use ${\(reference.name)} without a fallback",
                at: node.mark)
            return nil
        }
        return template
    }

    mutating func readEnvironments(_ node: Node, apiBaseURL: Template?) -> [EnvironmentSpec] {
        guard let entries = entries(node, expected: "a map of environment names to environments") else { return [] }
        var environments: [EnvironmentSpec] = []
        for entry in entries {
            let name = entry.key.text
            if !Self.isAPIName(name) {
                error(
                    "invalid environment name '\(name)'; a name starts with a letter and holds letters, digits, '_' and '-'",
                    at: entry.key.mark)
            }
            guard
                let fields = fields(
                    entry.value, allowed: ["baseURL", "variables", "headers", "tls", "resolve"],
                    context: "in environment '\(name)'")
            else { continue }
            let baseURL = fields["baseURL"].flatMap { readBaseURL($0, positionName: "an environment's baseURL") }
            let position = TemplatePosition(name: "an environment", placeholderRole: nil, allowsEnvironment: true)
            var variables: [EnvironmentSpec.Variable] = []
            if let variablesNode = fields["variables"],
                let variableEntries = self.entries(variablesNode, expected: "a map of variable names to values")
            {
                for variable in variableEntries {
                    if !Self.isIdentifier(variable.key.text) {
                        error(
                            "invalid variable name '\(variable.key.text)'; use letters, digits and '_'",
                            at: variable.key.mark)
                    }
                    if let value = template(variable.value, at: position) {
                        variables.append(EnvironmentSpec.Variable(name: variable.key.text, value: value))
                    }
                }
            }
            let headers = fields["headers"].map { readHeaders($0, at: position) } ?? []
            var environment = EnvironmentSpec(
                name: name, baseURL: baseURL, variables: variables, headers: headers, mark: entry.key.mark)
            environment.pinnedPublicKeys = fields["tls"].flatMap {
                readTLS($0, context: "in environment '\(name)' tls")?.pins
            }
            if let node = fields["resolve"] {
                environment.resolve = readResolve(node, baseURL: baseURL ?? apiBaseURL, environment: name)
            }
            environments.append(environment)
        }
        return environments
    }

    /// `resolve: [HOST:PORT:ADDRESS[,ADDRESS...]]` of an environment, as curl's `--resolve`: each
    /// HOST the host of the environment's base URL (the file pins where its own API is reached,
    /// never another host), each ADDRESS an IP address.
    mutating func readResolve(_ node: Node, baseURL: Template?, environment: String) -> [String] {
        guard let items = sequence(node, expected: "a list like [api.example.com:443:10.0.0.3]") else { return [] }
        let host = baseURL.flatMap { $0.environmentReferences.isEmpty ? ConnectionPinning.host(ofURL: $0.source) : nil }
        var entries: [String] = []
        for item in items {
            guard let text = string(item) else { continue }
            switch ConnectionPinning.resolveEntry(text) {
            case .failure(let problem):
                error("resolve entry '\(text)' \(problem.text)", at: item.mark)
            case .success(let entry):
                guard let host else {
                    error(
                        "resolve in environment '\(environment)' needs a base URL whose host is written out (no ${VAR}) to check the entries against",
                        at: item.mark)
                    continue
                }
                guard entry.host == host else {
                    error(
                        "resolve entry '\(text)' names the host '\(entry.host)'; an environment pins only its base URL's host, '\(host)'",
                        at: item.mark)
                    continue
                }
                entries.append(ConnectionPinning.curlForm(entry))
            }
        }
        return entries
    }
}
