import MoyaKit
import TargetModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// URL arithmetic paging needs: resolving a next link, comparing origins, and setting the cursor
/// parameter in a query.
package enum PageURL {
    /// `reference` (absolute, or relative to `requestURL`, as RFC 8288 links may be) as an
    /// absolute http(s) URL without a fragment; `nil` when it cannot be one.
    package static func resolve(_ reference: String, against requestURL: String) -> String? {
        guard !reference.isEmpty, !reference.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }),
            let base = URL(string: requestURL), let resolved = URL(string: reference, relativeTo: base)?.absoluteURL,
            let scheme = resolved.scheme?.lowercased(), scheme == "http" || scheme == "https",
            resolved.host?.isEmpty == false
        else { return nil }
        var text = resolved.absoluteString
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        return text
    }

    /// Whether `url` has the origin of `base`: the only place a server may send paging (and with
    /// it the request's credentials).
    package static func isSameOrigin(_ url: String, as base: String) -> Bool {
        guard let origin = URLOrigin.origin(of: url) else { return false }
        return origin == URLOrigin.origin(of: base)
    }

    /// `url` with the query parameter `name` set to `value` (replacing every `name`, or added at
    /// the end), both percent-encoded as a query component; the fragment is dropped.
    package static func settingQueryParameter(_ name: String, to value: String, in url: String) -> String {
        var text = url
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        let queryStart = text.firstIndex(of: "?")
        let base = queryStart.map { String(text[..<$0]) } ?? text
        var pairs = queryStart.map { text[text.index(after: $0)...].split(separator: "&").map(String.init) } ?? []
        let encodedName = PercentEncoding.escapeQueryComponent(name)
        let pair = encodedName + "=" + PercentEncoding.escapeQueryComponent(value)
        let nameOf = { (pair: String) in String(pair.prefix { $0 != "=" }) }
        if let position = pairs.firstIndex(where: { nameOf($0) == encodedName }) {
            pairs.removeAll { nameOf($0) == encodedName }
            pairs.insert(pair, at: min(position, pairs.count))
        } else {
            pairs.append(pair)
        }
        return base + "?" + pairs.joined(separator: "&")
    }
}
