/// The one table of names that carry credentials — headers, query parameters, form and JSON
/// fields, Postman variables, response members — for every file moya-cli writes into a target
/// folder: a value under such a name is written as a `${secret:VAR}` reference or left out,
/// never in clear.
///
/// A name is split into words (at anything but a letter or digit, and where a lower-case letter
/// meets an upper-case one) and matched word by word, so `key`, `api_key` and `X-API-Key` are
/// secrets while `keyword`, `monkey` and `author` are not.
package enum CredentialNames {
    /// The lower-cased header names that carry a secret in every request (what a transport keeps
    /// from another origin, and a log hides).
    package static let sensitiveHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
        "x-auth-token", "x-access-token", "x-csrf-token"
    ]

    /// Words that mark a credential wherever they stand in a name: `X-Auth-User`, `jwt`, `pwd`.
    static let words: Set<String> = [
        "auth", "oauth", "authorization", "authentication", "jwt", "pwd", "passphrase", "sessionid"
    ]
    /// Markers found inside a folded name (lower-cased, letters and digits only), for names
    /// written without separators: `apiKey` folds to `apikey`, `X-Goog-Api-Key` to `xgoogapikey`.
    static let markers = [
        "token", "secret", "apikey", "password", "passwd", "session", "credential", "cookie", "csrf", "xsrf",
        "privatekey", "accesskey", "signature"
    ]

    /// Whether `name` looks like a credential's.
    package static func looksSecret(_ name: String) -> Bool {
        let words = Self.wordsOf(name)
        // `key` as the last word (`key`, `api_key`, `X-Shop-Key`), not inside one (`monkey`,
        // `keyword`) nor before another (`key_id`); `auth…` but not `author…`.
        if words.last == "key" { return true }
        if words.contains(where: { Self.words.contains($0) || ($0.hasPrefix("auth") && !$0.hasPrefix("author")) }) {
            return true
        }
        let folded = words.joined()
        return markers.contains { TextSearch.contains(folded, $0) }
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
