/// The one table of names that carry credentials — headers, query parameters, form and JSON
/// fields, Postman variables, response members — for every file moya-cli writes into a target
/// folder: a value under such a name is written as a `${secret:VAR}` reference or left out,
/// never in clear.
///
/// A name is split into words (at anything but a letter or digit, and where a lower-case letter
/// meets an upper-case one) and matched as whole words, never as a piece of one: a name that
/// ends in a credential (`key`, `api_key`, `X-API-Key`, `X-Session-Id`) or in a word ending with a
/// known credential suffix (`accesstoken`, `PHPSESSID`) is one, and so is a name holding a word
/// that marks one anywhere (`X-Auth-User`, `Authorization-Code`) unless it ends in a word naming something
/// else about it (`token_type`, `authorization_id`, `key_id`). `keyword`, `monkey`, `author`,
/// `authority` and `return_authn_schemes` are not credentials.
package enum CredentialNames {
    /// The lower-cased header names that carry a secret in every request (what a transport keeps
    /// from another origin, and a log hides).
    package static let sensitiveHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
        "x-auth-token", "x-access-token", "x-csrf-token"
    ]

    /// Words a name ends in when it names a credential (`api_key`, `X-Shop-Key`, `client_secret`);
    /// also matched as the last two words run together (`X-Session-Id` is `sessionid`).
    static let finalWords: Set<String> = [
        "key", "token", "secret", "password", "passwd", "pwd", "passphrase", "auth", "oauth", "authorization",
        "authentication", "jwt", "cookie", "session", "sessionid", "signature", "credential", "credentials", "csrf",
        "xsrf", "apikey", "accesskey", "privatekey", "secretkey"
    ]
    /// Endings of a word written without separators that name a credential (`accesstoken`,
    /// `X-CSRFToken`, `PHPSESSID`); not `key` alone, which ends `monkey` and `hockey`.
    static let foldedSuffixes = [
        "token", "secret", "password", "passwd", "apikey", "authkey", "accesskey", "privatekey", "secretkey",
        "sessionid", "sessid"
    ]
    /// Words that mark a credential wherever they stand in a name: `X-Auth-User`, `oauthCode`.
    static let markingWords: Set<String> = [
        "auth", "oauth", "authorization", "authentication", "jwt", "pwd", "passwd", "password", "passphrase", "secret",
        "credential", "credentials", "cookie", "csrf", "xsrf", "token"
    ]
    /// Last words that make a name about a credential, not the credential: its id, type, expiry,
    /// where it is sent (`token_type`, `expires_in`, `authorization_id`, `token_url`).
    static let describingWords: Set<String> = [
        "id", "ids", "type", "types", "kind", "url", "uri", "endpoint", "expires", "expiry", "expiration", "at",
        "in", "name", "names", "method", "methods", "scheme", "schemes", "length", "count", "hint", "policy",
        "version", "format", "required", "enabled", "header", "location"
    ]

    /// Whether `name` looks like a credential's.
    package static func looksSecret(_ name: String) -> Bool {
        let words = Self.wordsOf(name)
        guard let last = words.last else { return false }
        if finalWords.contains(last) || finalWords.contains(words.suffix(2).joined())
            || foldedSuffixes.contains(where: { last.hasSuffix($0) })
        {
            return true
        }
        if describingWords.contains(last) { return false }
        return words.contains { markingWords.contains($0) }
    }

    /// `name`'s words, lower-cased: split at anything but an ASCII letter or digit, and where a
    /// lower-case letter or digit is followed by an upper-case letter (`apiKey` is `api`, `key`).
    static func wordsOf(_ name: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        var previousIsLower = false
        func finish() {
            if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
            current = []
        }
        // Lowering a non-ASCII letter may give an ASCII one (the Kelvin sign is `k`): lower first.
        let lowered = name.utf8.allSatisfy { $0 < 0x80 } ? nil : name.lowercased()
        for byte in (lowered ?? name).utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                if previousIsLower { finish() }
                current.append(byte + 32)
                previousIsLower = false
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                current.append(byte)
                previousIsLower = true
            default:
                finish()
                previousIsLower = false
            }
        }
        finish()
        return words
    }
}
