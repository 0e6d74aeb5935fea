import Foundation
import MoyaKit
import TargetAuth
import TargetModel
import TargetSpec
import TestServers
import XCTest

/// The token endpoint client and the provider over real HTTP to the test server's `/oauth/token`.
final class OAuth2TokenClientTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: URL!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("moya-auth-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    private func client(
        query: String = "", secret: String = OAuthTestAuthority.clientSecret,
        authentication: OAuth2AuthSpec.ClientAuthentication = .basic
    ) -> AccessTokenRequest.OAuth2Client {
        AccessTokenRequest.OAuth2Client(
            apiName: "guarded", tokenURL: server.url("/oauth/token" + query).absoluteString,
            clientID: OAuthTestAuthority.clientID, clientSecret: secret, scopes: ["read", "write"],
            clientAuthentication: authentication, origin: "https://api.example:443")
    }

    private func provider(now: Date = Date()) -> AccessTokenProvider {
        AccessTokenProvider(
            cache: TokenCacheStore(folder: folder.path), client: OAuth2TokenClient(now: { now }),
            trust: TargetTrust(trustedPaths: []))
    }

    func testTheClientCredentialsGrant() throws {
        let token = try OAuth2TokenClient().token(for: client(), grant: .clientCredentials)
        XCTAssertTrue(token.accessToken.hasPrefix("at-1-"), token.accessToken)
        XCTAssertEqual(token.scope, "read write")
        XCTAssertNotNil(token.refreshToken)
        let expiresIn = try XCTUnwrap(token.expiresAt).timeIntervalSinceNow
        XCTAssertTrue((3500...3600).contains(expiresIn), "\(expiresIn)")
        XCTAssertEqual(
            server.oauth.tokenRequests,
            [.init(grantType: "client_credentials", clientAuthentication: "basic", scope: "read write")])
        let sent = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(sent.method, "POST")
        XCTAssertEqual(sent.value(of: "Content-Type"), "application/x-www-form-urlencoded")
    }

    func testClientAuthenticationInTheBody() throws {
        _ = try OAuth2TokenClient().token(for: client(authentication: .body), grant: .clientCredentials)
        XCTAssertEqual(server.oauth.tokenRequests.map(\.clientAuthentication), ["body"])
        XCTAssertNil(try XCTUnwrap(server.receivedRequests.last).value(of: "Authorization"))
    }

    func testTheProviderFetchesOnceThenUsesMemoryAndDisk() throws {
        let first = try provider().accessToken(for: .oauth2(client()), replacing: nil)
        // A second provider (a second run) finds the token on disk.
        let second = try provider().accessToken(for: .oauth2(client()), replacing: nil)
        XCTAssertEqual(first, second)
        XCTAssertEqual(server.oauth.tokenRequestCount, 1)
    }

    func testAnExpiredTokenIsRefreshedAndARefusedOneReplaced() throws {
        let shared = provider()
        let first = try shared.accessToken(for: .oauth2(client(query: "?expires_in=3600")), replacing: nil)
        // An hour later (a provider whose clock is later), the refresh token is used.
        let later = provider(now: Date().addingTimeInterval(3590))
        let second = try later.accessToken(for: .oauth2(client(query: "?expires_in=3600")), replacing: nil)
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(server.oauth.tokenRequests.map(\.grantType), ["client_credentials", "refresh_token"])
        // A refused token is replaced, even though it has not expired.
        let third = try later.accessToken(for: .oauth2(client(query: "?expires_in=3600")), replacing: second)
        XCTAssertNotEqual(third, second)
        XCTAssertEqual(
            server.oauth.tokenRequests.map(\.grantType), ["client_credentials", "refresh_token", "refresh_token"])
    }

    func testARevokedRefreshTokenFallsBackToClientCredentials() throws {
        let first = try provider().accessToken(for: .oauth2(client()), replacing: nil)
        server.oauth.revokeRefreshTokens()
        let second = try provider().accessToken(for: .oauth2(client()), replacing: first)
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(
            server.oauth.tokenRequests.map(\.grantType), ["client_credentials", "refresh_token", "client_credentials"])
    }

    private func failure(
        _ query: String, secret: String = OAuthTestAuthority.clientSecret,
        session: SessionConfiguration = SessionConfiguration()
    ) -> AccessTokenError? {
        do {
            _ = try OAuth2TokenClient(session: session).token(
                for: client(query: query, secret: secret), grant: .clientCredentials)
            return nil
        } catch {
            return error
        }
    }

    func testTokenEndpointErrorsAreClearAndHoldNoSecret() throws {
        let cases: [(String, String, String)] = [
            ("?fail=error", "refused: invalid_scope (HTTP 400): the scope is not allowed", ""),
            ("?fail=html", "answered HTTP 500 (a text/html body, not JSON)", ""),
            ("?fail=huge", "a body over 64 KiB", ""),
            ("?fail=redirect", "a redirect; redirects are not followed", ""),
            ("?fail=badtype", "token_type 'mac'", ""),
            ("?fail=notjson", "not a JSON object", ""),
            ("", "refused: invalid_client (HTTP 401)", "wrong-secret-value")
        ]
        for (query, expected, secret) in cases {
            let error = try XCTUnwrap(
                failure(query, secret: secret.isEmpty ? OAuthTestAuthority.clientSecret : secret), query)
            XCTAssertTrue(error.message.contains(expected), "\(query): \(error.message)")
            XCTAssertFalse(error.message.contains(OAuthTestAuthority.clientSecret), error.message)
        }
    }

    func testASecretTheServerEchoesIsRedacted() throws {
        let error = try XCTUnwrap(failure("?fail=echo"))
        XCTAssertTrue(error.message.contains("client_secret=<redacted>"), error.message)
        XCTAssertFalse(error.message.contains(OAuthTestAuthority.clientSecret), error.message)
        let basic = Data("\(OAuthTestAuthority.clientID):\(OAuthTestAuthority.clientSecret)".utf8).base64EncodedString()
        XCTAssertFalse(error.message.contains(basic), error.message)
    }

    func testATimeoutAndAnUnreachableEndpoint() throws {
        var session = SessionConfiguration()
        session.timeout = 0.5
        let slow = try XCTUnwrap(failure("?fail=slow", session: session))
        XCTAssertEqual(slow.kind, .transport)
        XCTAssertTrue(slow.message.hasPrefix("timed out asking the token endpoint"), slow.message)

        let unreachable = AccessTokenRequest.OAuth2Client(
            apiName: "x", tokenURL: "http://127.0.0.1:1/token", clientID: "c", clientSecret: "secret-value",
            scopes: [], clientAuthentication: .basic, origin: "https://api.example:443")
        XCTAssertThrowsError(try OAuth2TokenClient().token(for: unreachable, grant: .clientCredentials)) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot reach the token endpoint http://127.0.0.1:1/token"), "\(error)")
        }
    }

    func testTheTokenURLRules() {
        XCTAssertNil(TokenURLCheck.problem(in: "https://auth.example.com/token"))
        XCTAssertNil(TokenURLCheck.problem(in: "http://127.0.0.1:8080/token?x=1"))
        XCTAssertNil(TokenURLCheck.problem(in: "http://localhost/token"))
        XCTAssertNil(TokenURLCheck.problem(in: "http://[::1]:9/token"))
        XCTAssertTrue(TokenURLCheck.problem(in: "http://auth.example.com/token")?.contains("unencrypted") == true)
        XCTAssertTrue(TokenURLCheck.problem(in: "http://127.0.0.1.evil.com/token")?.contains("unencrypted") == true)
        XCTAssertTrue(
            TokenURLCheck.problem(in: "https://user:pw@auth.example.com/token")?.contains("user name or password")
                == true)
        XCTAssertTrue(TokenURLCheck.problem(in: "ftp://auth.example.com/token")?.contains("'ftp'") == true)
        XCTAssertTrue(TokenURLCheck.problem(in: "auth.example.com/token")?.contains("not an absolute URL") == true)
    }
}
