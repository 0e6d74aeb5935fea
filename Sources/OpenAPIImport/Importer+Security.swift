import TargetModel

/// The spec's security schemes as the target file carries them: bearer, basic and API keys in a
/// header or the query become named `auth` schemes; API keys in a cookie a `Cookie` case header
/// with a `${secret:…}` value on the cases that need them.
struct SecurityMapping {
    enum Scheme {
        /// An `auth` scheme, named, with its map; for an API key in a header, that header too, for
        /// a case that needs it next to another scheme (a case has one `auth`).
        case authorization(name: String, spec: YAMLText, header: (name: String, value: String)?)
        /// A cookie that carries the key, `name=${secret:…}`.
        case cookie(name: String, value: String)
    }

    /// By the spec's scheme name.
    var schemes: [String: Scheme] = [:]
    /// Authorization schemes in spec order.
    var authorizationOrder: [String] = []
    /// The auth scheme cases use when they say nothing: the document's `security`.
    var defaultScheme: String?
    var credentials: [(name: String, purpose: String)] = []
    /// OAuth 2.0 schemes again with an operation's own scopes, after the scheme they copy (by its
    /// spec name): their auth names and maps.
    var scopeVariants: [String: [(name: String, spec: YAMLText)]] = [:]
    /// Variant auth names by scheme and scopes, so operations asking alike share one.
    var variantNames: [String: String] = [:]
    /// Every auth name given, for unique variant names.
    var takenAuthNames: Set<String> = ["none"]

    /// `auth: {default: NAME, schemes: {...}}`, when there is an Authorization scheme.
    func authEntry() -> YAMLText.Entry? {
        guard !authorizationOrder.isEmpty else { return nil }
        var members: [YAMLText.Entry] = []
        if let defaultScheme { members.append(YAMLText.Entry("default", .string(defaultScheme))) }
        var schemeEntries: [YAMLText.Entry] = []
        for name in authorizationOrder {
            if case .authorization(let authName, let spec, _)? = schemes[name] {
                schemeEntries.append(YAMLText.Entry(authName, spec))
            }
            for variant in scopeVariants[name] ?? [] {
                schemeEntries.append(YAMLText.Entry(variant.name, variant.spec))
            }
        }
        members.append(YAMLText.Entry("schemes", .map(schemeEntries)))
        return YAMLText.Entry("auth", .map(members))
    }
}

extension Importer {
    func mapSecuritySchemes() -> SecurityMapping {
        var mapping = SecurityMapping()
        let definitions = isSwagger2 ? root["securityDefinitions"] : root["components"]?["securitySchemes"]
        let members = definitions?.members ?? []
        var takenAuthNames: Set<String> = ["none"]
        var takenVariables = Set<String>()
        // With one credential of a kind, its variable is PREFIX_TOKEN; with several, each is
        // PREFIX_SCHEME_TOKEN.
        let several = members.count > 1
        func variable(_ scheme: String, _ suffix: String) -> String {
            // `apiKey` + `key` is API_KEY, not API_KEY_KEY.
            let schemeWords = Naming.words(scheme).map { $0.lowercased() }
            let suffixWords = Naming.words(suffix).map { $0.lowercased() }
            let base: String
            if several, schemeWords.last == suffixWords.last {
                base = Naming.environmentName(environmentPrefix, scheme)
            } else {
                base =
                    several
                    ? Naming.environmentName(Naming.environmentName(environmentPrefix, scheme), suffix)
                    : Naming.environmentName(environmentPrefix, suffix)
            }
            return Naming.unique(base, in: &takenVariables)
        }
        for (name, original) in members {
            guard let scheme = resolved(original) else { continue }
            let type = scheme["type"]?.string ?? ""
            let httpScheme = scheme["scheme"]?.string?.lowercased()
            switch (type, httpScheme) {
            case ("oauth2", _) where clientCredentialsFlow(of: scheme, named: name) != nil:
                let flow = clientCredentialsFlow(of: scheme, named: name)!
                let clientId = variable(name, "client id")
                let clientSecret = variable(name, "client secret")
                let authName = Naming.unique(
                    Naming.valueName(Naming.lowerCamel(name, fallback: "oauth2")), in: &takenAuthNames)
                var members: [YAMLText.Entry] = [
                    YAMLText.Entry("type", .string("oauth2")), YAMLText.Entry("tokenURL", .string(flow.tokenURL)),
                    YAMLText.Entry("clientId", .string("${\(clientId)}")),
                    YAMLText.Entry("clientSecret", .string("${secret:\(clientSecret)}"))
                ]
                if !flow.scopes.isEmpty {
                    members.append(YAMLText.Entry("scopes", .list(flow.scopes.map { .string($0) })))
                }
                mapping.schemes[name] = .authorization(name: authName, spec: .map(members), header: nil)
                mapping.authorizationOrder.append(name)
                mapping.credentials.append(
                    (clientId, "OAuth 2.0 client id (security scheme '\(name)', client credentials)"))
                mapping.credentials.append((clientSecret, "OAuth 2.0 client secret (security scheme '\(name)')"))
            case ("http", "bearer"?), ("oauth2", _), ("openIdConnect", _):
                let token = variable(name, "token")
                let authName = Naming.unique(
                    Naming.valueName(Naming.lowerCamel(name, fallback: "bearer")), in: &takenAuthNames)
                mapping.schemes[name] = .authorization(
                    name: authName,
                    spec: .map([
                        YAMLText.Entry("type", .string("bearer")),
                        YAMLText.Entry("token", .string("${secret:\(token)}"))
                    ]), header: nil)
                mapping.authorizationOrder.append(name)
                if type == "http" {
                    mapping.credentials.append((token, "bearer token (security scheme '\(name)')"))
                } else {
                    mapping.credentials.append(
                        (token, "access token (security scheme '\(name)', \(type); obtain it yourself)"))
                    note(
                        scheme,
                        "security scheme '\(name)' (\(type)) is sent as a bearer token from ${\(token)}: moya-cli runs only the client credentials flow (with an https token URL)"
                    )
                }
            case ("http", "basic"?), ("basic", _):
                let user = variable(name, "username")
                let password = variable(name, "password")
                let authName = Naming.unique(
                    Naming.valueName(Naming.lowerCamel(name, fallback: "basic")), in: &takenAuthNames)
                mapping.schemes[name] = .authorization(
                    name: authName,
                    spec: .map([
                        YAMLText.Entry("type", .string("basic")), YAMLText.Entry("username", .string("${\(user)}")),
                        YAMLText.Entry("password", .string("${secret:\(password)}"))
                    ]), header: nil)
                mapping.authorizationOrder.append(name)
                mapping.credentials.append((user, "user name (security scheme '\(name)')"))
                mapping.credentials.append((password, "password (security scheme '\(name)')"))
            case ("apiKey", _):
                let location = scheme["in"]?.string ?? ""
                guard let keyName = scheme["name"]?.string, TargetFileValidator.isToken(keyName) else {
                    note(scheme, "security scheme '\(name)' (apiKey) has no usable 'name': not imported")
                    continue
                }
                let key = variable(name, several ? "key" : "api key")
                switch location {
                case "header", "query":
                    let authName = Naming.unique(
                        Naming.valueName(Naming.lowerCamel(name, fallback: "apiKey")), in: &takenAuthNames)
                    mapping.schemes[name] = .authorization(
                        name: authName,
                        spec: .map([
                            YAMLText.Entry("type", .string("apiKey")), YAMLText.Entry("in", .string(location)),
                            YAMLText.Entry("name", .string(keyName)), YAMLText.Entry("key", .string("${secret:\(key)}"))
                        ]), header: location == "header" ? (keyName, "${secret:\(key):-}") : nil)
                    mapping.authorizationOrder.append(name)
                    mapping.credentials.append(
                        (
                            key,
                            "API key, \(location == "header" ? "header" : "query parameter") \(keyName) (security scheme '\(name)')"
                        ))
                case "cookie":
                    mapping.schemes[name] = .cookie(name: keyName, value: "${secret:\(key):-}")
                    mapping.credentials.append((key, "API key, cookie \(keyName) (security scheme '\(name)')"))
                default:
                    note(
                        scheme,
                        "security scheme '\(name)' (apiKey in '\(location)') is not imported: an API key goes in a header, the query or a cookie"
                    )
                }
            default:
                note(
                    scheme,
                    "security scheme '\(name)' (\(type)\(httpScheme.map { " " + $0 } ?? "")) is not imported: moya-cli sends bearer, basic and API-key credentials"
                )
            }
        }
        if let requirement = root["security"].flatMap({ requirementSchemes($0, in: mapping) }) {
            mapping.defaultScheme = requirement.first { mapping.authorizationOrder.contains($0) }.flatMap { scheme in
                if case .authorization(let authName, _, _)? = mapping.schemes[scheme] { return authName }
                return nil
            }
        }
        mapping.takenAuthNames = takenAuthNames
        return mapping
    }

    /// The auth name for `scheme` (an OAuth 2.0 client credentials one, named `authName` with
    /// map `spec`) asked with `scopes` by an operation: the scheme's own when they are the same,
    /// else a copy with those scopes (`ccWrite`), made once per set of scopes.
    func authName(
        forScheme scheme: String, authName: String, spec: YAMLText, scopes: [String], at node: SpecNode,
        operation: Operation
    ) -> String {
        guard case .map(var members) = spec, members.first?.value.isOAuth2 == true else { return authName }
        let written =
            members.first { $0.key == "scopes" }.flatMap { entry -> [String]? in
                guard case .list(let items) = entry.value else { return nil }
                return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
            } ?? []
        guard scopes != written else { return authName }
        guard Self.areSendableScopes(scopes) else {
            note(
                node,
                "the operation's scopes for '\(scheme)' cannot be sent (a space, quote or control character): it gets the scheme's",
                case: operation.caseName, operation: operation.label)
            return authName
        }
        let key = scheme + "\u{0}" + scopes.joined(separator: " ")
        if let known = security.variantNames[key] { return known }
        let name = Naming.unique(
            Naming.valueName(Naming.lowerCamel(authName + " " + scopes.joined(separator: " "), fallback: authName)),
            in: &security.takenAuthNames)
        members.removeAll { $0.key == "scopes" }
        if !scopes.isEmpty { members.append(YAMLText.Entry("scopes", .list(scopes.map { .string($0) }))) }
        security.scopeVariants[scheme, default: []].append((name, .map(members)))
        security.variantNames[key] = name
        return name
    }

    /// Scopes a token request can carry: printable, no spaces or quotes.
    static func areSendableScopes(_ scopes: [String]) -> Bool {
        scopes.allSatisfy {
            !$0.isEmpty
                && $0.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        }
    }

    /// The client credentials flow of an `oauth2` scheme, when moya-cli can run it: an absolute
    /// https token URL (http only to this machine), and scopes moya-cli can send — the ones the
    /// document's `security` asks of this scheme, else none (the server's default).
    func clientCredentialsFlow(of scheme: SpecNode, named name: String) -> (tokenURL: String, scopes: [String])? {
        let flow: SpecNode?
        if isSwagger2 {
            flow = scheme["flow"]?.string == "application" ? scheme : nil
        } else {
            flow = scheme["flows"]?["clientCredentials"]
        }
        guard let flow, let tokenURL = flow["tokenUrl"]?.string else { return nil }
        // The loader's own rule (https, or http to a loopback host), so what is imported loads.
        guard TokenURLCheck.problem(in: tokenURL) == nil,
            BaseURLCheck.problem(in: tokenURL.split(separator: "?").first.map(String.init) ?? tokenURL) == nil,
            !tokenURL.contains(where: { $0 == "{" || $0 == "}" || $0 == "$" || $0 == "#" || $0 == "@" })
        else {
            return nil
        }
        var scopes: [String] = []
        for requirement in root["security"]?.elements ?? [] {
            if let asked = requirement[name]?.elements {
                scopes = asked.compactMap(\.string)
                break
            }
        }
        guard Self.areSendableScopes(scopes) else { return nil }
        return (tokenURL, scopes)
    }

    /// The schemes of the first requirement that can be met (all of its schemes imported), or
    /// `[]` when the first such requirement is anonymous (`{}`); `nil` when none can.
    func requirementSchemes(_ security: SpecNode, in mapping: SecurityMapping) -> [String]? {
        for requirement in security.elements ?? [] {
            let names = (requirement.members ?? []).map(\.key)
            if names.allSatisfy({ mapping.schemes[$0] != nil }) { return names }
        }
        return nil
    }
}

extension YAMLText {
    /// Whether this is the string `oauth2` (an auth map's `type`).
    fileprivate var isOAuth2: Bool {
        if case .string("oauth2") = self { true } else { false }
    }
}
