import CLITestSupport
import Foundation
import TextSafety
import XCTest

/// `moya-cli list [API] [--format table|json]`, run as a user would.
final class ListCommandTests: XCTestCase {
    private var sandbox: Sandbox!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        try sandbox.write("targets/shop.yaml", Fixture.shop)
        try sandbox.write("targets/weather.yaml", Fixture.weather)
    }

    override func tearDown() {
        sandbox = nil
    }

    func testListsEveryAPIAsATable() throws {
        assertRun(
            try sandbox.run(["list"]), status: 0,
            stdout: """
                API      CASES  TRUST      ENVIRONMENT              FILE                  DESCRIPTION
                shop     3      untrusted  SHOP_PORT (not allowed)  targets/shop.yaml     A small shop
                weather  1      untrusted                           targets/weather.yaml

                """, stderr: "")
    }

    func testListsTheCasesOfOneAPIAsATable() throws {
        assertRun(
            try sandbox.run(["list", "shop"]), status: 0,
            stdout: """
                CASE      METHOD  PATH            TASK                  VALUES                                                                 DESCRIPTION
                products  GET     /products       requestParameters     category: all|books|games = all, page: int = 1, inStock: bool = false  List products
                product   GET     /products/{id}  requestPlain          id: int                                                                One product
                order     POST    /orders         requestJSONEncodable  sku: string, ratio: double = 0.5

                """, stderr: "")
    }

    func testListsEveryAPIAsJSON() throws {
        let result = try sandbox.run(["list", "--format", "json"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "")
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        XCTAssertEqual(Array(document.keys), ["apis"])
        let apis = try XCTUnwrap(document["apis"] as? [[String: Any]])
        XCTAssertEqual(apis.count, 2)
        let keys: Set = [
            "name", "file", "source", "valid", "cases", "description", "shadowedBy", "trusted", "environment",
            "commands"
        ]
        for api in apis { XCTAssertEqual(Set(api.keys), keys) }
        XCTAssertEqual(apis[0]["name"] as? String, "shop")
        XCTAssertEqual(apis[0]["file"] as? String, "targets/shop.yaml")
        XCTAssertEqual(apis[0]["source"] as? String, "./targets")
        XCTAssertEqual(apis[0]["valid"] as? Bool, true)
        XCTAssertEqual(apis[0]["cases"] as? Int, 3)
        XCTAssertEqual(apis[0]["description"] as? String, "A small shop")
        XCTAssertTrue(apis[0]["shadowedBy"] is NSNull)
        XCTAssertEqual(apis[1]["name"] as? String, "weather")
        XCTAssertEqual(apis[1]["cases"] as? Int, 1)
        XCTAssertTrue(apis[1]["description"] is NSNull)
        XCTAssertTrue(result.stdout.hasSuffix("}\n"), "ends with one newline")
    }

    func testListsOneAPIAsJSON() throws {
        let result = try sandbox.run(["list", "shop", "--format", "json"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "")
        let api = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        XCTAssertEqual(Set(api.keys), ["name", "file", "baseURL", "description", "environments", "cases"])
        XCTAssertEqual(api["name"] as? String, "shop")
        XCTAssertEqual(api["file"] as? String, "targets/shop.yaml")
        XCTAssertEqual(api["baseURL"] as? String, "https://api.shop.example")
        XCTAssertEqual(api["description"] as? String, "A small shop")
        XCTAssertEqual(api["environments"] as? [String], ["production", "local"])

        let cases = try XCTUnwrap(api["cases"] as? [[String: Any]])
        XCTAssertEqual(cases.map { $0["name"] as? String }, ["products", "product", "order"])
        let caseKeys: Set = [
            "name", "method", "path", "baseURL", "task", "description", "values", "samples", "examples", "reads",
            "writes", "expect", "exampleExpect"
        ]
        for spec in cases { XCTAssertEqual(Set(spec.keys), caseKeys) }
        XCTAssertEqual(cases.map { $0["method"] as? String }, ["GET", "GET", "POST"])
        XCTAssertEqual(cases.map { $0["path"] as? String }, ["/products", "/products/{id}", "/orders"])
        XCTAssertEqual(
            cases.map { $0["task"] as? String }, ["requestParameters", "requestPlain", "requestJSONEncodable"])
        XCTAssertEqual(cases[0]["description"] as? String, "List products")
        XCTAssertTrue(cases[2]["description"] is NSNull)
        XCTAssertEqual(cases.map { $0["samples"] as? [String] }, [["ok", "offline"], ["default"], ["default"]])
        XCTAssertEqual(cases.map { $0["examples"] as? Int }, [2, 0, 0])

        let values = try XCTUnwrap(cases[0]["values"] as? [[String: Any]])
        XCTAssertEqual(values.map { $0["name"] as? String }, ["category", "page", "inStock"])
        XCTAssertEqual(values.map { $0["type"] as? String }, ["enum", "int", "bool"])
        XCTAssertEqual(values[0]["cases"] as? [String], ["all", "books", "games"])
        XCTAssertNil(values[1]["cases"], "only an enum lists its cases")
        XCTAssertEqual(values.map { $0["required"] as? Bool }, [false, false, false])
        XCTAssertEqual(values[0]["default"] as? String, "all")
        XCTAssertEqual(values[0]["description"] as? String, "Which shelf")
        XCTAssertTrue(values[1]["description"] is NSNull)
        // Defaults keep their type, so a script reads 1 and false, not "1" and "false".
        XCTAssertEqual(values[1]["default"] as? Int, 1)
        XCTAssertEqual(values[2]["default"] as? Bool, false)
        XCTAssertTrue(
            result.stdout.contains(
                """
                          "default": 1,
                """), result.stdout)
        XCTAssertTrue(
            result.stdout.contains(
                """
                          "default": false,
                """), result.stdout)

        let id = try XCTUnwrap((cases[1]["values"] as? [[String: Any]])?.first)
        XCTAssertEqual(id["required"] as? Bool, true)
        XCTAssertTrue(id["default"] is NSNull)
        let ratio = try XCTUnwrap((cases[2]["values"] as? [[String: Any]])?.last)
        XCTAssertEqual(ratio["default"] as? Double, 0.5)
    }

    func testUnknownAPIIsAUsageErrorWithDidYouMean() throws {
        let searched =
            "./targets, \(sandbox.home.path)/.config/moya/targets (user configuration, missing), "
            + "\(ValidateCommandTests.shareFolder) (share folder, missing)"
        assertRun(
            try sandbox.run(["list", "shpo"]), status: 64, stdout: "",
            stderr: """
                moya-cli: error: unknown API 'shpo'; searched: \(searched); did you mean 'shop'?

                """)
        assertRun(
            try sandbox.run(["list", "zzzzzzzz", "--format", "json"]), status: 64, stdout: "",
            stderr: """
                moya-cli: error: unknown API 'zzzzzzzz'; searched: \(searched); valid APIs: shop, weather

                """)
    }

    func testAnInvalidFileAmongValidOnesIsListedAsInvalid() throws {
        try sandbox.write("targets/broken.yaml", Fixture.broken)
        assertRun(
            try sandbox.run(["list"]), status: 65,
            stdout: """
                API      CASES    TRUST      ENVIRONMENT              FILE                  DESCRIPTION
                broken   invalid  -                                   targets/broken.yaml
                shop     3        untrusted  SHOP_PORT (not allowed)  targets/shop.yaml     A small shop
                weather  1        untrusted                           targets/weather.yaml

                """,
            stderr: Fixture.brokenDiagnostics("targets/broken.yaml") + """
                moya-cli: error: some target files are invalid (see above)

                """)

        let json = try sandbox.run(["list", "--format", "json"])
        XCTAssertEqual(json.status, 65)
        XCTAssertEqual(
            json.stderr,
            Fixture.brokenDiagnostics("targets/broken.yaml")
                + "moya-cli: error: some target files are invalid (see above)\n")
        let apis = try XCTUnwrap(
            (JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])?["apis"] as? [[String: Any]])
        XCTAssertEqual(apis.map { $0["name"] as? String }, ["broken", "shop", "weather"])
        XCTAssertEqual(apis.map { $0["valid"] as? Bool }, [false, true, true])
        XCTAssertTrue(apis[0]["cases"] is NSNull)
    }

    func testListingAnInvalidAPIShowsThatFilesDiagnostics() throws {
        try sandbox.write("targets/broken.yaml", Fixture.broken)
        try sandbox.write("targets/other.yaml", "baseURL: nope\n")
        assertRun(
            try sandbox.run(["list", "broken"]), status: 65, stdout: "",
            stderr: Fixture.brokenDiagnostics("targets/broken.yaml") + """
                moya-cli: error: API 'broken' is defined by targets/broken.yaml, which has errors; run 'moya-cli validate targets/broken.yaml'

                """)
        // Another file's errors do not stop listing a valid API.
        let shop = try sandbox.run(["list", "shop"])
        XCTAssertEqual(shop.status, 0)
        XCTAssertEqual(shop.stderr, "")
    }

    func testListingOneAPIShowsItsWarnings() throws {
        try sandbox.write("targets/quiet.yaml", "baseURL: https://q.example\ncases:\n  hush: {path: /hush}\n")
        assertRun(
            try sandbox.run(["list", "quiet"]), status: 0,
            stdout: """
                CASE  METHOD  PATH   TASK          VALUES  DESCRIPTION
                hush  GET     /hush  requestPlain

                """,
            stderr: """
                targets/quiet.yaml:3:3: warning: case 'hush' has no sample; --stub answers 200 with an empty body
                      hush: {path: /hush}
                      ^

                """)
    }

    func testShadowedAPIIsShownWithTheFileThatWon() throws {
        try sandbox.write(
            "mine/shop.yaml", Fixture.api("shop", baseURL: "https://my.shop.example", description: "My own shop"))
        assertRun(
            try sandbox.run(["list", "--targets", "mine"]), status: 0,
            stdout: """
                API      CASES  TRUST      FILE                  DESCRIPTION
                shop     1      untrusted  mine/shop.yaml        My own shop
                weather  1      untrusted  targets/weather.yaml
                shop     -      -          targets/shop.yaml     shadowed by mine/shop.yaml

                """, stderr: "")
        // The winner is the one `list API` describes.
        let winner = try sandbox.run(["list", "shop", "--targets", "mine", "--format", "json"])
        let api = try XCTUnwrap(JSONSerialization.jsonObject(with: winner.stdoutData) as? [String: Any])
        XCTAssertEqual(api["file"] as? String, "mine/shop.yaml")
        XCTAssertEqual(api["baseURL"] as? String, "https://my.shop.example")
    }

    func testShadowedAPIInJSONNamesItsLevelAndTheWinner() throws {
        try sandbox.write(
            "home/.config/moya/targets/shop.yaml", Fixture.api("shop", baseURL: "https://old.shop.example"))
        let json = try sandbox.run(["list", "--format", "json"])
        XCTAssertEqual(json.status, 0)
        XCTAssertEqual(json.stderr, "")
        let apis = try XCTUnwrap(
            (JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])?["apis"] as? [[String: Any]])
        XCTAssertEqual(apis.map { $0["name"] as? String }, ["shop", "weather", "shop"])
        let shadowed = apis[2]
        XCTAssertEqual(shadowed["file"] as? String, sandbox.path("home/.config/moya/targets/shop.yaml"))
        XCTAssertEqual(shadowed["source"] as? String, "user configuration")
        XCTAssertEqual(shadowed["valid"] as? Bool, true)
        XCTAssertEqual(shadowed["cases"] as? Int, 1)
        XCTAssertTrue(shadowed["description"] is NSNull)
        XCTAssertEqual(shadowed["shadowedBy"] as? String, "targets/shop.yaml")
        XCTAssertTrue(apis[0]["shadowedBy"] is NSNull)
    }

    func testHelpDescribesTheFormats() throws {
        let result = try sandbox.run(["list", "--help"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(
            result.stdout.contains(
                "USAGE: moya-cli list [<api>] [--format <format>] [--targets <path> ...] [--no-color]"), result.stdout)
        XCTAssertTrue(result.stdout.contains("(values: table, json; default: table)"), result.stdout)
    }

    func testUnknownFormatIsAUsageError() throws {
        let result = try sandbox.run(["list", "--format", "yaml"])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("The value 'yaml' is invalid for '--format <format>'"), result.stderr)
    }
}

extension ListCommandTests {
    /// Issue 13, item 9: finding nothing says where it looked.
    func testListWithNoTargetFilesSaysWhereItLooked() throws {
        let empty = try TemporaryFolder()
        let result = try CLIRunner.run(["list"], environment: ["HOME": empty.url.path], currentDirectory: empty.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(
            result.stderr,
            "moya-cli: no target files found; searched: ./targets (missing), "
                + "\(empty.url.path)/.config/moya/targets (user configuration, missing), "
                + "\(ValidateCommandTests.shareFolder) (share folder, missing); put *.yaml files in ./targets or name them with --targets\n"
        )
    }
}

/// Issue 28, item 10: `list API` on a terminal keeps CASE and VALUES whole; TASK goes first, then
/// DESCRIPTION wraps or goes; a pipe gets full lines. Run on a pseudo-terminal with util-linux
/// `script`, its width from COLUMNS or from the window size `stty` sets.
final class ListWidthTests: XCTestCase {
    private var sandbox: Sandbox!

    override func setUpWithError() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script is not installed")
        sandbox = try Sandbox()
        try sandbox.write("targets/shop.yaml", Fixture.shop)
    }

    private func onTerminal(_ arguments: [String], environment: [String: String] = [:], columns: Int? = nil) throws
        -> CLIResult
    {
        try CLIRunner.runOnTerminal(
            arguments, in: sandbox.root, home: sandbox.home, environment: environment, columns: columns)
    }

    static let at80 = """
        CASE      METHOD  PATH            VALUES
        products  GET     /products       category: all|books|games = all,
                                          page: int = 1, inStock: bool = false
        product   GET     /products/{id}  id: int
        order     POST    /orders         sku: string, ratio: double = 0.5

        """

    static let at60 = """
        CASE      METHOD  PATH            VALUES
        products  GET     /products       category: all|books|games
                                          = all, page: int = 1,
                                          inStock: bool = false
        product   GET     /products/{id}  id: int
        order     POST    /orders         sku: string,
                                          ratio: double = 0.5

        """

    func testEightyAndSixtyColumnsFromCOLUMNS() throws {
        for (columns, expected) in [("80", Self.at80), ("60", Self.at60)] {
            let screen = try onTerminal(["list", "shop"], environment: ["COLUMNS": columns])
            XCTAssertEqual(screen.status, 0, screen.stdout)
            XCTAssertEqual(screen.stdout, expected, "COLUMNS=\(columns)")
        }
    }

    func testTheWindowSizeWhenCOLUMNSIsUnsetZeroOrGarbage() throws {
        for value in [nil, "0", "wide", "-3"] as [String?] {
            let screen = try onTerminal(
                ["list", "shop"], environment: value.map { ["COLUMNS": $0] } ?? [:], columns: 80)
            XCTAssertEqual(screen.stdout, Self.at80, "COLUMNS=\(value ?? "unset")")
        }
        let sixty = try onTerminal(["list", "shop"], columns: 60)
        XCTAssertEqual(sixty.stdout, Self.at60)
    }

    func testAWideTerminalShowsEveryColumnAndAPipeFullLines() throws {
        let wide = try onTerminal(["list", "shop"], environment: ["COLUMNS": "200"])
        let piped = try sandbox.run(["list", "shop"], environment: ["COLUMNS": "60"])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(wide.stdout, piped.stdout, "a terminal wide enough gets the pipe's bytes")
        XCTAssertTrue(piped.stdout.contains("requestJSONEncodable  sku: string, ratio: double = 0.5"), piped.stdout)
    }

    func testEveryAPIOnANarrowTerminalKeepsNamesAndFilesWhole() throws {
        try sandbox.write("targets/weather.yaml", Fixture.weather)
        let screen = try onTerminal(["list"], environment: ["COLUMNS": "70"])
        XCTAssertEqual(screen.status, 0, screen.stdout)
        XCTAssertEqual(
            screen.stdout,
            """
            API      CASES  TRUST      ENVIRONMENT            FILE
            shop     3      untrusted  SHOP_PORT (not         targets/shop.yaml
                                       allowed)
            weather  1      untrusted                         targets/weather.yaml

            """, "the description goes first, ENVIRONMENT wraps")
    }

    func testValuesStayWholeWhileALongPathWrapsAtItsSlashes() throws {
        try sandbox.write(
            "targets/repos.yaml",
            """
            api: repos
            baseURL: http://127.0.0.1:9
            cases:
              repositoryIssues:
                path: /repos/{owner}/{repository}/issues/{number}
                values:
                  - owner: string
                  - repository: string
                  - number: int
                  - state: {enum: [open, closed, all], default: open}
                  - perPage: {type: int, default: 30}
                task: {parameters: {state: "{state}", per_page: "{perPage}"}, encoding: url}
                sample: ok
            """)
        let screen = try onTerminal(["list", "repos"], environment: ["COLUMNS": "80"])
        XCTAssertEqual(screen.status, 0, screen.stdout)
        XCTAssertEqual(
            screen.stdout,
            """
            CASE              METHOD  PATH              VALUES
            repositoryIssues  GET     /repos/{owner}/   owner: string, repository: string,
                                      {repository}/     number: int,
                                      issues/{number}   state: open|closed|all = open,
                                                        perPage: int = 30

            """, "the path gives way at its slashes; every value is whole on one line")
    }

    func testHostileCellsOnANarrowTerminal() throws {
        let longName = String(repeating: "c", count: 500)
        let longEnum = (0..<60).map { "choice\($0)" }.joined(separator: ", ")
        try sandbox.write(
            "targets/odd.yaml",
            """
            api: odd
            baseURL: http://127.0.0.1:9
            cases:
              \(longName): {path: /x, sample: ok}
              cjk:
                description: "東京の天気を返します。\\e]0;pwned\\a\\e[2J とても長い説明です"
                values: [{place: {enum: [\(longEnum)], description: "\\e[31mred\\e[0m"}}]
                path: /weather/{place}
                sample: ok
            """)
        for columns in ["80", "60", "1", "0", "garbage"] {
            let screen = try onTerminal(["list", "odd"], environment: ["COLUMNS": columns], columns: 70)
            XCTAssertEqual(screen.status, 0, screen.stdout)
            XCTAssertFalse(screen.stdout.contains("\u{1B}"), "no escape reaches the terminal: \(screen.stdout)")
            XCTAssertTrue(screen.stdout.contains(longName + "\n"), "the name whole, on a line of its own")
            let width = Int(columns).flatMap { $0 > 0 ? max($0, 20) : nil } ?? 70
            for line in screen.stdout.split(separator: "\n") where !line.contains(longName) {
                XCTAssertLessThanOrEqual(DisplayColumns.width(of: String(line)), width, "COLUMNS=\(columns): \(line)")
            }
            XCTAssertTrue(
                screen.stdout.filter { !$0.isWhitespace }.contains(
                    (0..<60).map { "choice\($0)" }.joined(separator: "|")),
                "every enum case is shown: \(screen.stdout)")
        }
    }
}

/// Issue 39: cases without a sample are one line per file on `list`, `check` and `serve`, not a
/// warning each (an import of 100 cases buried its one error under them); `validate` lists them.
final class NoSampleSummaryTests: XCTestCase {
    func testSeveralCasesWithoutASampleAreOneLineAndValidateListsThem() throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "targets/quiet.yaml",
            "baseURL: http://127.0.0.1:9\ncases:\n  a: {path: /a}\n  b: {path: /b}\n  c: {path: /c}\n  d: {path: /d, sample: ok}\n"
        )
        try sandbox.write("targets/one.yaml", "baseURL: http://127.0.0.1:9\ncases:\n  x: {path: /x}\n")
        let summary =
            "targets/quiet.yaml: warning: 3 cases have no sample; --stub answers them with 200 and an empty body (moya-cli validate targets/quiet.yaml lists them)\n"
        let list = try sandbox.run(["list", "quiet"])
        XCTAssertEqual(list.status, 0)
        XCTAssertEqual(list.stderr, summary)
        let check = try sandbox.run(["check", "quiet"])
        XCTAssertEqual(check.status, 0, check.stdout)
        XCTAssertTrue(check.stderr.hasPrefix(summary), check.stderr)
        XCTAssertFalse(check.stderr.contains("case 'a' has no sample"), check.stderr)
        // Every API: one line for the file with several, the one warning of the file with one.
        let all = try sandbox.run(["list"])
        XCTAssertEqual(
            all.stderr,
            """
            targets/one.yaml:3:3: warning: case 'x' has no sample; --stub answers 200 with an empty body
                  x: {path: /x}
                  ^

            """ + summary)
        let serve = try ServeProcess(["quiet"], in: sandbox.root)
        serve.waitFor("serving ")
        _ = serve.stop()
        XCTAssertTrue(serve.stderr.hasPrefix(summary), serve.stderr)
        let validate = try sandbox.run(["validate", "targets/quiet.yaml"])
        XCTAssertEqual(validate.status, 0)
        for name in ["a", "b", "c"] {
            XCTAssertTrue(validate.stderr.contains("warning: case '\(name)' has no sample"), validate.stderr)
        }
    }
}
