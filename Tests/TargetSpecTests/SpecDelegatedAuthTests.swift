import MoyaKit
import TargetSpec
import XCTest

/// `oauth2` and `command` auth in the model: what the loader reads and refuses, and what
/// `TargetBuilder` asks a token source for.
final class SpecDelegatedAuthTests: XCTestCase {
    private static let yaml = """
        api: svc
        baseURL: https://api.example.com
        auth:
          type: oauth2
          tokenURL: "https://auth.example.com/token?audience=${AUDIENCE:-api}"
          clientId: "${CLIENT_ID}"
          clientSecret: "${secret:CLIENT_SECRET}"
          scopes: [read, write]
          clientAuth: body
        cases:
          me: {path: /me, sample: ok}
          open: {path: /open, auth: none, sample: ok}
          named: {path: /named, auth: oauth2, sample: ok}
        """

    /// Records what it was asked for and hands out a fixed token.
    final class RecordingSource: AccessTokenSource, @unchecked Sendable {
        var requests: [AccessTokenRequest] = []
        func accessToken(for request: AccessTokenRequest, replacing rejected: String?) throws(AccessTokenError)
            -> String
        {
            requests.append(request)
            return "token-from-source"
        }
    }

    func testAnOAuth2ClientIsResolvedAndItsTokenSent() throws {
        let result = SpecTest.load(Self.yaml)
        XCTAssertEqual(result.renderedDiagnostics(), "")
        let api = try XCTUnwrap(result.api)
        guard case .oauth2(let spec)? = api.auth else { return XCTFail("\(String(describing: api.auth))") }
        XCTAssertEqual(spec.scopes, ["read", "write"])
        XCTAssertEqual(spec.clientAuthentication, .body)

        let source = RecordingSource()
        let builder = TargetBuilder(
            api: api, processEnvironment: ["CLIENT_ID": "cid", "CLIENT_SECRET": "csecret"], accessTokens: source)
        let me = try builder.target(for: api.cases[0], arguments: [:])
        XCTAssertEqual(me.authorizationType, .bearer)
        XCTAssertEqual(me.credential, "token-from-source")
        XCTAssertTrue(me.secretValues.contains("csecret"))
        XCTAssertTrue(me.secretValues.contains("token-from-source"))
        XCTAssertEqual(
            source.requests,
            [
                .oauth2(
                    .init(
                        apiName: "svc", tokenURL: "https://auth.example.com/token?audience=api", clientID: "cid",
                        clientSecret: "csecret", scopes: ["read", "write"], clientAuthentication: .body,
                        origin: "https://api.example.com:443"))
            ])
        XCTAssertEqual(me.accessTokenRequest, source.requests.first)
        XCTAssertNil(try builder.target(for: api.cases[1], arguments: [:]).credential)
        XCTAssertEqual(try builder.target(for: api.cases[2], arguments: [:]).credential, "token-from-source")
    }

    func testAStubAsksNothingAndNeedsNoVariable() throws {
        let api = try XCTUnwrap(SpecTest.load(Self.yaml).api)
        let source = RecordingSource()
        let target = try TargetBuilder(api: api, processEnvironment: [:], isStubbed: true, accessTokens: source).target(
            for: api.cases[0], arguments: [:])
        XCTAssertNil(target.authorizationType)
        XCTAssertEqual(source.requests, [])
    }

    func testWithoutASourceTheCaseDoesNotBuild() throws {
        let api = try XCTUnwrap(SpecTest.load(Self.yaml).api)
        XCTAssertThrowsError(
            try TargetBuilder(api: api, processEnvironment: ["CLIENT_ID": "c", "CLIENT_SECRET": "s"])
                .target(for: api.cases[0], arguments: [:])
        ) { error in
            XCTAssertEqual("\(error)", "auth type 'oauth2' needs a token source")
        }
    }

    func testACommandKeepsItsArgumentsAndFile() throws {
        let result = SpecTest.load(
            """
            baseURL: https://api.example.com
            auth: {type: command, command: [gh, auth, token, "--hostname", "${NOT_EXPANDED}"], timeout: 5}
            cases:
              me: {path: /me, sample: ok}
            """, file: "/t/svc.yaml")
        XCTAssertEqual(result.renderedDiagnostics(), "")
        let api = try XCTUnwrap(result.api)
        let source = RecordingSource()
        _ = try TargetBuilder(api: api, processEnvironment: [:], accessTokens: source).target(
            for: api.cases[0], arguments: [:])
        XCTAssertEqual(
            source.requests,
            [
                .command(
                    .init(
                        apiName: api.name, arguments: ["gh", "auth", "token", "--hostname", "${NOT_EXPANDED}"],
                        timeout: 5, file: "/t/svc.yaml"))
            ])
    }

    func testBadSettingsAreLocatedErrors() {
        XCTAssertEqual(
            Self.errorLines(
                """
                baseURL: https://api.example.com
                auth: {type: oauth2, tokenURL: "http://auth.example.com/t", clientSecret: "${S:-x}", scopes: read}
                cases:
                  me: {path: /me, sample: ok}
                """),
            """
            t.yaml:2:7: error: missing required key 'clientId' in auth
            t.yaml:2:32: error: tokenURL 'http://auth.example.com/t' uses http to another machine; the client secret would travel unencrypted, use https (http is allowed only to localhost, 127.0.0.0/8 and ::1)
            t.yaml:2:75: error: literal secret in file (the fallback of ${S}); use ${S} without a fallback
            t.yaml:2:94: error: expected a list of scopes, like [read, write], found string "read"
            """)
        XCTAssertEqual(
            Self.errorLines(
                """
                baseURL: https://api.example.com
                auth: {type: command, command: [gh], timeout: 0}
                cases:
                  me: {path: /me, sample: ok}
                """),
            """
            t.yaml:2:47: error: expected a number of seconds greater than 0, found integer 0
            """)
        XCTAssertEqual(
            Self.errorLines(
                """
                baseURL: https://api.example.com
                auth: {type: command, command: [gh]}
                cases:
                  me: {path: /me, auth: bearer, sample: ok}
                """),
            """
            t.yaml:4:25: error: case auth 'bearer' does not match the API's auth type 'command'; write 'command' or 'none'
            """)
    }

    /// The `file:line:column: error:` lines of loading `yaml`, without their snippets.
    static func errorLines(_ yaml: String) -> String {
        SpecTest.errors(yaml).split(separator: "\n").filter { $0.contains(": error: ") }.joined(separator: "\n")
    }
}
