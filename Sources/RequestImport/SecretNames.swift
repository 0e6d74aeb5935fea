import TextSafety

/// Names of headers and query parameters that carry credentials, beyond the headers every
/// request treats as secret (`SensitiveHeaders`): an imported request is someone's real one,
/// so a name that looks like a credential's is written as a `${secret:VAR}` reference.
package enum SecretNames {
    /// Parts of a name (lower-cased, letters and digits only) that mark a credential:
    /// `X-Goog-Api-Key`, `access_token`, `X-Session-Id`, `client_secret`, `X-XSRF-TOKEN`, ….
    /// `auth` is one too, but not inside `author` (`hasAuthMarker`).
    static let markers = [
        "token", "secret", "apikey", "password", "passwd", "session", "credential", "cookie", "csrf",
        "xsrf", "privatekey", "accesskey", "signature"
    ]

    /// Whether `name` looks like a credential's.
    package static func looksSecret(_ name: String) -> Bool {
        let folded: String
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            // Bytes, as most names are ASCII; lowering other letters may give ASCII ones (the
            // Kelvin sign is `k`), so they take the long way.
            folded = String(
                decoding: name.utf8.compactMap { byte -> UInt8? in
                    switch byte {
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
                    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): byte
                    default: nil
                    }
                }, as: UTF8.self)
        } else {
            folded = String(
                name.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }.map(
                    Character.init))
        }
        return markers.contains { TextSearch.contains(folded, $0) } || hasAuthMarker(folded) || folded == "key"
            || folded.hasSuffix("apikey")
    }

    /// Whether `folded` has `auth` (`X-Auth`, `auth_code`, `authorization`) other than as the
    /// start of `author` or `authority`: a book's `author` parameter is not a credential.
    static func hasAuthMarker(_ folded: String) -> Bool {
        let bytes = Array(folded.utf8)
        let auth = Array("auth".utf8)
        var start = 0
        while start + auth.count <= bytes.count {
            defer { start += 1 }
            guard bytes[start..<start + auth.count].elementsEqual(auth) else { continue }
            let after = bytes[(start + auth.count)...]
            let isAuthor = after.starts(with: "or".utf8)
            if !isAuthor || after.starts(with: "oriz".utf8) || after.starts(with: "oris".utf8) { return true }
        }
        return false
    }
}
