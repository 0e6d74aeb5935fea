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
        // Searched in the UTF-8 bytes, and Unicode's properties read only for non-ASCII text: the
        // generic string search and the property tables are code `validate` and `list` otherwise
        // never run, and a command's memory counts every 64 KiB of code it touches.
        guard let separator = text.utf8Range(of: "://") else {
            return "baseURL '\(text)' is not an absolute URL; write it with its scheme, like https://\(text)"
        }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            return "baseURL '\(text)' uses '\(scheme)'; only http and https are allowed"
        }
        let hasSpaceOrControl =
            text.utf8.allSatisfy({ $0 < 0x80 })
            ? text.utf8.contains { $0 <= 0x20 || $0 == 0x7F }
            : text.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }
        if hasSpaceOrControl {
            return "baseURL '\(text)' contains a space or a control character"
        }
        let rest = text[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // Empty pieces kept: in `http://:8080` the host is the empty text before the colon.
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let host = hostAndPort.split(separator: ":", omittingEmptySubsequences: false).first ?? ""
        if host.isEmpty {
            return "baseURL '\(text)' has no host"
        }
        if text.utf8.contains(UInt8(ascii: "?")) {
            return "baseURL '\(text)' has a query; put query parameters in a case's task"
        }
        if text.utf8.contains(UInt8(ascii: "#")) {
            return "baseURL '\(text)' has a fragment ('#...'); remove it"
        }
        if URL(string: text) == nil {
            return "baseURL '\(text)' is not a valid URL"
        }
        return nil
    }

    /// Checks a base URL template as far as it can be checked before `${VAR}`s are known.
    ///
    /// A template that starts with a literal scheme is checked with each reference standing for a
    /// dummy value; it passes when one of the dummies makes a valid URL. `x` fits a host or a
    /// path segment, `0` a port (`http://127.0.0.1:${PORT}`), so a reference anywhere a plausible
    /// value could go is accepted, while the literal parts still must not add a query, a fragment,
    /// a space or another scheme. A template that does not start with a literal scheme
    /// (`${BASE_URL}`) is checked once rendered.
    static func problem(in template: Template) -> String? {
        if let text = template.literalText { return problem(in: text) }
        guard case .literal(let prefix)? = template.segments.first, prefix.utf8Range(of: "://") != nil else {
            return nil
        }
        let problems = ["x", "0"].map { dummy in problem(in: template.replacingReferences(with: dummy)) }
        guard let first = problems.first, let problem = first, !problems.contains(where: { $0 == nil }) else {
            return nil
        }
        // Name the template as written, not the stand-in text, in the message.
        let standInName = "baseURL '\(template.replacingReferences(with: "x"))'"
        guard problem.hasPrefix(standInName) else { return problem }
        return "baseURL '\(template.source)'" + problem.dropFirst(standInName.count)
    }
}

extension String {
    /// The first place `pattern` (ASCII) is found, compared byte for byte.
    fileprivate func utf8Range(of pattern: StaticString) -> Range<String.Index>? {
        let needle = UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount)
        let bytes = utf8
        var start = bytes.startIndex
        while start != bytes.endIndex {
            var position = start
            var matched = 0
            while matched < needle.count, position != bytes.endIndex, bytes[position] == needle[matched] {
                matched += 1
                position = bytes.index(after: position)
            }
            if matched == needle.count { return start..<position }
            start = bytes.index(after: start)
        }
        return nil
    }
}

extension Template {
    /// The text with every placeholder and `${VAR}` reference replaced by `dummy`.
    fileprivate func replacingReferences(with dummy: String) -> String {
        // A loop, as `Template.representativeText`: `[String].joined()`'s conformance lookup at its
        // first use costs every load ~230,000 instructions.
        var text = ""
        for segment in segments {
            switch segment {
            case .literal(let literal): text += literal
            case .placeholder, .environment: text += dummy
            }
        }
        return text
    }
}
