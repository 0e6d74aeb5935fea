import MoyaKit
import TextSafety

/// The path of an ad-hoc request, checked and percent-encoded, and the URL of `request METHOD URL`
/// split into its origin and path.
package enum AdHocPath {
    /// A PATH given with an API: made to start with `/`, its query (after `?`) split into pairs,
    /// a fragment (after `#`) dropped (it is never sent), the rest percent-encoded where a path
    /// cannot hold a character.
    ///
    /// - Throws: when the path would leave the API's origin: it starts with `//` or `\`, or
    ///   names a scheme (`http://...`).
    package static func split(apiPath text: String, apiName: String) throws(AdHocRequestError) -> (
        path: String, query: [AdHocRequest.Pair]
    ) {
        if text.hasPrefix("//") || text.hasPrefix("\\") || text.hasPrefix("/\\") || schemeLength(of: text) != nil {
            throw AdHocRequestError(
                "PATH '\(displayed(text))' would leave API '\(apiName)''s origin; give a path on it (/users/1), "
                    + "or a full URL without the API: moya-cli request METHOD URL")
        }
        return split(pathAndQuery: text)
    }

    /// `request METHOD URL`'s URL: its origin (`scheme://authority`) and its path and query.
    ///
    /// - Throws: when the URL is not an absolute http or https URL with a host.
    package static func split(url text: String) throws(AdHocRequestError) -> (
        origin: String, path: String, query: [AdHocRequest.Pair]
    ) {
        guard let length = schemeLength(of: text) else {
            throw AdHocRequestError("URL '\(displayed(text))' is not an absolute http or https URL (http://host/path)")
        }
        let scheme = text.prefix(length - 3).lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw AdHocRequestError("URL '\(displayed(text))' has scheme '\(scheme)'; only http and https are allowed")
        }
        let rest = text.dropFirst(length)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != "\\" }
        guard !authority.isEmpty, !authority.hasPrefix("@"), !authority.hasPrefix(":") else {
            throw AdHocRequestError("URL '\(displayed(text))' has no host")
        }
        let (path, query) = split(pathAndQuery: String(rest.dropFirst(authority.count)))
        return (scheme + "://" + authority, path, query)
    }

    /// Whether `text` starts with `scheme://`: a URL rather than a path or an API name.
    package static func isURL(_ text: String) -> Bool {
        schemeLength(of: text) != nil
    }

    /// The length of `scheme://` when `text` starts with one.
    static func schemeLength(of text: String) -> Int? {
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first),
            let colon = text.firstIndex(of: ":")
        else { return nil }
        let scheme = text[..<colon]
        guard
            scheme.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "+-.".unicodeScalars.contains($0)
            }),
            text[colon...].hasPrefix("://")
        else { return nil }
        return scheme.count + 3
    }

    private static func split(pathAndQuery text: String) -> (path: String, query: [AdHocRequest.Pair]) {
        let withoutFragment = text.prefix { $0 != "#" }
        let pathPart = withoutFragment.prefix { $0 != "?" }
        var query: [AdHocRequest.Pair] = []
        if pathPart.count < withoutFragment.count {
            for pair in withoutFragment.dropFirst(pathPart.count + 1).split(separator: "&") {
                let name = pair.prefix { $0 != "=" }
                let value = pair.count > name.count ? pair.dropFirst(name.count + 1) : ""
                query.append(AdHocRequest.Pair(name: decodedQueryText(name), value: decodedQueryText(value)))
            }
        }
        let path = pathPart.hasPrefix("/") ? String(pathPart) : "/" + pathPart
        return (encoded(path), query)
    }

    /// A query name or value as written in a URL, decoded (`+` is a space), so that it is encoded
    /// once when sent; as written when it is not valid percent-encoding.
    private static func decodedQueryText(_ text: Substring) -> String {
        let spaced = String(text.map { $0 == "+" ? " " : $0 })
        return PercentEncoding.decoded(spaced) ?? spaced
    }

    /// `path` with what a path cannot hold percent-encoded; valid `%XX` escapes and the path
    /// delimiters (RFC 3986 pchar and `/`) kept.
    package static func encoded(_ path: String) -> String {
        let bytes = Array(path.utf8)
        var output = ""
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHexDigit(bytes[index + 1]),
                isHexDigit(bytes[index + 2])
            {
                output += String(decoding: bytes[index...index + 2], as: UTF8.self)
                index += 3
                continue
            }
            if isPathCharacter(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true)
                    + String(byte & 0x0F, radix: 16, uppercase: true)
            }
            index += 1
        }
        return output
    }

    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-._~!$&'()*+,;=:@/".utf8.contains(byte)
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }

    /// `text` for a message: control characters escaped, and cut short when long.
    package static func displayed(_ text: String) -> String {
        DisplayText.escapedAndCut(text)
    }
}
