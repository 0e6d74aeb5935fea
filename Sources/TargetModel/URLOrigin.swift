#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The origin credentials belong to: paging stays on the API's origin, and a cached token is
/// kept for the origin it was asked for.
public enum URLOrigin {
    /// The origin of an http(s) URL: scheme, host and port (the default port made explicit),
    /// lowercased; `nil` when `url` has no host.
    public static func origin(of url: String) -> String? {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
            let host = parsed.host?.lowercased(),
            !host.isEmpty
        else { return nil }
        let port = parsed.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }
}
