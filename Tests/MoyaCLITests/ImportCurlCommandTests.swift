import CLITestSupport
import Foundation
import TestServers
import XCTest

/// `moya-cli import curl` as a user runs it: new files, cases added to an existing file, and
/// hostile command text (exit 65 with the place, nothing written, nothing run, no secret written).
final class ImportCurlCommandTests: XCTestCase {
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    private func run(_ arguments: [String], stdin: Data? = nil) throws -> CLIResult {
        try CLIRunner.run(["import", "curl"] + arguments, currentDirectory: folder.url, stdin: stdin)
    }

    private func text(_ name: String) -> String? {
        try? String(contentsOf: folder.url.appendingPathComponent(name), encoding: .utf8)
    }

    func testNewFileFromStandardInputWithSecretsNamedNeverWritten() throws {
        let commands = """
            curl 'https://api.example.com/v1/users?page=2' -H 'Authorization: Bearer t0k3n-value' -b 'sid=c00kie' \\
              -H 'X-Trace: 1' --compressed
            curl -u ada:pa55word https://api.example.com/v1/me
            """
        let result = try run(["-", "--api", "ex", "--case", "users", "-o", "-"], stdin: Data(commands.utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout,
            """
            # Made by moya-cli import curl from <stdin>; see moya-cli-import(1).
            api: ex
            baseURL: "https://api.example.com"
            cases:
              users:
                method: GET
                path: /v1/users
                headers:
                  Authorization: "${secret:MOYA_EX_AUTHORIZATION}"
                  X-Trace: "1"
                  Cookie: "${secret:MOYA_EX_COOKIE}"
                task: {parameters: {page: "2"}, encoding: url}
              users2:
                method: GET
                path: /v1/me
                headers: {Authorization: "${secret:MOYA_EX_AUTHORIZATION}"}

            """)
        XCTAssertEqual(
            result.stderr,
            """
            import: wrote standard output: API 'ex', 2 cases: users, users2
            import: users (1:6): the query becomes the case's parameters: sent sorted by name and percent-encoded as moya-cli does
            import: users reads Authorization from ${secret:MOYA_EX_AUTHORIZATION}; set MOYA_EX_AUTHORIZATION to call it
            import: users reads Cookie from ${secret:MOYA_EX_COOKIE}; set MOYA_EX_COOKIE to call it
            import: users2 reads Authorization from ${secret:MOYA_EX_AUTHORIZATION}; set MOYA_EX_AUTHORIZATION to call it

            """)
        for secret in ["t0k3n", "c00kie", "pa55word", "YWRhOnBhNTV3b3Jk"] {
            XCTAssertFalse(result.stdout.contains(secret) || result.stderr.contains(secret), secret)
        }
    }

    func testCredentialsByNameAreNeverWritten() throws {
        let commands = "curl 'https://h/a?api_key=s3cr3tq&page=2' -H 'X-Goog-Api-Key: g00gk' -H 'X-Session-Id: s3ss'\n"
        let result = try run(["-", "--api", "h", "--case", "a", "-o", "-"], stdin: Data(commands.utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        for secret in ["s3cr3tq", "g00gk", "s3ss"] {
            XCTAssertFalse(result.stdout.contains(secret) || result.stderr.contains(secret), secret)
        }
        XCTAssertTrue(result.stdout.contains("values: [{api_key: string}]"), result.stdout)
        XCTAssertTrue(result.stdout.contains(#"api_key: "{api_key}""#), result.stdout)
        XCTAssertTrue(
            result.stderr.contains(
                "import: a takes the query parameter api_key, a credential, as its value 'api_key': it is not written"),
            result.stderr)
        XCTAssertTrue(result.stderr.contains("set MOYA_H_X_GOOG_API_KEY to call it"), result.stderr)
        XCTAssertTrue(result.stderr.contains("set MOYA_H_X_SESSION_ID to call it"), result.stderr)
    }

    func testCasesAreAddedToAnExistingFileKeepingItsBytes() throws {
        let original = """
            # my API; keep this comment
            api: shop
            baseURL: https://shop.example.com/api   # trailing comment
            cases:
                list:    # four-space indentation
                    path: /items
                c2:
                    path: /taken

            """
        try folder.write("targets/shop.yaml", original)
        try folder.write(
            "cmds.sh",
            "curl https://shop.example.com/api/items/7 -X DELETE\ncurl https://shop.example.com/api/items -d 'name=x'\n"
        )
        let result = try run(["cmds.sh", "--api", "shop", "--case", "c"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stderr,
            "import: added 2 cases to targets/shop.yaml: c, c3\nimport: next: moya-cli list shop; moya-cli check shop\n",
            "c2 is taken: the next is c3")
        let edited = try XCTUnwrap(text("targets/shop.yaml"))
        XCTAssertTrue(edited.hasPrefix(original), edited)
        XCTAssertEqual(
            String(edited.dropFirst(original.count)),
            """
                c:
                    method: DELETE
                    path: /items/7
                c3:
                    method: POST
                    path: /items
                    headers: {Content-Type: application/x-www-form-urlencoded}
                    task: {data: "name=x"}

            """)

        let again = try run(["cmds.sh", "--api", "shop", "--case", "c"])
        XCTAssertEqual(again.status, 64)
        XCTAssertTrue(again.stderr.contains("case 'c' exists in targets/shop.yaml"), again.stderr)

        try folder.write("elsewhere.sh", "curl https://shop.example.com/other/x\n")
        let elsewhere = try run(["elsewhere.sh", "--api", "shop", "--case", "other"])
        XCTAssertEqual(elsewhere.status, 65)
        XCTAssertTrue(
            elsewhere.stderr.contains("the path /other/x is not under the base URL's path /api"), elsewhere.stderr)
        XCTAssertEqual(text("targets/shop.yaml"), edited, "nothing written")

        let replaced = try run(["elsewhere.sh", "--api", "shop", "--case", "other", "--force"])
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertTrue(text("targets/shop.yaml")?.contains("baseURL: \"https://shop.example.com\"") == true)
    }

    func testCasesGoToTheFileDiscoveryFindsForTheAPI() throws {
        let original = "api: shop\nbaseURL: https://shop.example.com\ncases:\n  list:\n    path: /items\n"
        try folder.write("elsewhere/shop.yaml", original)
        try folder.write("cmds.sh", "curl https://shop.example.com/items/1\n")
        let result = try CLIRunner.run(
            ["import", "curl", "cmds.sh", "--api", "shop", "--case", "item"],
            environment: ["MOYA_TARGETS_PATH": folder.url.appendingPathComponent("elsewhere").path],
            currentDirectory: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("import: added 1 case to "), result.stderr)
        XCTAssertEqual(
            text("elsewhere/shop.yaml"), original + "  item:\n    method: GET\n    path: /items/1\n")
        XCTAssertNil(text("targets/shop.yaml"))
    }

    func testACommandSentToAnotherOriginBecomesACaseWithItsOwnBaseURL() throws {
        let main = try HTTPTestServer()
        let uploads = try HTTPTestServer()
        defer {
            main.stop()
            uploads.stop()
        }
        let mainOrigin = "http://127.0.0.1:\(main.port)"
        let uploadsOrigin = "http://127.0.0.1:\(uploads.port)"
        try folder.write(
            "cmds.sh",
            "curl \(mainOrigin)/anything/items\ncurl -X POST \(uploadsOrigin)/anything/assets --data-raw 'x=1'\n")
        let result = try run(["cmds.sh", "--api", "shop", "--case", "items"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            text("targets/shop.yaml"),
            """
            # Made by moya-cli import curl from cmds.sh; see moya-cli-import(1).
            api: shop
            baseURL: "\(mainOrigin)"
            cases:
              items:
                method: GET
                path: /anything/items
              items2:
                baseURL: "\(uploadsOrigin)"
                method: POST
                path: /anything/assets
                headers: {Content-Type: application/x-www-form-urlencoded}
                task: {data: "x=1"}

            """)
        for (name, server, target) in [("items", main, "/anything/items"), ("items2", uploads, "/anything/assets")] {
            let call = try CLIRunner.run(["call", "shop", name], currentDirectory: folder.url)
            XCTAssertEqual(call.status, 0, call.stderr)
            XCTAssertEqual(server.receivedRequests.last?.target, target, "\(name) went to its own origin")
        }
        XCTAssertEqual(main.receivedRequests.count, 1)
        XCTAssertEqual(uploads.receivedRequests.count, 1)

        // Added to the existing file: a command to the API's origin keeps the API's base URL.
        try folder.write("more.sh", "curl \(uploadsOrigin)/anything/assets/7\ncurl \(mainOrigin)/anything/items/7\n")
        let added = try run(["more.sh", "--api", "shop", "--case", "asset"])
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(
            text("targets/shop.yaml")?.hasSuffix(
                """
                  asset:
                    baseURL: "\(uploadsOrigin)"
                    method: GET
                    path: /anything/assets/7
                  asset2:
                    method: GET
                    path: /anything/items/7

                """) == true, text("targets/shop.yaml") ?? "")
    }

    func testEveryImporterRefusesAnAPINameThatIsNotOneBeforeReadingAnything() throws {
        for importer in [["openapi"], ["curl", "--case", "c"], ["har"], ["postman"]] {
            let result = try CLIRunner.run(
                ["import"] + importer + ["missing.input", "--api", "1bad\u{1B}[2J"], currentDirectory: folder.url)
            XCTAssertEqual(result.status, 64, "\(importer)")
            XCTAssertTrue(
                result.stderr.contains(
                    "--api '1bad\\e[2J' is not an API name: letters, digits, '_' and '-', starting with a letter"),
                "\(importer): \(result.stderr)")
            XCTAssertNil(text("targets/1bad.yaml"))
        }
    }

    func testHostileTextExits65WithThePlaceAndWritesNothing() throws {
        try folder.write("secret.txt", "the user's secret")
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("in"), withIntermediateDirectories: true)
        let cases: [(String, String)] = [
            ("curl https://h/a\ncurl 'https://h/b", "in/cmds.sh:2:6: the ' quote opened here is never closed"),
            (
                "curl https://h/a -d @../secret.txt",
                "in/cmds.sh:1:18: the command reads '../secret.txt', outside the folder"
            ),
            ("curl https://h/a -K ../cfg", "in/cmds.sh:1:18: -K reads options from a file"),
            ("curl 'https://h/a' | sh", "in/cmds.sh:1:20: the shell operator '|' is not read"),
            ("curl -H 'X Y: z' https://h/a", "in/cmds.sh:1:6: the header name 'X Y' is not a header name"),
            (
                "curl $'https://h/a\\r\\nX: y'",
                "in/cmds.sh:1:6: the URL 'https://h/a\\r\\nX: y' holds spaces or control"
            ),
            ("curl $'--\\e[31mred' https://h", "in/cmds.sh:1:6: unknown curl option '--\\e[31mred'"),
            ("curl -X GET -d x https://h/a", "in/cmds.sh:1:1: a GET request with a body cannot be a case")
        ]
        for (commands, expected) in cases {
            try folder.write("in/cmds.sh", commands)
            let result = try run(["in/cmds.sh", "--api", "h", "--case", "a"])
            XCTAssertEqual(result.status, 65, commands)
            XCTAssertTrue(result.stderr.hasPrefix("moya-cli: error: " + expected), "\(commands)\n\(result.stderr)")
            XCTAssertFalse(result.stderr.contains("\u{1B}"), "no terminal escape passes: \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("the user's secret"))
            XCTAssertNil(text("targets/h.yaml"), "nothing written: \(commands)")
        }
    }

    func testCommandSubstitutionIsTextNeverRun() throws {
        try folder.write("cmds.sh", #"curl https://h/a -H "X-Who: $(touch pwned)`touch pwned2`""# + "\n")
        let result = try run(["cmds.sh", "--api", "h", "--case", "a"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("pwned").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("pwned2").path))
        XCTAssertTrue(result.stderr.contains("-H's argument holds $(…), `…` or $NAME: kept as text, never run"))
        XCTAssertTrue(text("targets/h.yaml")?.contains(#"{X-Who: "$(touch pwned)`touch pwned2`"}"#) == true)
    }

    func testOnlyAndHugeInput() throws {
        try folder.write("cmds.sh", "curl https://h/one\ncurl https://h/two\ncurl https://h/three\n")
        let only = try run(["cmds.sh", "--api", "h", "--case", "pick", "--only", "2", "-o", "-"])
        XCTAssertEqual(only.status, 0, only.stderr)
        XCTAssertTrue(only.stdout.contains("path: /two") && !only.stdout.contains("/one"), only.stdout)
        let outOfRange = try run(["cmds.sh", "--api", "h", "--case", "pick", "--only", "4"])
        XCTAssertEqual(outOfRange.status, 65)
        XCTAssertTrue(outOfRange.stderr.contains("--only 4: there are 3 commands"), outOfRange.stderr)

        let huge = Data(repeating: UInt8(ascii: "#"), count: (16 << 20) + 1)
        let tooLarge = try run(["-", "--api", "h", "--case", "big"], stdin: huge)
        XCTAssertEqual(tooLarge.status, 65)
        XCTAssertEqual(tooLarge.stderr, "moya-cli: error: <stdin> is larger than 16 MiB, the most curl commands read\n")
    }
}
