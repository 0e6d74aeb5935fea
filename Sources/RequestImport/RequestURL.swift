/// An absolute http(s) URL split as a case needs it: the origin (the API's base URL), the path
/// and the query, as written (curl sends them so).
package struct RequestURL: Sendable, Equatable {
    /// `scheme://host[:port]`, the scheme and host lower-cased.
    package var origin: String
    /// The path as written, `/` when there is none.
    package var path: String
    /// The query after `?`, without it; `nil` when there is no `?`.
    package var query: String?
    /// `user:password` written before the host, if any.
    package var userInfo: String?

    /// Reads `text` as curl does: `http://` is assumed without a scheme; the fragment is dropped.
    /// - Throws: a message (without a place) for what is not an http(s) URL a case can hold.
    package init(_ text: String) throws(RequestImportError) {
        guard !text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw RequestImportError(
                "the URL '\(text.prefix(200))' holds spaces or control characters (CR, LF, NUL, …); write them percent-encoded"
            )
        }
        var rest = Substring(text)
        var scheme = "http"
        if let separator = rest.firstRange(of: "://") {
            scheme = rest[..<separator.lowerBound].lowercased()
            rest = rest[separator.upperBound...]
        }
        guard scheme == "http" || scheme == "https" else {
            throw RequestImportError("the URL '\(text.prefix(200))' is not http or https; a case sends HTTP requests")
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        rest = rest[authorityEnd...]
        if let at = authority.lastIndex(of: "@") {
            userInfo = String(authority[..<at])
            authority = authority[authority.index(after: at)...]
        }
        guard !authority.isEmpty, Self.isAuthority(authority) else {
            throw RequestImportError("the URL '\(text.prefix(200))' has no host, or a host that is not one")
        }
        origin = scheme + "://" + authority.lowercased()
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        path = rest.isEmpty ? "/" : String(rest)
    }

    /// A host (name, IPv4 or bracketed IPv6) and an optional port.
    private static func isAuthority(_ text: Substring) -> Bool {
        var host = text
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return false }
            host = text[...close]
            let after = text[text.index(after: close)...]
            guard after.isEmpty || (after.hasPrefix(":") && after.dropFirst().allSatisfy(\.isASCIIDigit)) else {
                return false
            }
            return host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            guard text[text.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return false }
        }
        return !host.isEmpty
            && host.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "." || $0 == "_"
            }
    }

    /// The path with `.` and `..` segments removed, as curl sends it unless `--path-as-is`.
    package var pathWithoutDotSegments: String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard segments.contains(where: { $0 == "." || $0 == ".." }) else { return path }
        var kept: [Substring] = []
        for (offset, segment) in segments.enumerated() {
            let isLast = offset == segments.count - 1
            switch segment {
            case ".":
                if isLast { kept.append("") }
            case "..":
                if !kept.isEmpty { kept.removeLast() }
                if isLast { kept.append("") }
            default: kept.append(segment)
            }
        }
        return "/" + kept.joined(separator: "/")
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
