import MoyaKit
import TargetModel
import TargetSpec
import XCTest

/// Top-level checks, each asserted with its full rendered diagnostic.
final class SpecAPIValidationTests: XCTestCase {
    private let cases = "cases:\n  zen: {path: /zen, sample: ok}\n"

    func testUnknownTopLevelKeySuggestsTheClosest() {
        XCTAssertEqual(
            SpecTest.errors("baseUrl: https://a.example\n" + cases),
            """
            t.yaml:1:1: error: missing required key 'baseURL' at the top level; add the API's base URL, like 'baseURL: https://api.example.com'
                baseUrl: https://a.example
                ^
            t.yaml:1:1: error: unknown key 'baseUrl' at the top level; did you mean 'baseURL'?
                baseUrl: https://a.example
                ^

            """)
    }

    func testMissingCases() {
        XCTAssertEqual(
            SpecTest.errors("baseURL: https://a.example\n"),
            """
            t.yaml:1:1: error: missing required key 'cases' at the top level; add the API's cases, like 'cases: {zen: {path: /zen}}'
                baseURL: https://a.example
                ^

            """)
    }

    func testEmptyCasesAreAWarning() {
        let result = SpecTest.load("baseURL: https://a.example\ncases: {}\n")
        XCTAssertEqual(result.api?.cases.count, 0)
        XCTAssertEqual(
            result.renderedDiagnostics(),
            """
            t.yaml:2:8: warning: 'cases' is empty; the API has no cases to call
                cases: {}
                       ^

            """)
    }

    func testWrongScalarTypes() {
        let yaml = "baseURL: https://a.example\ntimeout: abc\nconnectTimeout: \"3\"\ndescription: 5\n" + cases
        XCTAssertEqual(
            SpecTest.errors(yaml),
            """
            t.yaml:2:10: error: expected a number, found string "abc"
                timeout: abc
                         ^
            t.yaml:3:17: error: expected a number, found string "3"
                connectTimeout: "3"
                                ^
            t.yaml:4:14: error: expected a string, found integer 5; quote it to make it a string: "5"
                description: 5
                             ^

            """)
    }

    func testTimeoutMustBePositive() {
        XCTAssertEqual(
            SpecTest.errors("baseURL: https://a.example\ntimeout: 0\n" + cases),
            """
            t.yaml:2:10: error: expected a number of seconds greater than 0, found integer 0
                timeout: 0
                         ^

            """)
    }

    func testTimeoutHasAnUpperBound() {
        XCTAssertEqual(
            SpecTest.errors("baseURL: https://a.example\ntimeout: 1e300\n" + cases),
            """
            t.yaml:2:10: error: expected at most 2147483 seconds, found number 1e300
                timeout: 1e300
                         ^

            """)
    }

    func testBaseURLMustBeAbsolute() {
        XCTAssertEqual(
            SpecTest.errors("baseURL: api.github.com\n" + cases),
            """
            t.yaml:1:10: error: baseURL 'api.github.com' is not an absolute URL; write it with its scheme, like https://api.github.com
                baseURL: api.github.com
                         ^

            """)
    }

    func testBaseURLMustBeHTTP() {
        XCTAssertEqual(
            SpecTest.errors("baseURL: ftp://files.example\n" + cases),
            """
            t.yaml:1:10: error: baseURL 'ftp://files.example' uses 'ftp'; only http and https are allowed
                baseURL: ftp://files.example
                         ^

            """)
    }

    func testBaseURLHasNoQueryOrFragment() {
        XCTAssertEqual(
            SpecTest.errors("baseURL: https://a.example/v1?key=1\n" + cases),
            """
            t.yaml:1:10: error: baseURL 'https://a.example/v1?key=1' has a query; put query parameters in a case's task
                baseURL: https://a.example/v1?key=1
                         ^

            """)
        XCTAssertEqual(
            SpecTest.errors("baseURL: 'https://a.example/#top'\n" + cases),
            """
            t.yaml:1:10: error: baseURL 'https://a.example/#top' has a fragment ('#...'); remove it
                baseURL: 'https://a.example/#top'
                         ^

            """)
        // The separators are found in the bytes: a combining mark after `?` or `#` (one
        // character with it) does not hide a query or a fragment, as it did when they were
        // looked for as characters.
        XCTAssertEqual(
            BaseURLCheck.problem(in: "http://host/a?\u{301}"),
            "baseURL 'http://host/a?\u{301}' has a query; put query parameters in a case's task")
        XCTAssertEqual(
            BaseURLCheck.problem(in: "http://host/a#\u{301}"),
            "baseURL 'http://host/a#\u{301}' has a fragment ('#...'); remove it")
        XCTAssertNotNil(BaseURLCheck.problem(in: "http://\u{301}host"))
        XCTAssertNotNil(BaseURLCheck.problem(in: "http:/\u{301}/host"))
        XCTAssertEqual(
            BaseURLCheck.problem(in: "http://ho st"), "baseURL 'http://ho st' contains a space or a control character")
        XCTAssertEqual(
            BaseURLCheck.problem(in: "http://host/\u{2003}"),
            "baseURL 'http://host/\u{2003}' contains a space or a control character")
        XCTAssertEqual(
            BaseURLCheck.problem(in: "http://host/\u{7F}"),
            "baseURL 'http://host/\u{7F}' contains a space or a control character")
    }

    func testBaseURLWithEnvironmentReferenceIsCheckedAsFarAsPossible() {
        XCTAssertEqual(SpecTest.errors("baseURL: https://${HOST}/v1\n" + cases), "")
        XCTAssertEqual(SpecTest.errors("baseURL: ${BASE_URL}\n" + cases), "", "checked once rendered")
        XCTAssertEqual(
            SpecTest.errors("baseURL: https://${HOST}/v1?x=1\n" + cases),
            """
            t.yaml:1:10: error: baseURL 'https://${HOST}/v1?x=1' has a query; put query parameters in a case's task
                baseURL: https://${HOST}/v1?x=1
                         ^

            """)
        XCTAssertEqual(BaseURLCheck.problem(in: "https://"), "baseURL 'https://' has no host")
        XCTAssertNil(BaseURLCheck.problem(in: "HTTPS://user@host.example:8443/v1/"))
        XCTAssertEqual(BaseURLCheck.problem(in: "http://:8080/v1"), "baseURL 'http://:8080/v1' has no host")
        XCTAssertEqual(BaseURLCheck.problem(in: "http://user@:8080"), "baseURL 'http://user@:8080' has no host")
    }

    func testBaseURLWithReferenceInPortOrHostIsAccepted() {
        for baseURL in [
            "http://127.0.0.1:${PORT}", "http://127.0.0.1:${HTTPBIN_PORT:-8080}/v1",
            "https://${TENANT:-demo}.example.com",
            "http://${HOST}:${PORT}/api", "https://api.example.com/${VERSION}", "http://[::1]:${PORT}"
        ] {
            XCTAssertEqual(SpecTest.errors("baseURL: \"\(baseURL)\"\n" + cases), "", baseURL)
        }
    }

    func testBaseURLWithReferenceStillRejectsBadLiteralParts() {
        XCTAssertEqual(
            SpecTest.errors("baseURL: \"ftp://files.example:${PORT}\"\n" + cases),
            """
            t.yaml:1:10: error: baseURL 'ftp://files.example:${PORT}' uses 'ftp'; only http and https are allowed
                baseURL: "ftp://files.example:${PORT}"
                         ^

            """)
        XCTAssertEqual(
            SpecTest.errors("baseURL: \"http://:${PORT}\"\n" + cases),
            """
            t.yaml:1:10: error: baseURL 'http://:${PORT}' has no host
                baseURL: "http://:${PORT}"
                         ^

            """)
        XCTAssertEqual(
            SpecTest.errors("baseURL: \"http://${HOST}:${PORT}/a b\"\n" + cases),
            """
            t.yaml:1:10: error: baseURL 'http://${HOST}:${PORT}/a b' contains a space or a control character
                baseURL: "http://${HOST}:${PORT}/a b"
                         ^

            """)
        XCTAssertEqual(
            SpecTest.errors("baseURL: \"https://${HOST}/#top\"\n" + cases),
            """
            t.yaml:1:10: error: baseURL 'https://${HOST}/#top' has a fragment ('#...'); remove it
                baseURL: "https://${HOST}/#top"
                         ^

            """)
    }

    func testBadAPIName() {
        XCTAssertEqual(
            SpecTest.errors("api: 1github\nbaseURL: https://a.example\n" + cases),
            """
            t.yaml:1:6: error: invalid API name '1github'; an API name starts with a letter and holds letters, digits, '_' and '-'
                api: 1github
                     ^

            """)
        XCTAssertEqual(
            SpecTest.errors("baseURL: https://a.example\n" + cases, file: "dir/my api.yaml"),
            """
            dir/my api.yaml:1:1: error: the file name 'my api.yaml' does not make a valid API name; add 'api: NAME' (a letter, then letters, digits, '_' and '-')
                baseURL: https://a.example
                ^

            """)
    }

    func testValidationNamesAndCodes() {
        XCTAssertEqual(
            SpecTest.errors("baseURL: https://a.example\nvalidation: successCode\n" + cases),
            """
            t.yaml:2:13: error: unknown validation 'successCode'; did you mean 'successCodes'?
                validation: successCode
                            ^

            """)
        XCTAssertEqual(
            SpecTest.errors("baseURL: https://a.example\nvalidation: [200, 700]\n" + cases),
            """
            t.yaml:2:19: error: status code 700 is out of range (100...599)
                validation: [200, 700]
                                  ^

            """)
    }

    /// Written `none` and `[]` are Moya's "no validation", told apart from an absent key.
    func testNoneAndAnEmptyListAreKeptApartFromNothingWritten() throws {
        let none = try XCTUnwrap(SpecTest.load("baseURL: https://a.example\nvalidation: none\n" + cases).api)
        XCTAssertEqual(none.validation, ValidationSpec.none)
        let empty = try XCTUnwrap(SpecTest.load("baseURL: https://a.example\nvalidation: []\n" + cases).api)
        XCTAssertEqual(empty.validation, .customCodes([]))
        XCTAssertEqual(
            ValidationType.customCodes([]).accepts(statusCode: 500), true, "Moya: no codes listed, none checked")
        let absent = try XCTUnwrap(SpecTest.load("baseURL: https://a.example\n" + cases).api)
        XCTAssertNil(absent.validation)
    }

    func testDefaultEnvironmentMustNameAnEnvironment() {
        let yaml = """
            baseURL: https://a.example
            environments:
              production: {baseURL: https://a.example}
              staging: {baseURL: https://staging.example, variables: {TENANT: t}}
            defaultEnvironment: prod
            """ + "\n" + cases
        XCTAssertEqual(
            SpecTest.errors(yaml),
            """
            t.yaml:5:21: error: defaultEnvironment 'prod' names no environment; did you mean 'production'?
                defaultEnvironment: prod
                                    ^

            """)
        XCTAssertEqual(
            SpecTest.errors("baseURL: https://a.example\ndefaultEnvironment: prod\n" + cases),
            """
            t.yaml:2:21: error: defaultEnvironment 'prod' names no environment; there are no environments
                defaultEnvironment: prod
                                    ^

            """)
    }

    func testEnvironmentKeysAndBaseURL() {
        let yaml =
            "baseURL: https://a.example\nenvironments:\n  staging: {baseUrl: https://s.example, variables: {TENANT: \"{x}\"}}\n"
            + cases
        XCTAssertEqual(
            SpecTest.errors(yaml),
            """
            t.yaml:3:13: error: unknown key 'baseUrl' in environment 'staging'; did you mean 'baseURL'?
                  staging: {baseUrl: https://s.example, variables: {TENANT: "{x}"}}
                            ^
            t.yaml:3:62: error: placeholder '{x}' is not allowed in an environment; placeholders may appear in a case's path, headers, task and samples (write '{{' for a literal '{')
                  staging: {baseUrl: https://s.example, variables: {TENANT: "{x}"}}
                                                                             ^

            """)
    }

    func testMergeKeysAreUnknownKeys() {
        let yaml = "base: &base {path: /a}\nbaseURL: https://a.example\ncases:\n  a:\n    <<: *base\n    sample: ok\n"
        XCTAssertTrue(
            SpecTest.errors(yaml).contains(
                """
                t.yaml:5:5: error: unknown key '<<' in case 'a'; merge keys are not supported, repeat the keys instead
                """), SpecTest.errors(yaml))
    }

    func testRootMustBeAMap() {
        XCTAssertEqual(
            SpecTest.errors("- a\n- b\n"),
            """
            t.yaml:1:1: error: expected a map with 'baseURL' and 'cases' (a target file), found a list
                - a
                ^

            """)
    }

    func testEveryProblemIsReportedNotJustTheFirst() {
        let yaml = """
            baseURL: ftp://x
            timeout: soon
            cases:
              a: {pth: /a}
              b: {path: b, method: get}
            """
        let errors = SpecTest.load(yaml).diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(
            errors.map { "\($0.mark!) \($0.message.prefix(20))" },
            [
                "1:10 baseURL 'ftp://x' us",
                "2:10 expected a number, f",
                "4:3 missing required key",
                "4:7 unknown key 'pth' in",
                "5:13 a path starts with '",
                "5:24 unknown method 'get'"
            ])
    }
}
