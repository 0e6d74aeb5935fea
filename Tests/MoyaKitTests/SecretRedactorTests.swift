import MoyaKit
import XCTest

/// Issue 11, item 4: secrets are matched whole, longest first, in one pass, in every form.
final class SecretRedactorTests: XCTestCase {
    func testASecretInsideAnotherAndThePlaceholderAreNotMangled() {
        let redactor = SecretRedactor(secretValues: ["dact", "long-secret-dact-value", "acted"])
        // Leftmost first, then the longest there: "dact" in "redacted" wins over "acted".
        XCTAssertEqual(
            redactor.redact("a long-secret-dact-value, a dact, redacted"), "a <redacted>, a <redacted>, re<redacted>ed")
        // The placeholder itself is never searched again.
        XCTAssertFalse(redactor.redact("dact").contains("<re<"))
    }

    func testShortValuesAreNotSearchedForButSensitiveHeadersAreHiddenWhole() {
        let redactor = SecretRedactor(
            sensitiveHeaderNames: SecretRedactor.defaultSensitiveHeaderNames.union(["x-pin"]),
            secretValues: ["123"])
        XCTAssertEqual(redactor.redact("/items/1234"), "/items/1234")
        XCTAssertEqual(redactor.redact(headerValue: "123", name: "X-Pin"), "<redacted>")
        XCTAssertEqual(redactor.redact(headerValue: "Bearer abc", name: "Authorization"), "Bearer <redacted>")
    }

    func testPercentEncodedFormsInEitherCase() {
        let redactor = SecretRedactor(secretValues: ["a/b c@d"])
        for text in ["q=a%2Fb%20c%40d", "q=a%2fb%20c%40d", "q=a%2Fb+c%40d", "q=a/b%20c@d", "q=a/b+c@d"] {
            XCTAssertEqual(redactor.redact(text), "q=<redacted>", text)
        }
    }

    func testJSONEscapedForms() {
        let secret = "tok\"en/ö<&\\"
        let redactor = SecretRedactor(secretValues: [secret])
        let bodies = [
            #"{"t":"tok\"en/ö<&\\"}"#,
            #"{"t":"tok\"en\/ö<&\\"}"#,
            #"{"t":"tok\"en/\u00f6<&\\"}"#,
            #"{"t":"tok\"en\/\u00F6<&\\"}"#,
            #"{"t":"tok\"en/\u00f6\u003c\u0026\\"}"#
        ]
        for body in bodies {
            XCTAssertEqual(redactor.redact(body), #"{"t":"<redacted>"}"#, body)
        }
        let astral = SecretRedactor(secretValues: ["key-😀-x"])
        XCTAssertEqual(astral.redact(#""key-\ud83d\ude00-x""#), #""<redacted>""#)
    }

    func testShowingSecretsHidesNothing() {
        let redactor = SecretRedactor(secretValues: ["secret-value"], showsSecrets: true)
        XCTAssertEqual(redactor.redact("secret-value"), "secret-value")
    }
}
