import TargetSpec
import XCTest

/// Case, value, placeholder and auth checks, each asserted with its full rendered diagnostic.
final class SpecCaseValidationTests: XCTestCase {
    func testUnknownCaseKeySuggestsTheClosest() {
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /zen\npth: /zen\nsample: ok")),
            """
            t.yaml:5:5: error: unknown key 'pth' in case 'c'; did you mean 'path'?
                    pth: /zen
                    ^

            """)
    }

    func testMissingPath() {
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "sample: ok")),
            """
            t.yaml:3:3: error: missing required key 'path' in case 'c'; add one starting with '/'
                  c:
                  ^

            """)
    }

    func testPathMustStartWithASlashAndHaveNoQuery() {
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: zen\nsample: ok")),
            """
            t.yaml:4:11: error: a path starts with '/'; write '/zen'
                    path: zen
                          ^

            """)
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /zen?x=1\nsample: ok")),
            """
            t.yaml:4:11: error: a path has no query or fragment; put query parameters in the task ('parameters' with encoding url)
                    path: /zen?x=1
                          ^

            """)
    }

    func testBadCaseName() {
        let yaml = "baseURL: https://a.example\ncases:\n  get-user: {path: /u, sample: ok}\n"
        XCTAssertEqual(
            SpecTest.errors(yaml),
            """
            t.yaml:3:3: error: invalid case name 'get-user'; a case name starts with a letter or '_' and holds letters, digits and '_'
                  get-user: {path: /u, sample: ok}
                  ^

            """)
    }

    func testUnknownMethodSuggestsUpperCase() {
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nmethod: get\nsample: ok")),
            """
            t.yaml:5:13: error: unknown method 'get'; did you mean 'GET'?
                    method: get
                            ^

            """)
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nmethod: POTS\nsample: ok")),
            """
            t.yaml:5:13: error: unknown method 'POTS'; did you mean 'POST'?
                    method: POTS
                            ^

            """)
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nmethod: purge\nsample: ok")),
            """
            t.yaml:5:13: error: a method is written in upper case: 'PURGE'
                    method: purge
                            ^

            """)
    }

    func testAnyMethodNameInUpperCaseIsACasesMethod() throws {
        for method in ["PURGE", "QUERY", "PROPFIND", "REPORT", "M-SEARCH", "FOO", "LINK"] {
            XCTAssertEqual(SpecTest.errors(SpecTest.file(case: "path: /a\nmethod: \(method)\nsample: ok")), "", method)
        }
    }

    func testBadValueNameAndDuplicates() {
        let yaml = SpecTest.file(case: "values: [{1st: string}, {a: int}, {a: string}]\npath: /{a}\nsample: ok")
        XCTAssertEqual(
            SpecTest.errors(yaml),
            """
            t.yaml:4:15: error: invalid value name '1st'; a value name starts with a letter or '_' and holds letters, digits and '_'
                    values: [{1st: string}, {a: int}, {a: string}]
                              ^
            t.yaml:4:40: error: duplicate value 'a' in case 'c'
                    values: [{1st: string}, {a: int}, {a: string}]
                                                       ^

            """)
    }

    func testUnknownValueTypeSuggestsTheClosest() {
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "values: [{name: strng}]\npath: /{name}\nsample: ok")),
            """
            t.yaml:4:21: error: unknown value type 'strng'; did you mean 'string'?
                    values: [{name: strng}]
                                    ^

            """)
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "values: [{name: {type: integer}}]\npath: /{name}\nsample: ok")),
            """
            t.yaml:4:28: error: unknown value type 'integer'; did you mean 'int'?
                    values: [{name: {type: integer}}]
                                           ^

            """)
    }

    func testDefaultsMustHaveTheValuesType() {
        let body = """
            values:
              - per_page: {type: int, default: many}
              - state: {enum: [open, closed], default: all}
              - ratio: {type: double, default: "1.5"}
              - draft: {type: bool, default: yes}
            path: /{per_page}/{state}/{ratio}/{draft}
            sample: ok
            """
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: body)),
            """
            t.yaml:5:40: error: expected an integer, found string "many"
                      - per_page: {type: int, default: many}
                                                       ^
            t.yaml:6:48: error: default 'all' of value 'state' is not one of open, closed
                      - state: {enum: [open, closed], default: all}
                                                               ^
            t.yaml:7:40: error: expected a number, found string "1.5"
                      - ratio: {type: double, default: "1.5"}
                                                       ^
            t.yaml:8:38: error: expected a bool (true or false), found string "yes"
                      - draft: {type: bool, default: yes}
                                                     ^

            """)
    }

    func testValueKeysAndEnumShape() {
        let body =
            "values:\n  - a: {type: string, defualt: x}\n  - b: {enum: []}\n  - c: {}\n  - d: enum\npath: /{a}{b}{c}{d}\nsample: ok"
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: body)),
            """
            t.yaml:5:27: error: unknown key 'defualt' in value 'a' of case 'c'; did you mean 'default'?
                      - a: {type: string, defualt: x}
                                          ^
            t.yaml:6:19: error: an enum needs at least one case
                      - b: {enum: []}
                                  ^
            t.yaml:7:12: error: value 'c' needs a 'type' (string, int, double, bool, file) or an 'enum'
                      - c: {}
                           ^
            t.yaml:8:12: error: an enum value lists its cases: {enum: [a, b]}
                      - d: enum
                           ^

            """)
    }

    func testPlaceholderNamingNoValueSuggestsTheClosest() {
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "values: [{name: string}]\npath: /users/{name}/{nme}\nsample: ok")),
            """
            t.yaml:5:25: error: unknown placeholder '{nme}'; did you mean '{name}'?
                    path: /users/{name}/{nme}
                                        ^

            """)
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /users/{id}\nsample: ok")),
            """
            t.yaml:4:18: error: unknown placeholder '{id}'; case 'c' declares no values
                    path: /users/{id}
                                 ^

            """)
    }

    func testValueNeverUsed() {
        let body = "values: [{name: string}, {page: int}]\npath: /users/{name}\nsample: \"{page}\""
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: body)),
            """
            t.yaml:4:31: error: value 'page' is never used; use it as {page} in the path, headers or task
                    values: [{name: string}, {page: int}]
                                              ^

            """, "a use in samples alone does not count")
    }

    func testFileValueOutsideFilePositions() throws {
        let folder = try SpecTest.temporaryFolder(self)
        let body =
            "values: [{avatar: file}]\npath: /a/{avatar}\nmethod: POST\ntask: {upload: \"{avatar}\"}\nsample: \"{avatar}\""
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: body), directory: folder),
            """
            t.yaml:5:14: error: file value 'avatar' can only be used as a file path (upload, dataFile, multipart file) or in samples
                    path: /a/{avatar}
                             ^

            """)
    }

    func testEnvironmentReferenceInAPath() {
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /v/${VERSION}\nsample: ok")),
            """
            t.yaml:4:14: error: '${VERSION}' is not allowed in a path; environment variables may appear in baseURL, headers, auth and environments (write '$${' for a literal '${')
                    path: /v/${VERSION}
                             ^

            """)
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /v/$${VERSION}\nsample: ok")), "", "$${ is a literal ${")
    }

    func testMalformedEnvironmentReference() {
        XCTAssertEqual(
            SpecTest.errors(
                "baseURL: https://a.example\nheaders: {X-A: \"${1A}\", X-B: \"${OPEN\"}\ncases: {a: {path: /a, sample: ok}}\n"
            ),
            """
            t.yaml:2:17: error: '${1A}' is not a valid environment reference; write ${NAME}, ${NAME:-fallback} or ${secret:NAME} (NAME: letters, digits, _), or '$${' for a literal '${'
                headers: {X-A: "${1A}", X-B: "${OPEN"}
                                ^
            t.yaml:2:31: error: unterminated '${' reference; close it with '}' or write '$${' for a literal '${'
                headers: {X-A: "${1A}", X-B: "${OPEN"}
                                              ^

            """)
    }

    func testHeadersTakeStringsAndValidNames() {
        let body = "path: /a\nheaders: {X-Count: 59, \"Bad Name\": x}\nsample: ok"
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: body)),
            """
            t.yaml:5:24: error: expected a string, found integer 59; quote it to make it a string: "59"
                    headers: {X-Count: 59, "Bad Name": x}
                                       ^
            t.yaml:5:28: error: invalid header name 'Bad Name'; header names are letters, digits and !#$%&'*+-.^_`|~
                    headers: {X-Count: 59, "Bad Name": x}
                                           ^

            """)
    }

    func testLiteralSecretsInAuth() {
        let header = "auth: {type: basic, username: me, password: hunter2}\n"
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nsample: ok", header: header)),
            """
            t.yaml:2:45: error: literal secret in file; use ${VAR} for auth password
                auth: {type: basic, username: me, password: hunter2}
                                                            ^

            """)
        let fallback = "auth: {type: bearer, token: \"${TOKEN:-abc}\"}\n"
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nsample: ok", header: fallback)),
            """
            t.yaml:2:29: error: literal secret in file (the fallback of ${TOKEN}); use ${TOKEN} without a fallback
                auth: {type: bearer, token: "${TOKEN:-abc}"}
                                            ^

            """)
    }

    func testAuthTypeAndKeys() {
        let header = "auth: {type: bearr, token: \"${T}\"}\n"
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nsample: ok", header: header)),
            """
            t.yaml:2:14: error: unknown auth type 'bearr'; did you mean 'bearer'?
                auth: {type: bearr, token: "${T}"}
                             ^

            """)
        let custom = "auth: {type: custom, token: \"${T}\", password: \"${P}\"}\n"
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nsample: ok", header: custom)),
            """
            t.yaml:2:7: error: missing required key 'scheme' in auth
                auth: {type: custom, token: "${T}", password: "${P}"}
                      ^
            t.yaml:2:37: error: auth type 'custom' has no key 'password'; it takes scheme and token
                auth: {type: custom, token: "${T}", password: "${P}"}
                                                    ^

            """)
    }

    func testCaseAuthMustMatchTheAPIs() {
        let basic = "auth: {type: basic, username: \"${U}\", password: \"${P}\"}\n"
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nauth: bearer\nsample: ok", header: basic)),
            """
            t.yaml:6:11: error: case auth 'bearer' does not match the API's auth type 'basic'; write 'basic' or 'none'
                    auth: bearer
                          ^

            """)
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nauth: bearer\nsample: ok")),
            """
            t.yaml:5:11: error: case auth 'bearer' needs the API's auth; add 'auth: {type: bearer, ...}' at the top level, or use 'auth: none'
                    auth: bearer
                          ^

            """)
        XCTAssertEqual(SpecTest.errors(SpecTest.file(case: "path: /a\nauth: none\nsample: ok")), "")
    }

    func testMissingSampleIsAWarningOnly() {
        let result = SpecTest.load(SpecTest.file(case: "path: /a"))
        XCTAssertNotNil(result.api, "a warning does not stop the file from loading")
        XCTAssertEqual(
            result.renderedDiagnostics(),
            """
            t.yaml:3:3: warning: case 'c' has no sample; --stub answers 200 with an empty body
                  c:
                  ^

            """)
    }
}
