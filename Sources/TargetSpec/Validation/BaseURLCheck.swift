#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The rules a base URL follows: absolute, `http` or `https`, a host, no query, no fragment.
///
/// The loader checks literal base URLs; one built from `${VAR}` is checked once rendered.
public enum BaseURLCheck {
    /// What is wrong with `text` as a base URL, or `nil` when it is fine.
    public static func problem(in text: String) -> String? {
        guard let separator = text.firstRange(of: "://") else {
            return "baseURL '\(text)' is not an absolute URL; write it with its scheme, like https://\(text)"
        }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            return "baseURL '\(text)' uses '\(scheme)'; only http and https are allowed"
        }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return "baseURL '\(text)' contains a space or a control character"
        }
        let rest = text[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@").last.map { $0.split(separator: ":").first ?? "" } ?? ""
        if host.isEmpty {
            return "baseURL '\(text)' has no host"
        }
        if text.contains("?") {
            return "baseURL '\(text)' has a query; put query parameters in a case's task"
        }
        if text.contains("#") {
            return "baseURL '\(text)' has a fragment ('#...'); remove it"
        }
        if URL(string: text) == nil {
            return "baseURL '\(text)' is not a valid URL"
        }
        return nil
    }

    /// Checks a base URL template as far as it can be checked before `${VAR}`s are known: a
    /// template starting with a literal scheme is checked with each reference standing for `x`.
    static func problem(in template: Template) -> String? {
        if let text = template.literalText { return problem(in: text) }
        guard case .literal(let prefix)? = template.segments.first, prefix.contains("://") else { return nil }
        let stand = template.segments.map { segment -> String in
            switch segment {
            case .literal(let text): text
            case .placeholder, .environment: "x"
            }
        }.joined()
        return problem(in: stand).map { _ in
            "baseURL '\(template.source)' is not an absolute http or https URL without query or fragment"
        }
    }
}
