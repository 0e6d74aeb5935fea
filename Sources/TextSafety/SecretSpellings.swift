/// The ways a secret can appear in text: as written, percent-encoded (query, path, form), and
/// inside a JSON string as common encoders escape it. The one list every redactor uses.
package enum SecretSpellings {
    package static func of(_ secret: String) -> Set<String> {
        var forms: Set<String> = [secret]
        let strict = percentEncoded(secret, keeping: PercentEncoding.isUnreserved)
        let minimal = percentEncoded(secret) { PercentEncoding.isUnreserved($0) || Self.queryAllowed.contains($0) }
        for encoded in [
            PercentEncoding.escapeQueryComponent(secret), PercentEncoding.escapePathSegment(secret), strict, minimal,
            strict.replacing("%20", with: "+"), minimal.replacing("%20", with: "+")
        ] {
            forms.insert(encoded)
            forms.insert(lowercasingPercentEscapes(encoded))
        }
        let scalars = Array(secret.unicodeScalars)
        let hasSlash = scalars.contains("/")
        let hasNonASCII = scalars.contains { !$0.isASCII }
        let hasHTML = scalars.contains { $0 == "<" || $0 == ">" || $0 == "&" }
        for escapesSlash in hasSlash ? [false, true] : [false] {
            for nonASCII in hasNonASCII ? [JSONStringEscaping.NonASCII.raw, .lowercaseHex, .uppercaseHex] : [.raw] {
                for escapesHTML in hasHTML ? [false, true] : [false] {
                    forms.insert(
                        JSONStringEscaping.escaped(
                            scalars, escapesSlash: escapesSlash, nonASCII: nonASCII, escapesHTML: escapesHTML))
                }
            }
        }
        return forms
    }

    /// What a query may hold unescaped besides unreserved bytes (Foundation's `urlQueryAllowed`).
    private static let queryAllowed = Set("!$&'()*+,;=:@/?".utf8)

    /// `text` with every byte `isKept` refuses as `%XX`: with only the unreserved bytes kept, what
    /// form encoders and `encodeURIComponent` write; with the query's set, what a URL library does.
    static func percentEncoded(_ text: String, keeping isKept: (UInt8) -> Bool) -> String {
        var output = ""
        for byte in text.utf8 {
            if isKept(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = String(byte, radix: 16, uppercase: true)
                output += "%" + (digits.count == 1 ? "0" : "") + digits
            }
        }
        return output
    }

    /// `%2F` as `%2f`: both are the same byte to a server.
    static func lowercasingPercentEscapes(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                for offset in 1...2 where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(bytes[index + offset]) {
                    bytes[index + offset] += 0x20
                }
                index += 3
            } else {
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
