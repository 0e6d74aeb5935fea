import CLITestSupport
import Foundation
import TestServers
import XCTest

/// `auth: {type: oauth2}` end to end: the built binary against the test server's token endpoint,
/// with the cache in a temporary XDG_CACHE_HOME.
final class OAuthCallTests: XCTestCase {
    var fixture: OAuthFixture!
    var server: HTTPTestServer { fixture.server }
    var folder: TemporaryFolder { fixture.folder }
    var cacheFolder: URL { fixture.cacheFolder }

    override func setUpWithError() throws {
        fixture = try OAuthFixture()
    }

    override func tearDown() {
        fixture.stop()
    }

    func call(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
        try fixture.call(arguments, environment: environment)
    }

    func writeTarget(query: String = "") throws { try fixture.writeTarget(query: query) }
    func cacheFiles() throws -> [String] { try fixture.cacheFiles() }
    func assertNoSecret(_ texts: String..., file: StaticString = #filePath, line: UInt = #line) {
        for text in texts { fixture.assertNoSecret(text, file: file, line: line) }
    }

    func testTheTokenIsFetchedOnceAndReusedAcrossRuns() throws {
        let first = try call(["call", "guarded", "protected"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, #"{"ok":true,"scope":"read write"}"#)
        let second = try call(["call", "guarded", "protected", "-v"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(server.oauth.tokenRequestCount, 1)
        XCTAssertTrue(
            second.stderr.contains(
                "* using the access token of API 'guarded' cached in \(cacheFolder.path)/oauth2-guarded-"),
            second.stderr)
        XCTAssertEqual(
            server.oauth.tokenRequests.first,
            .init(grantType: "client_credentials", clientAuthentication: "basic", scope: "read write"))
        // Both requests carried the one token.
        let sent = server.receivedRequests.filter { $0.path == "/oauth/protected" }.compactMap {
            $0.value(of: "Authorization")
        }
        XCTAssertEqual(sent.count, 2)
        XCTAssertEqual(Set(sent).count, 1)
        XCTAssertTrue(sent[0].hasPrefix("Bearer at-1-"), sent[0])

        let files = try cacheFiles()
        XCTAssertEqual(files.count, 1)
        XCTAssertTrue(files[0].hasPrefix("oauth2-guarded-"), files[0])
        let path = cacheFolder.appendingPathComponent(files[0]).path
        XCTAssertEqual(
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(
            (try FileManager.default.attributesOfItem(atPath: cacheFolder.path)[.posixPermissions] as? NSNumber)?
                .intValue, 0o700)
        let contents = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertFalse(contents.contains(OAuthTestAuthority.clientSecret), contents)
        XCTAssertTrue(contents.contains(String(sent[0].dropFirst("Bearer ".count))))
    }

    func testAnExpiredTokenIsRefreshedWithItsRefreshToken() throws {
        // expires_in 5 is inside the 30 s margin: the next run sees the token as expired.
        try writeTarget(query: "?expires_in=5")
        XCTAssertEqual(try call(["call", "guarded", "protected"]).status, 0)
        let second = try call(["call", "guarded", "protected", "-v"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(server.oauth.tokenRequests.map(\.grantType), ["client_credentials", "refresh_token"])
        XCTAssertTrue(second.stderr.contains("* refreshed the access token of API 'guarded'"), second.stderr)
        assertNoSecret(second.stdout, second.stderr)
    }

    func testAnExpiredTokenWithoutRefreshTokenIsFetchedAgain() throws {
        try writeTarget(query: "?expires_in=5&refresh=0")
        XCTAssertEqual(try call(["call", "guarded", "protected"]).status, 0)
        XCTAssertEqual(try call(["call", "guarded", "protected"]).status, 0)
        XCTAssertEqual(server.oauth.tokenRequests.map(\.grantType), ["client_credentials", "client_credentials"])
    }

    func testA401GetsOneNewTokenAndTheRequestIsSentAgain() throws {
        XCTAssertEqual(try call(["call", "guarded", "protected"]).status, 0)
        server.oauth.revokeAllTokens()
        let result = try call(["call", "guarded", "protected"])
        XCTAssertEqual(result.status, 0, result.stderr)
        // The 401's body was not printed: only the answer to the second try.
        XCTAssertEqual(result.stdout, #"{"ok":true,"scope":"read write"}"#)
        XCTAssertEqual(server.oauth.tokenRequests.map(\.grantType), ["client_credentials", "refresh_token"])
        XCTAssertEqual(server.receivedRequests.filter { $0.path == "/oauth/protected" }.count, 3)
        // The new token is the one cached.
        XCTAssertEqual(try call(["call", "guarded", "protected"]).status, 0)
        XCTAssertEqual(server.oauth.tokenRequestCount, 2)
    }

    func testASecond401IsTheAnswerNotALoop() throws {
        try writeTarget(query: "?revoked=1")
        let result = try call(["call", "guarded", "protected", "-v"])
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertEqual(result.stdout, #"{"error":"invalid_token"}"#)
        XCTAssertEqual(server.oauth.tokenRequests.map(\.grantType), ["client_credentials", "refresh_token"])
        XCTAssertEqual(server.receivedRequests.filter { $0.path == "/oauth/protected" }.count, 2)
        assertNoSecret(result.stdout, result.stderr)
    }

    func testA401WhenNoNewTokenCanBeHadExits7() throws {
        XCTAssertEqual(try call(["call", "guarded", "protected"]).status, 0)
        server.oauth.revokeAllTokens()
        server.oauth.revokeRefreshTokens()
        server.oauth.revokeClient()
        // The refresh token is refused, then the client credentials grant fails too.
        let result = try call(["call", "guarded", "protected"])
        XCTAssertEqual(result.status, 7, result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "moya-cli: error: the API refused the token with HTTP 401, and no new one could be obtained: "
                    + "the token endpoint http://127.0.0.1:\(server.port)/oauth/token refused: invalid_client (HTTP 401)"
            ),
            result.stderr)
        XCTAssertEqual(result.stdout, "")
        assertNoSecret(result.stderr)
    }

    func testSecretsAreAbsentFromVerboseCurlAndReports() throws {
        let verbose = try call(["call", "guarded", "protected", "-v", "--curl"])
        XCTAssertEqual(verbose.status, 0, verbose.stderr)
        XCTAssertTrue(verbose.stderr.contains("Authorization: Bearer <redacted>"), verbose.stderr)
        XCTAssertTrue(verbose.stderr.contains("* fetched an access token for API 'guarded'"), verbose.stderr)
        assertNoSecret(verbose.stdout, verbose.stderr)

        // The echo route shows the token it got in the body: that is the body, the user's data; but
        // -v's log of the body hides it.
        let echo = try call(["call", "guarded", "echo", "-v"])
        XCTAssertEqual(echo.status, 0, echo.stderr)
        assertNoSecret(echo.stderr)

        let curl = try call(["curl", "guarded", "protected"])
        XCTAssertEqual(curl.status, 0, curl.stderr)
        XCTAssertTrue(curl.stdout.contains("'Authorization: Bearer <redacted>'"), curl.stdout)
        assertNoSecret(curl.stdout, curl.stderr)

        let report = folder.url.appendingPathComponent("report.json").path
        let check = try call(["check", "guarded", "--live", "--report", "json:" + report])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        assertNoSecret(check.stdout, check.stderr, try String(contentsOfFile: report, encoding: .utf8))
        XCTAssertEqual(server.oauth.tokenRequestCount, 1)
    }

    func testCurlFetchesNothingUnlessSecretsAreShown() throws {
        let curl = try call(["curl", "guarded", "protected"])
        XCTAssertEqual(curl.status, 0, curl.stderr)
        XCTAssertEqual(server.oauth.tokenRequestCount, 0)
        let shown = try call(["curl", "guarded", "protected", "--show-secrets"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertEqual(server.oauth.tokenRequestCount, 1)
        XCTAssertNotNil(
            shown.stdout.range(of: #"'Authorization: Bearer at-1-[0-9A-F]{8}'"#, options: .regularExpression),
            shown.stdout)
        // The printed command works as it is.
        let replayed = try CLIRunner.runShell(shown.stdout, in: folder.url)
        XCTAssertEqual(replayed.stdout, #"{"ok":true,"scope":"read write"}"#)
    }

    func testCheckFetchesOneTokenForEveryCaseAndRenewsOn401() throws {
        let check = try call(["check", "guarded", "--live", "--jobs", "4"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertEqual(server.oauth.tokenRequestCount, 1)
        server.oauth.revokeAllTokens()
        let again = try call(["check", "guarded", "--live", "--jobs", "1"])
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertEqual(server.oauth.tokenRequests.map(\.grantType), ["client_credentials", "refresh_token"])
    }

    func testCheckReportsATokenEndpointFailurePerCase() throws {
        try writeTarget(query: "?fail=error")
        let check = try call(["check", "guarded", "--live"])
        XCTAssertEqual(check.status, 8, check.stdout + check.stderr)
        let output = check.stdout + check.stderr
        XCTAssertEqual(
            output.components(
                separatedBy:
                    "cannot build the request: the token endpoint http://127.0.0.1:\(server.port)/oauth/token?fail=error "
                    + "refused: invalid_scope (HTTP 400)"
            ).count, 3, output)
        // One failed request for both cases.
        XCTAssertEqual(server.oauth.tokenRequestCount, 1)
        assertNoSecret(check.stdout, check.stderr)
    }

    func testStubbedCallsNeedNoTokenNorVariables() throws {
        let result = try CLIRunner.run(
            ["call", "guarded", "protected", "--stub"],
            environment: ["XDG_CACHE_HOME": folder.url.appendingPathComponent("cache").path],
            currentDirectory: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, #"{"ok":true}"#)
        let check = try CLIRunner.run(["check", "guarded"], currentDirectory: folder.url)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertEqual(server.oauth.tokenRequestCount, 0)
    }

    func testClientAuthenticationInTheBodyAndANamedScheme() throws {
        try folder.write(
            "targets/guarded.yaml",
            """
            api: guarded
            baseURL: http://127.0.0.1:\(server.port)
            auth:
              default: service
              schemes:
                service:
                  type: oauth2
                  tokenURL: http://127.0.0.1:\(server.port)/oauth/token
                  clientId: moya-client
                  clientSecret: "${secret:GUARDED_CLIENT_SECRET}"
                  clientAuth: body
                personal: {type: bearer, token: "${PERSONAL_TOKEN}"}
            cases:
              protected: {path: /oauth/protected, sample: ok}
              mine: {path: /bearer, auth: personal, sample: ok}
            """)
        let result = try call(["call", "guarded", "protected"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, #"{"ok":true,"scope":"default"}"#)
        XCTAssertEqual(
            server.oauth.tokenRequests,
            [.init(grantType: "client_credentials", clientAuthentication: "body", scope: nil)])
        let mine = try call(["call", "guarded", "mine"], environment: ["PERSONAL_TOKEN": "personal-token-1"])
        XCTAssertEqual(mine.status, 0, mine.stderr)
        XCTAssertEqual(server.oauth.tokenRequestCount, 1)
    }

    func testTheShippedExampleAgainstTheTestServer() throws {
        let targets = CLIRunner.repositoryRoot.appendingPathComponent("targets").path
        let environment = [
            "OAUTH_BASE_URL": "http://127.0.0.1:\(server.port)", "OAUTH_CLIENT_SECRET": OAuthTestAuthority.clientSecret
        ]
        for name in ["protected", "headers", "anonymous"] {
            let result = try call(["call", "httpbin-oauth", name, "--targets", targets], environment: environment)
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
        }
        XCTAssertEqual(server.oauth.tokenRequestCount, 1)
        let check = try call(["check", "httpbin-oauth", "--live", "--targets", targets], environment: environment)
        // The command scheme's case fails: the shipped file is not a trusted one.
        XCTAssertEqual(check.status, 8, check.stdout + check.stderr)
        XCTAssertTrue(
            (check.stdout + check.stderr).contains("not running the token command 'gh'"), check.stdout + check.stderr)
        XCTAssertEqual(server.oauth.tokenRequestCount, 1)
    }
}
