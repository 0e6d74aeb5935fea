import TextSafety

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Headers that carry credentials: `Authorization`, `Proxy-Authorization`, `Cookie`, the usual
/// API-key headers, and whatever a request marks in `URLRequest.sensitiveHeaderNames`.
///
/// A sensitive header is sent only to the origin (scheme, host and port) it was meant for: a
/// redirect to another origin — another host or port, or `https` to `http` — is followed without
/// it, as curl does for `Authorization`. Logs and `curl` commands hide its value (`SecretRedactor`).
public enum SensitiveHeaders {
    /// The lowercased names that are sensitive in every request.
    public static let defaultNames: Set<String> = CredentialNames.sensitiveHeaders
}

extension URLRequest {
    /// Whether the header `name` carries a secret in this request.
    public func isSensitiveHeader(_ name: String) -> Bool {
        let lowercased = name.lowercased()
        return SensitiveHeaders.defaultNames.contains(lowercased) || sensitiveHeaderNames.contains(lowercased)
    }

    /// Marks the header `name` as carrying a secret in this request.
    public mutating func markSensitiveHeader(_ name: String) {
        sensitiveHeaderNames.insert(name.lowercased())
    }
}

/// The scheme, host and port a URL talks to: what a sensitive header is bound to.
struct Origin: Equatable {
    let scheme: String
    let host: String
    let port: Int

    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }
}
