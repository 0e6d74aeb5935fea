import CLITestSupport
import Foundation
import XCTest

/// `moya-cli validate [FILE...]`, run as a user would: the summary on stdout, every diagnostic
/// on stderr rendered in full (`file:line:col`, the source line, a caret), exit 0, 64 or 65.
final class ValidateCommandTests: XCTestCase {
    private var sandbox: Sandbox!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
    }

    override func tearDown() {
        sandbox = nil
    }

    func testValidFileExitsZeroWithTheSummaryLine() throws {
        try sandbox.write("shop.yaml", Fixture.shop)
        try sandbox.write("weather.yaml", Fixture.weather)
        assertRun(
            try sandbox.run(["validate", "shop.yaml", "weather.yaml"]), status: 0,
            stdout: """
                shop.yaml: ok (API 'shop', 3 cases)
                weather.yaml: ok (API 'weather', 1 case)

                """, stderr: "")
    }

    func testFileWithSeveralErrorsReportsEveryOneInFull() throws {
        try sandbox.write(
            "several.yaml",
            """
            api: shop
            descripton: A shop
            auth: {type: bearer, token: hunter2}
            cases:
              product:
                values:
                  - id: int
                  - verbose: {type: bool, default: maybe}
                path: /products/{idd}
                method: get
                sample: {status: 200}
                samples:
                  ok: {status: 200}
              search:
                values:
                  - q: string
                path: /search
                task: {json: {q: "{q}"}}
                sample: ""
                examples:
                  - [shoes, extra]

            """)
        assertRun(
            try sandbox.run(["validate", "several.yaml"]), status: 65,
            stdout: """
                several.yaml: invalid (10 errors)

                """,
            stderr: """
                several.yaml:1:1: error: missing required key 'baseURL' at the top level; add the API's base URL, like 'baseURL: https://api.example.com'
                    api: shop
                    ^
                several.yaml:2:1: error: unknown key 'descripton' at the top level; did you mean 'description'?
                    descripton: A shop
                    ^
                several.yaml:3:29: error: literal secret in file; use ${VAR} for auth token
                    auth: {type: bearer, token: hunter2}
                                                ^
                several.yaml:7:9: error: value 'id' is never used; use it as {id} in the path, headers or task
                          - id: int
                            ^
                several.yaml:8:40: error: expected a bool (true or false), found string "maybe"
                          - verbose: {type: bool, default: maybe}
                                                           ^
                several.yaml:9:21: error: unknown placeholder '{idd}'; did you mean '{id}'?
                        path: /products/{idd}
                                        ^
                several.yaml:10:13: error: unknown method 'get'; did you mean 'GET'?
                        method: get
                                ^
                several.yaml:12:5: error: a case has either 'sample' or 'samples', not both
                        samples:
                        ^
                several.yaml:18:12: error: a GET request cannot carry a body; 'json' sends one; use POST, PUT or PATCH
                        task: {json: {q: "{q}"}}
                               ^
                several.yaml:21:17: error: example 1 of case 'search': too many values: 'search' takes 1 (q), 2 given
                          - [shoes, extra]
                                    ^
                moya-cli: error: 10 errors in target files

                """)
    }

    /// One format error of FORMAT.md per file, each run through the binary on its own.
    func testEachFormatErrorEndToEnd() throws {
        let base = "baseURL: https://a.example\ncases:\n"
        let cases: [(name: String, yaml: String, diagnostics: String)] = [
            (
                "unknown-key", base + "  zen:\n    pth: /zen\n    sample: \"\"\n",
                """
                unknown-key.yaml:3:3: error: missing required key 'path' in case 'zen'; add one starting with '/'
                      zen:
                      ^
                unknown-key.yaml:4:5: error: unknown key 'pth' in case 'zen'; did you mean 'path'?
                        pth: /zen
                        ^
                """
            ),
            (
                "missing-base-url", "cases:\n  zen: {path: /zen, sample: \"\"}\n",
                """
                missing-base-url.yaml:1:1: error: missing required key 'baseURL' at the top level; add the API's base URL, like 'baseURL: https://api.example.com'
                    cases:
                    ^
                """
            ),
            (
                "bad-placeholder",
                base + "  user:\n    values:\n      - name: string\n    path: /users/{nme}\n    sample: \"\"\n",
                """
                bad-placeholder.yaml:5:9: error: value 'name' is never used; use it as {name} in the path, headers or task
                          - name: string
                            ^
                bad-placeholder.yaml:6:18: error: unknown placeholder '{nme}'; did you mean '{name}'?
                        path: /users/{nme}
                                     ^
                """
            ),
            (
                "unused-value",
                base
                    + "  user:\n    values:\n      - name: string\n      - extra: int\n    path: /users/{name}\n    sample: \"\"\n",
                """
                unused-value.yaml:6:9: error: value 'extra' is never used; use it as {extra} in the path, headers or task
                          - extra: int
                            ^
                """
            ),
            (
                "body-on-get", base + "  zen:\n    path: /zen\n    task: {data: hello}\n    sample: \"\"\n",
                """
                body-on-get.yaml:5:12: error: a GET request cannot carry a body; 'data' sends one; use POST, PUT or PATCH
                        task: {data: hello}
                               ^
                """
            ),
            (
                "bad-method", base + "  zen:\n    path: /zen\n    method: FETCH\n    sample: \"\"\n",
                """
                bad-method.yaml:5:13: error: unknown method 'FETCH'; did you mean 'PATCH'?
                        method: FETCH
                                ^
                """
            ),
            (
                "bad-default",
                base
                    + "  list:\n    values:\n      - page: {type: int, default: first}\n      - state: {enum: [open, closed], default: all}\n"
                    + "    path: /list/{page}/{state}\n    sample: \"\"\n",
                """
                bad-default.yaml:5:36: error: expected an integer, found string "first"
                          - page: {type: int, default: first}
                                                       ^
                bad-default.yaml:6:48: error: default 'all' of value 'state' is not one of open, closed
                          - state: {enum: [open, closed], default: all}
                                                                   ^
                """
            ),
            (
                "literal-secret",
                "baseURL: https://a.example\nauth: {type: basic, username: me, password: hunter2}\ncases:\n  zen: {path: /zen, sample: \"\"}\n",
                """
                literal-secret.yaml:2:45: error: literal secret in file; use ${VAR} for auth password
                    auth: {type: basic, username: me, password: hunter2}
                                                                ^
                """
            ),
            (
                "secret-fallback",
                "baseURL: https://a.example\nauth: {type: bearer, token: \"${TOKEN:-abc}\"}\ncases:\n  zen: {path: /zen, sample: \"\"}\n",
                """
                secret-fallback.yaml:2:29: error: literal secret in file (the fallback of ${TOKEN}); use ${TOKEN} without a fallback
                    auth: {type: bearer, token: "${TOKEN:-abc}"}
                                                ^
                """
            ),
            (
                "sample-and-samples",
                base + "  zen:\n    path: /zen\n    sample: \"\"\n    samples:\n      ok: {status: 200}\n",
                """
                sample-and-samples.yaml:6:5: error: a case has either 'sample' or 'samples', not both
                        samples:
                        ^
                """
            ),
            (
                "bad-example",
                base + "  user:\n    values:\n      - id: int\n      - state: {enum: [open, closed], default: open}\n"
                    + "    path: /users/{id}/{state}\n    sample: \"\"\n    examples:\n      - [abc]\n      - {id: 1, state: all}\n      - {state: open}\n",
                """
                bad-example.yaml:10:10: error: example 1 of case 'user': 'abc' is not an int for value 'id'
                          - [abc]
                             ^
                bad-example.yaml:11:24: error: example 2 of case 'user': 'all' is not one of open, closed for value 'state'
                          - {id: 1, state: all}
                                           ^
                bad-example.yaml:12:9: error: example 3 of case 'user': missing value 'id' (int)
                          - {state: open}
                            ^
                """
            ),
            (
                "bad-value-type",
                base + "  user:\n    values:\n      - id: integer\n    path: /users/{id}\n    sample: \"\"\n",
                """
                bad-value-type.yaml:5:13: error: unknown value type 'integer'; did you mean 'int'?
                          - id: integer
                                ^
                """
            ),
            (
                "variable-in-path", base + "  user:\n    path: /users/${USER}\n    sample: \"\"\n",
                """
                variable-in-path.yaml:4:18: error: '${USER}' is not allowed in a path; environment variables may appear in baseURL, headers, auth and environments (write '$${' for a literal '${')
                        path: /users/${USER}
                                     ^
                """
            ),
            (
                "two-bodies",
                base
                    + "  post:\n    path: /post\n    method: POST\n    task: {data: a, json: {b: 1}}\n    sample: \"\"\n",
                """
                two-bodies.yaml:6:21: error: a task has exactly one of data, dataFile, json, parameters, upload, multipart, download (download may add parameters); found 'data' and 'json'
                        task: {data: a, json: {b: 1}}
                                        ^
                """
            ),
            (
                "bad-sample-error", base + "  zen:\n    path: /zen\n    sample: {error: timedOut}\n",
                """
                bad-sample-error.yaml:5:21: error: unknown error kind 'timedOut'; did you mean 'timeout'?
                        sample: {error: timedOut}
                                        ^
                """
            ),
            (
                "base-url-not-absolute", "baseURL: api.example.com\ncases:\n  zen: {path: /zen, sample: \"\"}\n",
                """
                base-url-not-absolute.yaml:1:10: error: baseURL 'api.example.com' is not an absolute URL; write it with its scheme, like https://api.example.com
                    baseURL: api.example.com
                             ^
                """
            ),
            (
                "duplicate-key", base + "  zen: {path: /zen, sample: \"\"}\n  zen: {path: /zen2, sample: \"\"}\n",
                """
                duplicate-key.yaml:4:3: error: duplicate key 'zen' (first defined at 3:3)
                      zen: {path: /zen2, sample: ""}
                      ^
                """
            ),
            // The mark is on the line after the last one, shown empty.
            (
                "yaml-syntax", base + "  zen: {path: /zen\n",
                "yaml-syntax.yaml:4:1: error: invalid YAML: did not find expected ',' or '}' (while parsing a flow mapping at 3:8)\n    \n    ^"
            )
        ]
        for (name, yaml, diagnostics) in cases {
            try sandbox.write("\(name).yaml", yaml)
            let errors = diagnostics.components(separatedBy: ": error: ").count - 1
            let plural = errors == 1 ? "" : "s"
            assertRun(
                try sandbox.run(["validate", "\(name).yaml"]), status: 65,
                stdout: "\(name).yaml: invalid (\(errors) error\(plural))\n",
                stderr: diagnostics + "\nmoya-cli: error: \(errors) error\(plural) in target files\n")
        }
    }

    func testWarningsOnlyExitZeroWithTheWarningPrinted() throws {
        try sandbox.write(
            "quiet.yaml", "baseURL: https://q.example\ncases:\n  hush: {path: /hush}\n  ping: {path: /ping}\n")
        assertRun(
            try sandbox.run(["validate", "quiet.yaml"]), status: 0,
            stdout: """
                quiet.yaml: ok (API 'quiet', 2 cases, 2 warnings)

                """,
            stderr: """
                quiet.yaml:3:3: warning: case 'hush' has no sample; --stub answers 200 with an empty body
                      hush: {path: /hush}
                      ^
                quiet.yaml:4:3: warning: case 'ping' has no sample; --stub answers 200 with an empty body
                      ping: {path: /ping}
                      ^

                """)
    }

    func testNonUTF8AndBinaryFilesAreRejected() throws {
        try sandbox.write(
            "latin1.yaml", bytes: Array("baseURL: https://a.example\ndescription: caf".utf8) + [0xE9, 0x0A])
        try sandbox.write("binary.yaml", bytes: Array("baseURL: https://a.example\n".utf8) + [0x00, 0x01, 0x02, 0x0A])
        assertRun(
            try sandbox.run(["validate", "latin1.yaml", "binary.yaml"]), status: 65,
            stdout: """
                latin1.yaml: invalid (1 error)
                binary.yaml: invalid (1 error)

                """,
            stderr: """
                binary.yaml: error: file contains binary data (byte 0x00 at 2:1)
                latin1.yaml: error: file is not valid UTF-8 (byte 0xE9 at 2:17); save it as UTF-8
                moya-cli: error: 2 errors in target files

                """)
    }

    func testMissingFileArgumentIsAUsageErrorBeforeAnythingIsValidated() throws {
        try sandbox.write("shop.yaml", Fixture.shop)
        assertRun(
            try sandbox.run(["validate", "shop.yaml", "nope.yaml"]), status: 64, stdout: "",
            stderr: """
                moya-cli: error: no such file: nope.yaml

                """)
    }

    func testFolderArgumentValidatesItsTargetFiles() throws {
        try sandbox.write("apis/shop.yaml", Fixture.shop)
        try sandbox.write("apis/broken.yml", Fixture.broken)
        try sandbox.write("apis/notes.txt", "not a target file")
        assertRun(
            try sandbox.run(["validate", "apis", "apis/shop.yaml"]), status: 65,
            stdout: """
                apis/broken.yml: invalid (2 errors)
                apis/shop.yaml: ok (API 'shop', 3 cases)

                """,
            stderr: Fixture.brokenDiagnostics("apis/broken.yml") + """
                moya-cli: error: 2 errors in target files

                """)
        try FileManager.default.createDirectory(atPath: sandbox.path("empty"), withIntermediateDirectories: true)
        assertRun(
            try sandbox.run(["validate", "empty"]), status: 64, stdout: "",
            stderr: """
                moya-cli: error: no target files (*.yaml, *.yml) in folder empty

                """)
    }

    func testWithoutArgumentsValidatesEverythingDiscovered() throws {
        try sandbox.write("targets/shop.yaml", Fixture.shop)
        try sandbox.write("targets/broken.yaml", Fixture.broken)
        try sandbox.write("targets/9lives.yaml", Fixture.weather)  // no valid API name
        try sandbox.write("more/extra.yaml", Fixture.api("extra"))
        try sandbox.write("home/.config/moya/targets/shop.yaml", Fixture.api("shop"))
        let userFile = sandbox.path("home/.config/moya/targets/shop.yaml")
        assertRun(
            try sandbox.run(["validate", "--targets", "more"]), status: 65,
            stdout: """
                more/extra.yaml: ok (API 'extra', 1 case)
                targets/9lives.yaml: invalid (1 error)
                targets/broken.yaml: invalid (2 errors)
                targets/shop.yaml: ok (API 'shop', 3 cases)
                \(userFile): ok (API 'shop', 1 case)

                """,
            stderr: """
                targets/9lives.yaml:1:1: error: the file name '9lives.yaml' does not make a valid API name; add 'api: NAME' (a letter, then letters, digits, '_' and '-')
                    baseURL: https://weather.example
                    ^

                """ + Fixture.brokenDiagnostics("targets/broken.yaml") + """
                    moya-cli: error: 3 errors in target files

                    """)
    }

    func testWithoutArgumentsAndNothingFoundSaysWhereItLooked() throws {
        let result = try sandbox.run(["validate"])
        assertRun(
            result, status: 0, stdout: "",
            stderr: """
                moya-cli: warning: no target files found; searched: ./targets (missing), \(sandbox.home.path)/.config/moya/targets (user configuration, missing), \(Self.shareFolder) (share folder, missing)

                """)
    }

    func testBaseURLWithAVariableInThePortIsValid() throws {
        try sandbox.write(
            "local.yaml",
            """
            baseURL: "http://127.0.0.1:${PORT}/v1"
            environments:
              dev: {baseURL: "http://${DEV_HOST:-localhost}:${DEV_PORT:-8080}"}
            cases:
              ping: {path: /ping, sample: pong}

            """)
        assertRun(
            try sandbox.run(["validate", "local.yaml"]), status: 0,
            stdout: """
                local.yaml: ok (API 'local', 1 case)

                """, stderr: "")
        try sandbox.write(
            "query.yaml",
            "baseURL: \"http://127.0.0.1:${PORT}/v1?debug=1\"\ncases:\n  ping: {path: /ping, sample: pong}\n")
        assertRun(
            try sandbox.run(["validate", "query.yaml"]), status: 65, stdout: "query.yaml: invalid (1 error)\n",
            stderr: """
                query.yaml:1:10: error: baseURL 'http://127.0.0.1:${PORT}/v1?debug=1' has a query; put query parameters in a case's task
                    baseURL: "http://127.0.0.1:${PORT}/v1?debug=1"
                             ^
                moya-cli: error: 1 error in target files

                """)
    }

    /// The example targets shipped in the repository validate with no variable set.
    func testShippedTargetsAreValid() throws {
        let folder = CLIRunner.repositoryRoot.appendingPathComponent("targets").path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }
            .sorted()
        XCTAssertEqual(names, ["github.yaml", "httpbin-oauth.yaml", "httpbin-token.yaml", "httpbin.yaml"])
        let result = try sandbox.run(["validate", "--targets", folder])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, names.count, result.stdout)
        for (line, name) in zip(lines, names) {
            let api = String(name.dropLast(".yaml".count))
            XCTAssertTrue(line.hasPrefix("\(folder)/\(name): ok (API '\(api)', "), line)
            XCTAssertTrue(line.hasSuffix(" cases)"), "no warnings: \(line)")
        }
        let list = try sandbox.run(["list", "--targets", folder])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(list.stderr, "")
    }

    /// `<prefix>/share/moya-cli/targets` for the binary under test.
    static var shareFolder: String {
        let binary = CLIRunner.binaryURL.resolvingSymlinksInPath()
        return binary.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "share/moya-cli/targets"
        ).path
    }
}
