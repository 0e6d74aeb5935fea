import MoyaKit
import Sending
import TargetSpec
import XCTest

@testable import moya_cli

/// `check` makes its redactors once for each set of secrets (`RedactorCache`), and gives every
/// target without secrets of its own one shared redactor (`SecretRedactor(request:)`): each must
/// be the very redactor the target would get, and targets with other secrets never share one.
final class RedactorSharingTests: XCTestCase {
    private func target(_ yaml: String, environment: [String: String] = [:]) throws -> DynamicTarget {
        let loaded = TargetFileLoader.load(text: yaml, file: "t.yaml")
        XCTAssertEqual(loaded.diagnostics.filter { $0.severity == .error }.map(\.message), [])
        let api = try XCTUnwrap(loaded.api)
        return try TargetBuilder(api: api, processEnvironment: environment).target(
            for: try XCTUnwrap(api.cases.first), arguments: [:])
    }

    func testATargetWithoutSecretsGetsTheSharedRedactor() throws {
        var request = RequestOptions()
        request.baseURL = "http://alice:base-pass-123@127.0.0.1:1"
        request.proxy = "http://bob:proxy-pass-123@127.0.0.1:9"
        let plain = try target(
            """
            api: api
            baseURL: https://example.com
            headers: {Accept: application/json}
            cases:
              one: {path: /a, sample: ok}
            """)
        XCTAssertFalse(plain.hasOwnSecrets)
        for showSecrets in [false, true] {
            request.showSecrets = showSecrets
            XCTAssertEqual(SecretRedactor(request: request), SecretRedactor(target: plain, request: request))
        }
        XCTAssertEqual(
            SecretRedactor(request: request).redact("base-pass-123 proxy-pass-123"), "base-pass-123 proxy-pass-123",
            "--show-secrets shows them")
        request.showSecrets = false
        XCTAssertEqual(SecretRedactor(request: request).redact("base-pass-123 proxy-pass-123"), "<redacted> <redacted>")
    }

    func testTargetsWithSecretsGetTheirOwn() throws {
        let request = RequestOptions()
        let files = [
            // A ${secret:} value.
            """
            api: api
            baseURL: https://example.com
            cases:
              one: {path: /a, headers: {X-Token: "${secret:TOKEN}"}, sample: ok}
            """,
            // A credential.
            """
            api: api
            baseURL: https://example.com
            auth: {type: bearer, token: "${TOKEN}"}
            cases:
              one: {path: /a, sample: ok}
            """,
            // A header marked sensitive.
            """
            api: api
            baseURL: https://example.com
            sensitiveHeaders: [X-Session-Id]
            headers: {X-Session-Id: literal-session}
            cases:
              one: {path: /a, sample: ok}
            """
        ]
        for yaml in files {
            let secret = try target(yaml, environment: ["TOKEN": "token-value-123"])
            XCTAssertTrue(secret.hasOwnSecrets, yaml)
            XCTAssertNotEqual(SecretRedactor(request: request), SecretRedactor(target: secret, request: request), yaml)
        }
    }

    func testCheckGivesEachTargetTheRedactorItsSecretsMake() throws {
        var request = RequestOptions()
        request.baseURL = "http://alice:base-pass-123@127.0.0.1:1"
        let redactors = RedactorCache(Redaction(request: request))
        let bearer = """
            api: api
            baseURL: https://example.com
            auth: {type: bearer, token: "${secret:TOKEN}"}
            cases:
              one: {path: /a, sample: ok}
            """
        let plain = """
            api: api
            baseURL: https://example.com
            cases:
              one: {path: /a, sample: ok}
            """
        let first = try target(bearer, environment: ["TOKEN": "first-token-1"])
        let second = try target(bearer, environment: ["TOKEN": "second-token-2"])
        for _ in 0..<2 {
            for target in [first, second, try target(plain)] {
                XCTAssertEqual(redactors.redactor(for: target), SecretRedactor(target: target, request: request))
            }
        }
        XCTAssertEqual(
            redactors.redactor(for: first).redact("first-token-1 second-token-2 base-pass-123"),
            "<redacted> second-token-2 <redacted>")
        XCTAssertEqual(
            redactors.redactor(for: second).redact("first-token-1 second-token-2"), "first-token-1 <redacted>")
        // Past the sets kept, redactors are still the targets' own.
        for index in 0..<(RedactorCache.capacity + 5) {
            var many = first
            many.secretValues = ["secret-number-\(index)"]
            XCTAssertEqual(redactors.redactor(for: many).redact("secret-number-\(index)"), "<redacted>")
        }
        XCTAssertEqual(redactors.redactor(for: first), SecretRedactor(target: first, request: request))
    }
}
