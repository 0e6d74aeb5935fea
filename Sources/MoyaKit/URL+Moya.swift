#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
extension URL {
    /// The URL of a target: its `baseURL` followed by its `path`, joined by exactly one `/`.
    ///
    /// Unlike Foundation's `appendingPathComponent`, the path is taken as already
    /// percent-encoded: `%20` stays `%20` (Foundation would make it `%2520`), and only characters
    /// a path cannot hold (space, `?`, `#`, non-ASCII...) are escaped. An empty path leaves the
    /// base URL untouched.
    public init<Target: TargetType>(target: Target) {
        self = URL.joining(target.baseURL, path: target.path)
    }

    /// Joins a base URL and a percent-encoded path (see `init(target:)`).
    static func joining(_ baseURL: URL, path: String) -> URL {
        guard !path.isEmpty else { return baseURL }
        var base = baseURL.absoluteString
        var suffix = ""
        // Keep a query or fragment of the base after the joined path.
        if let index = base.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            suffix = String(base[index...])
            base = String(base[..<index])
        }
        let escapedPath = PercentEncoding.escapePath(path)
        let joined: String
        switch (base.hasSuffix("/"), escapedPath.hasPrefix("/")) {
        case (true, true): joined = base + escapedPath.dropFirst()
        case (false, false): joined = base + "/" + escapedPath
        default: joined = base + escapedPath
        }
        return URL(string: joined + suffix) ?? baseURL.appendingPathComponent(path)
    }
}
