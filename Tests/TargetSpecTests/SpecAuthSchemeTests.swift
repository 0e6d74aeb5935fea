import MoyaKit
import TargetModel
import TargetSpec
import XCTest

/// Several auth schemes per API: `auth: {default: NAME, schemes: {...}}` and a case's `auth: NAME`.
final class SpecAuthSchemeTests: XCTestCase {
    private static let schemes = """
        auth:
          default: bearer
          schemes:
            bearer: {type: bearer, token: "${secret:T}"}
            basic: {type: basic, username: "${U}", password: "${secret:P}"}

        """

    private static let yaml =
        "baseURL: https://example.com\n" + schemes + """
            cases:
              me: {path: /me, sample: ok}
              login: {path: /login, auth: basic, sample: ok}
              open: {path: /open, auth: none, sample: ok}
            """

    func testEachCaseSendsItsScheme() throws {
        let result = SpecTest.load(Self.yaml)
        XCTAssertEqual(result.renderedDiagnostics(), "")
        let api = try XCTUnwrap(result.api)
        XCTAssertEqual(api.authSchemes.map(\.name), ["bearer", "basic"])
        XCTAssertEqual(api.cases.map(\.auth), [.inherited, .scheme("basic"), CaseAuthMode.none])
        let builder = TargetBuilder(api: api, processEnvironment: ["T": "tok", "U": "me", "P": "pw"])
        let me = try builder.target(for: api.cases[0], arguments: [:])
        XCTAssertEqual(me.authorizationType, .bearer)
        XCTAssertEqual(me.credential, "tok")
        let login = try builder.target(for: api.cases[1], arguments: [:])
        XCTAssertEqual(login.authorizationType, .basic)
        XCTAssertEqual(login.credential, Data("me:pw".utf8).base64EncodedString())
        XCTAssertEqual(login.secretValues.contains("pw"), true)
        let open = try builder.target(for: api.cases[2], arguments: [:])
        XCTAssertNil(open.authorizationType)
    }

    func testWithoutADefaultOnlyCasesNamingASchemeSendOne() throws {
        let yaml = Self.yaml.replacingOccurrences(of: "  default: bearer\n", with: "")
        let api = try XCTUnwrap(SpecTest.load(yaml).api)
        XCTAssertNil(
            try TargetBuilder(api: api, processEnvironment: [:]).target(for: api.cases[0], arguments: [:])
                .authorizationType)
    }

    func testTheOneSchemeFormStillWorks() throws {
        let yaml =
            "baseURL: https://example.com\nauth: {type: bearer, token: \"${T}\"}\ncases:\n  a: {path: /a, auth: bearer, sample: ok}\n"
        let api = try XCTUnwrap(SpecTest.load(yaml).api)
        XCTAssertEqual(api.authSchemes.map(\.name), ["bearer"])
        XCTAssertEqual(api.cases[0].auth, .explicit(.bearer))
        XCTAssertEqual(
            try TargetBuilder(api: api, processEnvironment: ["T": "t"]).target(for: api.cases[0], arguments: [:])
                .credential, "t")
    }

    func testUnknownSchemesSuggestTheClosest() {
        XCTAssertEqual(
            SpecTest.errors(Self.yaml.replacingOccurrences(of: "auth: basic", with: "auth: basik")),
            """
            t.yaml:9:31: error: unknown auth scheme 'basik'; did you mean 'basic'?
                  login: {path: /login, auth: basik, sample: ok}
                                              ^

            """)
        XCTAssertEqual(
            SpecTest.errors(Self.yaml.replacingOccurrences(of: "default: bearer", with: "default: beaver")),
            """
            t.yaml:3:12: error: unknown default auth scheme 'beaver'; did you mean 'bearer'?
                  default: beaver
                           ^

            """)
    }

    func testSchemesKeepTheSecretRulesAndNames() {
        let yaml = """
            baseURL: https://example.com
            auth:
              schemes:
                none: {type: bearer, token: "${T}"}
                basic: {type: basic, username: u, password: hunter2}
            cases:
              a: {path: /a, sample: ok}
            """
        XCTAssertEqual(
            SpecTest.errors(yaml),
            """
            t.yaml:4:5: error: invalid auth scheme name 'none'; a scheme name starts with a letter or '_', holds letters, digits and '_', and is not 'none'
                    none: {type: bearer, token: "${T}"}
                    ^
            t.yaml:5:49: error: literal secret in file; use ${VAR} for auth password
                    basic: {type: basic, username: u, password: hunter2}
                                                                ^

            """)
    }
}
