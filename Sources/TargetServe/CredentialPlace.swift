import TargetModel

/// Where a request carries a case's credential: the Authorization header, or an API key's header
/// or query parameter. Only its presence is looked at: the server accepts any credential.
enum CredentialPlace: Sendable, Hashable {
    case authorization
    case header(String)
    case query(String)

    /// The place of `auth`'s credential; `nil` without auth.
    init?(_ auth: AuthSpec?) {
        switch auth {
        case nil: return nil
        case .apiKey(.header, let name, _)?: self = .header(name)
        case .apiKey(.query, let name, _)?: self = .query(name)
        default: self = .authorization
        }
    }

    /// Whether `request` carries a credential there.
    func isCarried(by request: ServeRequest) -> Bool {
        switch self {
        case .authorization: request.header("authorization") != nil
        case .header(let name): request.header(name) != nil
        case .query(let name): request.queryItems.contains { $0.name == name }
        }
    }
}
