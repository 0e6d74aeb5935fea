/// Credentials given on the command line for one call (`-u`, `--bearer`): they replace whatever
/// the file's `auth` says for the case, API keys included, so nothing of the file's is sent and
/// none of its variables or token sources is needed.
package enum CommandLineCredential: Sendable, Hashable {
    /// `Authorization: Basic` with `user:password`.
    case basic(user: String, password: String)
    /// `Authorization: Bearer` with the token.
    case bearer(String)
    /// `user:password` in answer to a `Digest` challenge (`--digest`).
    case digest(user: String, password: String)

    /// What a redactor must hide: the password or token as typed, and what is sent in their
    /// place (the encoded pair). The user name is shown, as for the file's basic auth.
    var secretValues: [String] {
        switch self {
        case .basic(_, let password), .digest(_, let password): password.isEmpty ? [] : [password]
        case .bearer(let token): [token]
        }
    }
}
