import Foundation
import Synchronization

/// An OAuth 2.0 authorization server for tests, on the test server's `/oauth/…` routes:
///
/// | route | answer |
/// | --- | --- |
/// | `POST /oauth/token` | the client credentials and refresh token grants (RFC 6749 §4.4, §6) |
/// | `/oauth/protected` | 200 with a token it issued and has not revoked, else 401 |
///
/// The token URL's query shapes the token endpoint's behaviour (the target file under test
/// writes it): `expires_in=N` (default 3600; `none` leaves it out), `refresh=0` (no refresh
/// token), `revoked=1` (tokens are refused as soon as they are issued), and `fail=` one of
/// `html` (500, an HTML body), `error` (400, `invalid_scope`), `echo` (400, the client secret it
/// received in `error_description`), `huge` (200, 1 MiB), `redirect` (302 to the same route),
/// `badtype` (`token_type: mac`), `notjson` (200, text), `slow` (waits 5 s), `crlf` (a token
/// holding CR LF and a header line).
///
/// The client is `OAuthTestAuthority.clientID` with `clientSecret`, by HTTP Basic or in the body.
public final class OAuthTestAuthority: Sendable {
    public static let clientID = "moya-client"
    public static let clientSecret = "client-s3cret-value"

    /// One request to the token endpoint.
    public struct TokenRequest: Sendable, Hashable {
        /// `client_credentials` or `refresh_token`.
        public var grantType: String
        /// How the client authenticated: `basic`, `body` or `none`.
        public var clientAuthentication: String
        /// `scope`, if sent.
        public var scope: String?

        public init(grantType: String, clientAuthentication: String, scope: String?) {
            self.grantType = grantType
            self.clientAuthentication = clientAuthentication
            self.scope = scope
        }
    }

    private struct State {
        var tokenRequests: [TokenRequest] = []
        var validTokens: [String: String] = [:]
        var refreshTokens: Set<String> = []
        var issued = 0
        var slowAnswers = 0
        var isClientRevoked = false
    }
    private let state = Mutex(State())

    /// The requests the token endpoint received, in order.
    public var tokenRequests: [TokenRequest] { state.withLock { $0.tokenRequests } }
    /// How many requests the token endpoint received.
    public var tokenRequestCount: Int { tokenRequests.count }
    /// Every access token issued so far, valid or not.
    public var issuedTokenCount: Int { state.withLock { $0.issued } }

    /// How many `fail=slow` requests waited their 5 s to the end (a client still there).
    public var slowAnswerCount: Int { state.withLock { $0.slowAnswers } }

    /// Makes every token issued so far invalid: `/oauth/protected` answers 401 to them.
    public func revokeAllTokens() {
        state.withLock { $0.validTokens.removeAll() }
    }

    /// Forgets the refresh tokens issued so far: the refresh grant fails with `invalid_grant`.
    public func revokeRefreshTokens() {
        state.withLock { $0.refreshTokens.removeAll() }
    }

    /// Revokes the client: the token endpoint answers `invalid_client` from now on.
    public func revokeClient() {
        state.withLock { $0.isClientRevoked = true }
    }

    /// Each server's authority, held as long as the server lives (a server made later at the same
    /// address or on the same port starts afresh).
    private struct Registration: @unchecked Sendable {
        weak var server: HTTPTestServer?
        var authority: OAuthTestAuthority
    }
    private static let authorities = Mutex<[UInt16: Registration]>([:])

    /// The authority of `server`.
    static func authority(of server: HTTPTestServer) -> OAuthTestAuthority {
        authorities.withLock { all in
            if let existing = all[server.port], existing.server === server { return existing.authority }
            let made = OAuthTestAuthority()
            all[server.port] = Registration(server: server, authority: made)
            return made
        }
    }

    /// The answer to `request` on `/oauth/…`: status, headers, body; `nil` to wait and answer later.
    func answer(_ request: ReceivedRequest, route: String, sleep: (Double) -> Bool) -> (Int, [(String, String)], Data)?
    {
        switch route {
        case "token":
            return token(request, sleep: sleep)
        case "protected":
            let authorization = request.value(of: "Authorization") ?? ""
            let token = authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst("Bearer ".count)) : ""
            guard let scope = state.withLock({ $0.validTokens[token] }) else {
                return (
                    401, [("WWW-Authenticate", #"Bearer error="invalid_token""#), ("Content-Type", "application/json")],
                    Data(#"{"error":"invalid_token"}"#.utf8)
                )
            }
            return (
                200, [("Content-Type", "application/json")],
                Data(#"{"ok":true,"scope":\#(EchoJSON.quote(scope))}"#.utf8)
            )
        default:
            return (404, [], Data())
        }
    }

    private func token(_ request: ReceivedRequest, sleep: (Double) -> Bool) -> (Int, [(String, String)], Data)? {
        let options = Dictionary(
            request.queryItems.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let form = Self.formFields(request.body)
        var clientAuthentication = "none"
        var id: String?
        var secret: String?
        if let authorization = request.value(of: "Authorization"), authorization.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(authorization.dropFirst(6))).map({
                String(decoding: $0, as: UTF8.self)
            }),
            let colon = decoded.firstIndex(of: ":")
        {
            clientAuthentication = "basic"
            id = String(decoded[..<colon]).removingPercentEncoding
            secret = String(decoded[decoded.index(after: colon)...]).removingPercentEncoding
        } else if form["client_id"] != nil {
            clientAuthentication = "body"
            id = form["client_id"]
            secret = form["client_secret"]
        }
        let grantType = form["grant_type"] ?? ""
        state.withLock {
            $0.tokenRequests.append(
                TokenRequest(grantType: grantType, clientAuthentication: clientAuthentication, scope: form["scope"]))
        }
        let json = [("Content-Type", "application/json"), ("Cache-Control", "no-store")]
        func error(_ status: Int, _ code: String, _ description: String) -> (Int, [(String, String)], Data) {
            (
                status, json,
                Data(#"{"error":\#(EchoJSON.quote(code)),"error_description":\#(EchoJSON.quote(description))}"#.utf8)
            )
        }
        switch options["fail"] {
        case "html"?:
            return (500, [("Content-Type", "text/html")], Data("<html><body>Internal error</body></html>".utf8))
        case "error"?: return error(400, "invalid_scope", "the scope is not allowed")
        case "echo"?:
            return error(
                400, "invalid_request",
                "you sent client_secret=\(secret ?? "") \(request.value(of: "Authorization") ?? "")")
        case "huge"?: return (200, json, Data(repeating: UInt8(ascii: " "), count: 1 << 20))
        case "redirect"?:
            return (
                302, [("Location", request.target.replacingOccurrences(of: "fail=redirect", with: "fail=none"))], Data()
            )
        case "notjson"?: return (200, [("Content-Type", "text/plain")], Data("access_token=abc".utf8))
        case "slow"?:
            guard sleep(5) else { return nil }
            state.withLock { $0.slowAnswers += 1 }
        default: break
        }
        guard request.method == "POST" else { return error(405, "invalid_request", "use POST") }
        guard id == Self.clientID, secret == Self.clientSecret, !state.withLock({ $0.isClientRevoked }) else {
            return (
                401, json + [("WWW-Authenticate", #"Basic realm="token""#)], Data(#"{"error":"invalid_client"}"#.utf8)
            )
        }
        switch grantType {
        case "client_credentials":
            break
        case "refresh_token":
            guard let refresh = form["refresh_token"], state.withLock({ $0.refreshTokens.contains(refresh) }) else {
                return error(400, "invalid_grant", "the refresh token is unknown or revoked")
            }
        default:
            return error(400, "unsupported_grant_type", "grant_type \(grantType) is not supported")
        }
        let scope = form["scope"] ?? "default"
        let (access, refresh) = state.withLock { state -> (String, String) in
            state.issued += 1
            let access = "at-\(state.issued)-\(UUID().uuidString.prefix(8))"
            let refresh = "rt-\(state.issued)-\(UUID().uuidString.prefix(8))"
            if options["revoked"] != "1" { state.validTokens[access] = scope }
            if options["refresh"] != "0" { state.refreshTokens.insert(refresh) }
            return (access, refresh)
        }
        let issuedToken = options["fail"] == "crlf" ? access + "\r\nX-Injected: 1" : access
        var members = [
            #""access_token":\#(EchoJSON.quote(issuedToken))"#,
            #""token_type":\#(options["fail"] == "badtype" ? #""mac""# : #""bearer""#)"#,
            #""scope":\#(EchoJSON.quote(scope))"#
        ]
        let expiresIn = options["expires_in"] ?? "3600"
        if expiresIn != "none" { members.append(#""expires_in":\#(expiresIn)"#) }
        if options["refresh"] != "0" { members.append(#""refresh_token":\#(EchoJSON.quote(refresh))"#) }
        return (200, json, Data(("{" + members.joined(separator: ",") + "}").utf8))
    }

    /// The fields of an `application/x-www-form-urlencoded` body.
    static func formFields(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }
}

extension HTTPTestServer {
    /// The OAuth 2.0 authority on this server's `/oauth/…` routes.
    public var oauth: OAuthTestAuthority { OAuthTestAuthority.authority(of: self) }

    /// Answers `/oauth/…` (see `OAuthTestAuthority`).
    func respondOAuth(to request: ReceivedRequest, segments: [String], reply: (Int, [(String, String)], Data) -> Bool)
        -> Bool
    {
        guard
            let (status, headers, body) = oauth.answer(
                request, route: segments.count > 1 ? segments[1] : "", sleep: { sleep(seconds: $0) })
        else { return false }
        return reply(status, headers, body)
    }
}
