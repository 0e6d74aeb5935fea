/// One cookie of a `CookieStore`, as libcurl lists it (a Netscape cookie-file line).
public struct Cookie: Sendable, Hashable {
    /// The host or domain it is sent to, without a leading dot.
    public var domain: String
    /// Whether it is sent to subdomains of `domain` too (a `Domain` attribute); `false`: to that
    /// host only.
    public var includesSubdomains: Bool
    /// The path it is sent under.
    public var path: String
    /// Whether it is sent over HTTPS only.
    public var isSecure: Bool
    /// When it expires, in seconds since 1970; `0`: at the end of the session.
    public var expires: Int64
    /// Whether the server marked it `HttpOnly` (a browser's concern, kept as written).
    public var isHTTPOnly: Bool
    public var name: String
    public var value: String

    /// Reads a Netscape cookie-file line: domain, subdomains flag, path, secure flag, expiry,
    /// name, value, separated by tabs; `#HttpOnly_` before the domain marks an `HttpOnly` one.
    /// `nil` for any other line, and for one holding a control character (but the tabs).
    public init?(netscapeLine line: String) {
        var text = Substring(line)
        isHTTPOnly = text.hasPrefix("#HttpOnly_")
        if isHTTPOnly { text = text.dropFirst("#HttpOnly_".count) }
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 7, !fields[0].isEmpty, !text.hasPrefix("#"),
            let expires = Int64(fields[4]), !fields[5].isEmpty,
            !line.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F })
        else { return nil }
        domain = fields[0].hasPrefix(".") ? String(fields[0].dropFirst()) : String(fields[0])
        includesSubdomains = fields[1].uppercased() == "TRUE"
        path = String(fields[2])
        isSecure = fields[3].uppercased() == "TRUE"
        self.expires = expires
        name = String(fields[5])
        value = String(fields[6])
    }

    /// Whether it has expired at `now` (seconds since 1970); a session cookie never has.
    public func hasExpired(at now: Int64) -> Bool {
        expires != 0 && expires <= now
    }

    /// The cookie as a Netscape cookie-file line, as `init(netscapeLine:)` reads it.
    public var netscapeLine: String {
        let domainField = (includesSubdomains ? "." : "") + domain
        return [
            (isHTTPOnly ? "#HttpOnly_" : "") + domainField, includesSubdomains ? "TRUE" : "FALSE", path,
            isSecure ? "TRUE" : "FALSE", String(expires), name, value
        ].joined(separator: "\t")
    }
}
