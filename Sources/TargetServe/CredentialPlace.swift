import TargetModel

/// Where a request carries a case's credential: the Authorization header with its scheme, or an
/// API key's header or query parameter. Only its presence is looked at: the server accepts any
/// credential of the right kind (it knows no real token).
enum CredentialPlace: Sendable, Hashable {
    /// `Authorization: SCHEME ...` (`Bearer`, `Basic`, `Digest`, a custom scheme).
    case authorization(scheme: String)
    case header(String)
    case query(String)

    /// The place of `auth`'s credential; `nil` without auth.
    init?(_ auth: AuthSpec?) {
        switch auth {
        case nil: return nil
        case .apiKey(.header, let name, _)?: self = .header(name)
        case .apiKey(.query, let name, _)?: self = .query(name)
        case .basic?: self = .authorization(scheme: "Basic")
        case .digest?: self = .authorization(scheme: "Digest")
        case .custom(let scheme, _)?: self = .authorization(scheme: scheme)
        case .bearer?, .oauth2?, .command?: self = .authorization(scheme: "Bearer")
        case .awsSigV4?: self = .authorization(scheme: "AWS4-HMAC-SHA256")
        }
    }

    /// Whether `request` carries a credential there: for the Authorization header, one of the
    /// scheme (compared without case, RFC 9110 11.1) with something after it.
    func isCarried(by request: ServeRequest) -> Bool {
        switch self {
        case .authorization(let scheme):
            guard let value = request.header("authorization") else { return false }
            let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            return parts.count == 2 && parts[0].lowercased() == scheme.lowercased()
        case .header(let name): return request.header(name) != nil
        case .query(let name): return request.queryItems.contains { $0.name == name }
        }
    }

    /// What a 401 says the case needs.
    var description: String {
        switch self {
        case .authorization(let scheme): "a \(scheme) credential in the Authorization header"
        case .header(let name): "an API key in the \(name) header"
        case .query(let name): "an API key in the query parameter \(name)"
        }
    }

    /// The `WWW-Authenticate` challenge naming the scheme (RFC 9110 11.6.1); an API key, which
    /// HTTP has no scheme for, as `ApiKey` with where it goes. `realm` is the API's name.
    func challenge(realm: String) -> String {
        let realm = "realm=\"\(Self.quoted(realm))\""
        switch self {
        case .authorization(let scheme) where scheme == "Digest":
            // A digest client answers a challenge only: it needs a nonce to answer (any answer is
            // accepted).
            return "Digest \(realm), nonce=\"moya-cli-serve\", qop=\"auth\", algorithm=MD5"
        case .authorization(let scheme): return "\(scheme) \(realm)"
        case .header(let name): return "ApiKey \(realm), header=\"\(Self.quoted(name))\""
        case .query(let name): return "ApiKey \(realm), query=\"\(Self.quoted(name))\""
        }
    }

    /// `text` as the inside of a quoted string: printable ASCII, quotes and backslashes escaped.
    private static func quoted(_ text: String) -> String {
        var quoted = ""
        for scalar in text.unicodeScalars {
            guard scalar.value >= 0x20, scalar.value < 0x7F else { continue }
            if scalar == "\"" || scalar == "\\" { quoted.append("\\") }
            quoted.unicodeScalars.append(scalar)
        }
        return quoted
    }
}
