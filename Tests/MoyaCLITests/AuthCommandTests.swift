import Foundation
import TestServers
import XCTest

/// `moya-cli auth API`: the state of an API's credentials, and `--logout`.
final class AuthCommandTests: XCTestCase {
    var fixture: OAuthFixture!

    override func setUpWithError() throws {
        fixture = try OAuthFixture()
    }

    override func tearDown() {
        fixture.stop()
    }

    func testStatusBeforeAndAfterATokenIsCached() throws {
        let before = try fixture.call(["auth", "guarded"])
        XCTAssertEqual(before.status, 0, before.stderr)
        let port = fixture.server.port
        XCTAssertTrue(
            before.stdout.hasPrefix(
                """
                scheme: oauth2 (oauth2)
                token URL: http://127.0.0.1:\(port)/oauth/token
                client: moya-client (sent by HTTP Basic)
                scopes: read write
                cached: no (\(fixture.cacheFolder.path)/oauth2-guarded-
                """), before.stdout)
        XCTAssertEqual(fixture.server.receivedRequests.count, 0, "auth sends nothing")

        XCTAssertEqual(try fixture.call(["call", "guarded", "protected"]).status, 0)
        let after = try fixture.call(["auth", "guarded"])
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertNotNil(
            after.stdout.range(
                of: #"cached: yes, valid until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(59 min left\)"#,
                options: .regularExpression), after.stdout)
        XCTAssertTrue(after.stdout.contains("granted scopes: read write\nrefresh token: yes\n"), after.stdout)
        fixture.assertNoSecret(after.stdout, after.stderr)

        let shown = try fixture.call(["auth", "guarded", "--show-secrets"])
        XCTAssertNotNil(
            shown.stdout.range(of: #"access token: at-1-[0-9A-F]{8}\n"#, options: .regularExpression), shown.stdout)
        XCTAssertFalse(shown.stdout.contains(OAuthTestAuthority.clientSecret), shown.stdout)
    }

    func testAnExpiredTokenSaysWhatHappensNext() throws {
        try fixture.writeTarget(query: "?expires_in=5")
        XCTAssertEqual(try fixture.call(["call", "guarded", "protected"]).status, 0)
        let status = try fixture.call(["auth", "guarded"])
        XCTAssertTrue(status.stdout.contains("; it will be refreshed\n"), status.stdout)
    }

    func testLogoutForgetsTheToken() throws {
        XCTAssertEqual(try fixture.call(["call", "guarded", "protected"]).status, 0)
        let file = try XCTUnwrap(try fixture.cacheFiles().first)
        let logout = try fixture.call(["auth", "guarded", "--logout"])
        XCTAssertEqual(logout.status, 0, logout.stderr)
        XCTAssertEqual(logout.stdout, "removed \(fixture.cacheFolder.path)/\(file)\n")
        XCTAssertEqual(try fixture.cacheFiles(), [])
        XCTAssertEqual(try fixture.call(["auth", "guarded", "--logout"]).stdout, "no cached token for API 'guarded'\n")
        // The next call fetches a new token.
        XCTAssertEqual(try fixture.call(["call", "guarded", "protected"]).status, 0)
        XCTAssertEqual(fixture.server.oauth.tokenRequestCount, 2)
    }

    func testSchemesAndUsageErrors() throws {
        try fixture.folder.write(
            "targets/mixed.yaml",
            """
            baseURL: https://api.example.com
            auth:
              default: service
              schemes:
                service: {type: oauth2, tokenURL: "https://auth.example.com/token", clientId: c, clientSecret: "${secret:S}"}
                personal: {type: bearer, token: "${PERSONAL_TOKEN}"}
                script: {type: command, command: [gh, auth, token]}
            cases:
              a: {path: /a, sample: ok}
            """)
        let personal = try fixture.call(
            ["auth", "mixed", "--scheme", "personal"], environment: ["PERSONAL_TOKEN": "abcd"])
        XCTAssertEqual(personal.status, 0, personal.stderr)
        XCTAssertEqual(personal.stdout, "scheme: personal (bearer)\ntoken: ${PERSONAL_TOKEN} (set)\n")
        let script = try fixture.call(["auth", "mixed", "--scheme", "script"])
        XCTAssertTrue(
            script.stdout.hasPrefix(
                "scheme: script (command)\ncommand: gh auth token\ncached: no (a command's token is kept for one run only)\n"
                    + "trusted: no; "), script.stdout)
        // A token is cached under its client secret: without it, the status says why it cannot tell.
        let unknownSecret = try fixture.call(["auth", "mixed", "--scheme", "service"])
        XCTAssertEqual(unknownSecret.status, 0, unknownSecret.stderr)
        XCTAssertTrue(
            unknownSecret.stdout.contains(
                "cached: unknown (a token is cached under its client secret and the base URL's origin, "
                    + "so both are needed: targets/mixed.yaml:5:101: environment variable 'S' is not set"),
            unknownSecret.stdout)
        let service = try fixture.call(["auth", "mixed", "--scheme", "service"], environment: ["S": "secret"])
        XCTAssertEqual(service.status, 0, service.stderr)
        XCTAssertTrue(
            service.stdout.hasPrefix(
                "scheme: service (oauth2)\ntoken URL: https://auth.example.com/token\nclient: c (sent by HTTP Basic)\n"
                    + "scopes: (the client's default)\ncached: no ("), service.stdout)

        let unknown = try fixture.call(["auth", "mixed", "--scheme", "personl"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(
            unknown.stderr.contains("API 'mixed' has no auth scheme 'personl'; did you mean 'personal'?"),
            unknown.stderr)
        let noAPI = try fixture.call(["auth", "nope"])
        XCTAssertEqual(noAPI.status, 64, noAPI.stderr)
        try fixture.folder.write(
            "targets/open.yaml", "baseURL: https://api.example.com\ncases:\n  a: {path: /a, sample: ok}\n")
        let open = try fixture.call(["auth", "open"])
        XCTAssertEqual(open.status, 64)
        XCTAssertTrue(open.stderr.contains("API 'open' has no auth"), open.stderr)
    }
}
