#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The rules an OAuth 2.0 token endpoint follows: the client secret is sent there, so it must be
/// `https` (RFC 6749 §3.2), or `http` only to this machine (a loopback address or `localhost`),
/// where nothing travels over a network. No user name or password in it, no fragment.
///
/// The loader checks a literal `tokenURL`; one built from `${VAR}` is checked once rendered,
/// before anything is sent.
public enum TokenURLCheck {
    /// What is wrong with `text` as a token URL, or `nil` when it is fine.
    public static func problem(in text: String) -> String? {
        guard let separator = text.firstRange(of: "://") else {
            return "tokenURL '\(text)' is not an absolute URL; write it with its scheme, like https://\(text)"
        }
        let scheme = text[..<separator.lowerBound].lowercased()
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return "tokenURL '\(text)' contains a space or a control character"
        }
        let authority = text[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if authority.contains("@") {
            return
                "tokenURL '\(text)' holds a user name or password; the client's credentials go in clientId and clientSecret"
        }
        if text.contains("#") {
            return "tokenURL '\(text)' has a fragment ('#...'); remove it"
        }
        guard let url = URL(string: text), let host = url.host, !host.isEmpty else {
            return "tokenURL '\(text)' is not a valid URL with a host"
        }
        switch scheme {
        case "https":
            return nil
        case "http":
            guard isLoopback(host) else {
                return
                    "tokenURL '\(text)' uses http to another machine; the client secret would travel unencrypted, use https "
                    + "(http is allowed only to localhost, 127.0.0.0/8 and ::1)"
            }
            return nil
        default:
            return "tokenURL '\(text)' uses '\(scheme)'; use https (or http to localhost)"
        }
    }

    /// Whether `host` names this machine: `localhost`, `127.x.x.x` or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { part in UInt8(part) != nil }
    }
}
