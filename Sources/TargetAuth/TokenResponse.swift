import MoyaKit
import OrderedJSON
import TargetSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a token endpoint's answer: a token (RFC 6749 §5.1) or an error (§5.2).
enum TokenResponse {
    /// The most of a token endpoint's body that is read; a token answer is a few hundred bytes.
    static let bodyLimit = 64 * 1024

    /// The token in `body` (status `status`), or the error explaining why there is none.
    /// `redactor` hides the client secret and refresh token should the server echo them.
    static func token(
        status: Int, contentType: String?, body: Data, issuedAt: Date, endpoint: String,
        redactor: SecretRedactor
    ) throws(AccessTokenError) -> OAuth2Token {
        let json = try? JSONValue(parsing: body)
        guard (200..<300).contains(status) else {
            if let json, let code = json["error"]?.stringValue {
                var message =
                    "the token endpoint \(endpoint) refused: \(clean(code, redactor: redactor)) (HTTP \(status))"
                if let description = json["error_description"]?.stringValue, !description.isEmpty {
                    message += ": " + clean(description, redactor: redactor)
                }
                throw AccessTokenError(.refused, message)
            }
            throw AccessTokenError(
                .refused, "the token endpoint \(endpoint) answered HTTP \(status)" + describe(contentType, json: json))
        }
        guard let json, json.objectValue != nil else {
            throw AccessTokenError(
                .refused,
                "the token endpoint \(endpoint) answered HTTP \(status) with a body that is not a JSON object"
                    + describe(contentType, json: json))
        }
        guard let accessToken = json["access_token"]?.stringValue, !accessToken.isEmpty else {
            throw AccessTokenError(.refused, "the token endpoint \(endpoint) answered without an access_token")
        }
        guard isHeaderSafe(accessToken) else {
            throw AccessTokenError(
                .refused,
                "the token endpoint \(endpoint) answered with an access_token that cannot go in a header "
                    + "(control characters or spaces)")
        }
        let tokenType = json["token_type"]?.stringValue ?? "Bearer"
        guard tokenType.lowercased() == "bearer" else {
            throw AccessTokenError(
                .refused,
                "the token endpoint \(endpoint) answered with token_type '\(clean(tokenType, redactor: redactor))'; "
                    + "only Bearer tokens are supported")
        }
        var expiresAt: Date?
        if let expiresIn = json["expires_in"] {
            // Some servers write the number as a string.
            guard let seconds = expiresIn.doubleValue ?? expiresIn.stringValue.flatMap(Double.init), seconds.isFinite,
                seconds >= 0
            else {
                throw AccessTokenError(
                    .refused,
                    "the token endpoint \(endpoint) answered with an expires_in that is not a number of seconds")
            }
            expiresAt = issuedAt.addingTimeInterval(min(seconds, 10 * 365 * 86_400))
        }
        let refreshToken = json["refresh_token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        return OAuth2Token(
            accessToken: accessToken, tokenType: "Bearer", expiresAt: expiresAt,
            scope: json["scope"]?.stringValue, refreshToken: refreshToken)
    }

    /// A token goes in `Authorization: Bearer <token>`: visible ASCII only (RFC 6750 §2.1 allows less).
    static func isHeaderSafe(_ token: String) -> Bool {
        token.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// What the server said, redacted and cut short: it is shown to the user.
    private static func clean(_ text: String, redactor: SecretRedactor) -> String {
        let redacted = redactor.redact(text)
        return redacted.count > 300 ? String(redacted.prefix(300)) + "…" : redacted
    }

    private static func describe(_ contentType: String?, json: JSONValue?) -> String {
        if json == nil { return " (" + (contentType.map { "a \($0) body" } ?? "no Content-Type") + ", not JSON)" }
        return ""
    }
}
