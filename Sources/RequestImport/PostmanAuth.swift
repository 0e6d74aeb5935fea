import OrderedJSON
import TargetModel

/// A Postman `auth` object as a target file's auth map: credentials always `${...}`
/// references, never the literal the collection may hold.
enum PostmanAuth {
    /// The auth map for `auth` (at `path`); `.none` for `noauth`; `nil` with a note for a type
    /// a target file has no scheme for.
    enum Mapped {
        case scheme(type: String, members: [YAMLText.Entry])
        case none
        case unsupported(String)
    }

    /// One parameter of the auth: v2.1 lists `{key, value}`, v2.0 holds an object.
    static func parameter(_ auth: JSONValue, _ type: String, _ key: String) -> String? {
        let holder = auth[type]
        if let list = holder?.arrayValue {
            return list.last { $0["key"]?.stringValue == key }?["value"]?.stringValue
        }
        return holder?[key]?.stringValue
    }

    /// The variables `auth` reads as credentials (`{{jwt}}` in a bearer token, `{{pw}}` in a
    /// basic password): every variable any of its parameters but the plainly public ones refers
    /// to. They are secrets whatever their names.
    static func credentialVariables(_ auth: JSONValue) -> Set<String> {
        guard let type = auth["type"]?.stringValue, let holder = auth[type] else { return [] }
        // Parameters that name or locate a credential rather than hold one.
        let publicKeys: Set<String> = [
            "username", "in", "key", "accessTokenUrl", "authUrl", "clientId", "scope", "grant_type",
            "client_authentication", "tokenName", "addTokenTo", "headerPrefix", "redirect_uri", "state", "algorithm"
        ]
        var pairs: [(key: String, value: String)] = []
        if let list = holder.arrayValue {
            for entry in list {
                if let key = entry["key"]?.stringValue, let value = entry["value"]?.stringValue {
                    pairs.append((key, value))
                }
            }
        } else if let members = holder.objectValue {
            for (key, value) in members { if let text = value.stringValue { pairs.append((key, text)) } }
        }
        var names = Set<String>()
        for pair in pairs where !publicKeys.contains(pair.key) {
            names.formUnion(PostmanTemplate.references(in: pair.value))
        }
        return names
    }

    static func map(
        _ auth: JSONValue, at path: String, variables: PostmanVariables, apiName: String,
        secrets: inout [(variable: String, why: String)], literals: inout [String]
    ) throws(RequestImportError) -> Mapped {
        guard let type = auth["type"]?.stringValue else {
            throw RequestImportError("not an auth type (at \(path).type)")
        }
        let prefix = "MOYA_" + PostmanVariables.identifier(apiName).uppercased() + "_"
        func credential(_ key: String, _ fallback: String) -> String {
            let text = parameter(auth, type, key) ?? ""
            if case .variable(let name)? = PostmanTemplate.pieces(text).first, PostmanTemplate.pieces(text).count == 1 {
                let variable = PostmanVariables.identifier(name)
                secrets.append((variable, "the \(type) auth's \(key)"))
                return "${secret:\(variable)}"
            }
            let variable = prefix + fallback
            if !text.isEmpty { literals.append(text) }
            secrets.append((variable, "the \(type) auth's \(key) (a literal in the collection, not written)"))
            return "${secret:\(variable)}"
        }
        func plain(_ key: String) -> String {
            PostmanTemplate(variables: variables).referencing(parameter(auth, type, key) ?? "")
        }
        switch type {
        case "noauth": return .none
        case "bearer":
            return .scheme(
                type: "bearer",
                members: [
                    YAMLText.Entry("type", .string("bearer")),
                    YAMLText.Entry("token", .string(credential("token", "TOKEN")))
                ])
        case "basic":
            return .scheme(
                type: "basic",
                members: [
                    YAMLText.Entry("type", .string("basic")), YAMLText.Entry("username", .string(plain("username"))),
                    YAMLText.Entry("password", .string(credential("password", "PASSWORD")))
                ])
        case "apikey":
            let name = parameter(auth, type, "key") ?? ""
            guard !name.isEmpty, name.utf8.allSatisfy(CurlRequestBuilder.isTokenByte) else {
                throw RequestImportError("the API key's name '\(name.prefix(100))' is not a header name (at \(path))")
            }
            return .scheme(
                type: "apiKey",
                members: [
                    YAMLText.Entry("type", .string("apiKey")),
                    YAMLText.Entry("in", .string(parameter(auth, type, "in") == "query" ? "query" : "header")),
                    YAMLText.Entry("name", .string(name)),
                    YAMLText.Entry("key", .string(credential("value", "API_KEY")))
                ])
        case "oauth2":
            // Postman's own default grant is authorization_code.
            let grant = parameter(auth, type, "grant_type") ?? "authorization_code"
            guard grant == "client_credentials" else {
                return .unsupported("the oauth2 grant '\(grant)' (only client_credentials maps)")
            }
            let tokenURL = parameter(auth, type, "accessTokenUrl") ?? ""
            if tokenURL.isEmpty { return .unsupported("the oauth2 auth without an access token URL") }
            if PostmanTemplate.references(in: tokenURL).isEmpty {
                do throws(RequestImportError) {
                    guard tokenURL.contains("://") else { throw RequestImportError("") }
                    _ = try RequestURL(tokenURL)
                } catch {
                    throw RequestImportError(
                        "the oauth2 access token URL '\(tokenURL.prefix(200))' is not an http(s) URL (at \(path).oauth2)"
                    )
                }
            } else if tokenURL.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
                throw RequestImportError(
                    "the oauth2 access token URL holds spaces or control characters (at \(path).oauth2)")
            }
            let scopeText = parameter(auth, type, "scope") ?? ""
            guard
                scopeText.unicodeScalars.allSatisfy({
                    $0 == " " || ($0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\")
                })
            else {
                throw RequestImportError(
                    "the oauth2 scope '\(scopeText.prefix(200))' is not printable ASCII without '\"' or '\\' (at \(path).oauth2)"
                )
            }
            var members = [
                YAMLText.Entry("type", .string("oauth2")),
                YAMLText.Entry("tokenURL", .string(plain("accessTokenUrl"))),
                YAMLText.Entry("clientId", .string(plain("clientId"))),
                YAMLText.Entry("clientSecret", .string(credential("clientSecret", "CLIENT_SECRET")))
            ]
            let scopes = scopeText.split(separator: " ").map {
                YAMLText.string(String($0))
            }
            if !scopes.isEmpty { members.append(YAMLText.Entry("scopes", .list(scopes))) }
            if parameter(auth, type, "client_authentication") == "body" {
                members.append(YAMLText.Entry("clientAuth", .string("body")))
            }
            return .scheme(type: "oauth2", members: members)
        default:
            return .unsupported("the \(type) auth")
        }
    }
}
