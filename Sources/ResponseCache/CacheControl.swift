import HTTPTypes

/// The directives of a `Cache-Control` field (RFC 9111 §5.2), as a private cache reads them:
/// `s-maxage`, `proxy-revalidate` and `private` qualified by field names are read as shared caches'.
package struct CacheControl: Sendable, Hashable {
    package var noStore = false
    package var noCache = false
    package var isPrivate = false
    package var isPublic = false
    package var mustRevalidate = false
    /// `max-age=N` (the first one; a malformed one is a stale answer, §4.2.1).
    package var maxAge: Int?
    /// `max-stale` and `min-fresh` are not honoured; `only-if-cached` is (a request directive).
    package var onlyIfCached = false

    package init() {}

    /// The directives of every `Cache-Control` field of `fields`.
    package init(_ fields: HTTPFields) {
        for field in fields where field.name == .cacheControl {
            for part in field.value.split(separator: ",") {
                let directive = part.split(separator: "=", maxSplits: 1)
                let name = directive.first.map { $0.trimmingSpaces.lowercased() } ?? ""
                let argument = directive.count > 1 ? directive[1].trimmingSpaces : nil
                switch name {
                case "no-store": noStore = true
                case "no-cache": noCache = true
                case "private": isPrivate = true
                case "public": isPublic = true
                case "must-revalidate": mustRevalidate = true
                case "only-if-cached": onlyIfCached = true
                case "max-age" where maxAge == nil:
                    let digits = argument.map {
                        $0.hasPrefix("\"") && $0.hasSuffix("\"") ? String($0.dropFirst().dropLast()) : $0
                    }
                    maxAge =
                        digits.flatMap { text in text.allSatisfy(\.isASCII) ? Int(text) : nil }.map { max(0, $0) } ?? 0
                default: break
                }
            }
        }
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
