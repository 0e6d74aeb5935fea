import CLITestSupport
import Foundation
import OrderedJSON
import TestServers
import XCTest

/// Issue 43: `moya-cli import swift`, through the built binary (and its helper beside it): the
/// fixtures in Tests/Fixtures/swift, written as Moya apps write their targets, imported and
/// checked case by case with `list --format json` and `curl`; the notes; hostile sources.
final class ImportSwiftTests: XCTestCase {
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
    }

    static var fixtures: URL {
        CLIRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/swift")
    }

    /// Imports `fixture` (with `arguments`), expecting success, and returns stderr.
    @discardableResult
    func importFixture(_ fixture: String, _ arguments: [String] = []) throws -> String {
        let result = try sandbox.run(
            ["import", "swift", Self.fixtures.appendingPathComponent(fixture).path] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stderr
    }

    /// `list API --format json`'s cases by name: method, path, task, values (name, type, default, optional).
    func cases(_ api: String) throws -> [String: [String: JSONValue]] {
        let listed = try sandbox.run(["list", api, "--format", "json"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let document = try JSONValue(parsing: listed.stdout)
        guard case .array(let cases)? = document.value(atKeyPath: "cases") else { return [:] }
        var result: [String: [String: JSONValue]] = [:]
        for item in cases {
            guard case .object(let members) = item,
                case .string(let name)? = members.first(where: { $0.0 == "name" })?.1
            else { continue }
            result[name] = Dictionary(members, uniquingKeysWith: { first, _ in first })
        }
        return result
    }

    func values(_ item: [String: JSONValue]?) -> [String] {
        guard case .array(let values)? = item?["values"] else { return [] }
        return values.map { value in
            let name = value.value(atKeyPath: "name")?.stringValue ?? "?"
            let type = value.value(atKeyPath: "type")?.stringValue ?? "?"
            var text = name + ":" + type
            if let given = value.value(atKeyPath: "default"), given != .null { text += "=" + given.description }
            if value.value(atKeyPath: "optional") == .bool(true) { text += "?" }
            return text
        }
    }

    func testMoyaDocumentationExampleCaseByCase() throws {
        let stderr = try importFixture("GitHub.swift")
        XCTAssertTrue(
            stderr.contains("import: wrote targets/github.yaml: API 'github' from GitHub, 4 cases"), stderr)
        let cases = try cases("github")
        XCTAssertEqual(Set(cases.keys), ["zen", "userProfile", "userRepositories", "branches"])
        XCTAssertEqual(cases["zen"]?["path"], .string("/zen"))
        XCTAssertEqual(cases["zen"]?["method"], .string("GET"))
        XCTAssertEqual(cases["zen"]?["task"], .string("requestPlain"))
        // Unlabelled values are named by the `let` the path switch binds.
        XCTAssertEqual(values(cases["userProfile"]), ["name:string"])
        XCTAssertEqual(cases["userProfile"]?["path"], .string("/users/{name}"))
        XCTAssertEqual(values(cases["branches"]), ["repo:string", "protected:bool"])
        XCTAssertEqual(cases["branches"]?["task"], .string("requestParameters"))

        let curl = try sandbox.run(["curl", "github", "branches", "Moya", "true"])
        XCTAssertEqual(curl.status, 0, curl.stderr)
        XCTAssertTrue(curl.stdout.contains("https://api.github.com/repos/Moya/branches?protected=1"), curl.stdout)
        XCTAssertTrue(curl.stdout.contains("Content-Type: application/json"), curl.stdout)
        let escaped = try sandbox.run(["curl", "github", "userProfile", "a b/c"])
        XCTAssertTrue(escaped.stdout.contains("https://api.github.com/users/a%20b%2Fc"), escaped.stdout)

        let zen = try sandbox.run(["call", "github", "zen", "--stub"])
        XCTAssertEqual(zen.stdout, "Half measures are as bad as nothing at all.")
        let profile = try sandbox.run(["call", "github", "userProfile", "ashfurrow", "--stub"])
        XCTAssertEqual(profile.stdout, #"{"login": "ashfurrow", "id": 100}"#)
        let checked = try sandbox.run(["check", "github"])
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
    }

    func testAppStylesCaseByCase() throws {
        let stderr = try importFixture("Shop.swift", ["--samples", Self.fixtures.appendingPathComponent("stubs").path])
        XCTAssertTrue(
            stderr.contains("import: wrote targets/shopapi.yaml: API 'shopapi' from ShopAPI, 10 cases"), stderr)
        // What only the app knows is a note with its place, never a guess.
        XCTAssertTrue(
            stderr.contains(
                "Shop.swift:77:41: invoice: the download's destination is the app's (DefaultDownloadDestination)"),
            stderr)
        XCTAssertTrue(stderr.contains("login: the sample is the app's bundle resource Session"), stderr)
        let cases = try cases("shopapi")
        XCTAssertEqual(cases.count, 10)
        // Values: labels, defaults, raw-value enums, optionals; the unlabelled named by the switch.
        XCTAssertEqual(
            values(cases["products"]), ["category:string", "sort:enum=\"newest\"", "page:int=1", "inStock:bool?"])
        XCTAssertEqual(values(cases["product"]), ["sku:string"])
        XCTAssertEqual(values(cases["addToCart"]), ["sku:string", "quantity:int"])
        XCTAssertEqual(values(cases["default"]), ["id:int"])
        XCTAssertEqual(values(cases["uploadAvatar"]), ["image:file"])
        // Multi-case branches and `default`.
        for name in ["product", "addToCart", "removeFromCart"] {
            XCTAssertEqual(cases[name]?["path"], .string("/products/{sku}/item"), name)
        }
        XCTAssertEqual(cases["addToCart"]?["method"], .string("POST"))
        XCTAssertEqual(cases["removeFromCart"]?["method"], .string("DELETE"))
        XCTAssertEqual(cases["me"]?["method"], .string("GET"))
        XCTAssertEqual(cases["uploadAvatar"]?["task"], .string("uploadMultipart"))
        XCTAssertEqual(cases["rate"]?["task"], .string("requestCompositeData"))
        XCTAssertEqual(cases["invoice"]?["task"], .string("downloadDestination"))

        // The staging/production choice: two environments.
        let staging = try sandbox.run(["curl", "shopapi", "products", "shoes", "--env", "staging"])
        XCTAssertEqual(staging.status, 0, staging.stderr)
        XCTAssertTrue(
            staging.stdout.contains("https://staging.shop.example.com/v2/products?category=shoes&page=1&sort=newest"),
            staging.stdout)
        let production = try sandbox.run(["curl", "shopapi", "products", "shoes", "--inStock", "true"])
        XCTAssertTrue(
            production.stdout.contains(
                "https://api.shop.example.com/v2/products?category=shoes&in_stock=1&page=1&sort=newest"),
            production.stdout)
        XCTAssertTrue(production.stdout.contains("X-Client: shop-ios"), production.stdout)
        // Per-case auth: none, bearer, basic, from secrets named for the API.
        let token = [
            "MOYA_SHOPAPI_TOKEN": "t0ken",
            "MOYA_ALLOW_ENV": "MOYA_SHOPAPI_TOKEN:MOYA_SHOPAPI_USERNAME:MOYA_SHOPAPI_PASSWORD",
            "MOYA_SHOPAPI_USERNAME": "me", "MOYA_SHOPAPI_PASSWORD": "pw"
        ]
        let me = try sandbox.run(["curl", "shopapi", "me", "--show-secrets"], environment: token)
        XCTAssertTrue(me.stdout.contains("Authorization: Bearer t0ken"), me.stdout + me.stderr)
        let login = try sandbox.run(["curl", "shopapi", "login", "a@b.c", "pw", "--show-secrets"], environment: token)
        XCTAssertTrue(login.stdout.contains("Authorization: Basic bWU6cHc="), login.stdout + login.stderr)
        let product = try sandbox.run(["curl", "shopapi", "product", "A-1"], environment: token)
        XCTAssertFalse(product.stdout.contains("Authorization"), product.stdout)

        // Bundle stubs from --samples: the file is copied beside the target file.
        let stub = try sandbox.run(["call", "shopapi", "me", "--stub"])
        XCTAssertEqual(stub.status, 0, stub.stderr)
        XCTAssertTrue(stub.stdout.contains("Moya Shopper"), stub.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: sandbox.path("targets/samples/shopapi/Me.json")))
        // A Double raw-value enum, beside it in the same file.
        XCTAssertEqual(values(try self.cases("ratings")["rate"]), ["order:int", "stars:double=1"])
        let stars = try sandbox.run(["curl", "ratings", "rate", "7", "--stars", "1.5"])
        XCTAssertTrue(stars.stdout.contains(#"{"order":7,"stars":1.5}"#), stars.stdout)
        let checked = try sandbox.run(["check", "shopapi"])
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
    }

    func testPreMoya10ParametersProperty() throws {
        try importFixture("Legacy.swift")
        let cases = try cases("legacyapi")
        XCTAssertEqual(values(cases["search"]), ["query:string", "limit:int"])
        XCTAssertEqual(cases["search"]?["task"], .string("requestParameters"))
        XCTAssertEqual(cases["createNote"]?["method"], .string("POST"))
        let search = try sandbox.run(["curl", "legacyapi", "search", "moya", "5"])
        XCTAssertTrue(search.stdout.contains("https://legacy.example.com/api/search?limit=5&q=moya"), search.stdout)
        let create = try sandbox.run(["curl", "legacyapi", "createNote", "Hi", "there"])
        XCTAssertTrue(create.stdout.contains(#"--data-binary '{"body":"there","title":"Hi"}'"#), create.stdout)
    }

    /// Moya 11's `.requestJSONEncodable` of a struct the sources declare: its arguments as JSON,
    /// keyed by its CodingKeys; an Encodable value the app passes in is a note.
    func testEncodableBodyOfADeclaredStruct() throws {
        try importFixture("Legacy.swift")
        let create = try sandbox.run(["curl", "notesapi", "create", "Hi", "--pinned", "true"])
        XCTAssertEqual(create.status, 0, create.stderr)
        XCTAssertTrue(create.stdout.contains(#"--data-binary '{"title":"Hi","is_pinned":true}'"#), create.stdout)
        let cases = try cases("notesapi")
        XCTAssertEqual(cases["create"]?["task"], .string("requestJSONEncodable"))
        XCTAssertEqual(cases["createRaw"]?["task"], .string("requestPlain"))
        let text = try String(contentsOfFile: sandbox.path("targets/notesapi.yaml"), encoding: .utf8)
        XCTAssertTrue(text.contains("the body is the app's Encodable value (note): left out"), text)
    }

    func testAFolderWithSeveralTypesWritesOneFileEach() throws {
        let result = try sandbox.run(["import", "swift", Self.fixtures.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        for name in ["github", "shopapi", "legacyapi", "notesapi", "ratings"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: sandbox.path("targets/\(name).yaml")), name)
        }
        let one = try sandbox.run(["import", "swift", Self.fixtures.path, "-o", "-"])
        XCTAssertEqual(one.status, 64, one.stderr)
        XCTAssertTrue(one.stderr.contains("choose one with --api NAME"), one.stderr)
        let chosen = try sandbox.run(["import", "swift", Self.fixtures.path, "--api", "legacyapi", "-o", "-"])
        XCTAssertEqual(chosen.status, 0, chosen.stderr)
        XCTAssertTrue(chosen.stdout.contains("api: legacyapi"), chosen.stdout)
        // An existing file needs --force; nothing else is written meanwhile.
        let again = try sandbox.run(["import", "swift", Self.fixtures.appendingPathComponent("GitHub.swift").path])
        XCTAssertEqual(again.status, 64, again.stderr)
        XCTAssertTrue(again.stderr.contains("give --force"), again.stderr)
    }

    func testTrustedFolderIsRefused() throws {
        let trusted = sandbox.home.appendingPathComponent(".config/moya/targets")
        try FileManager.default.createDirectory(at: trusted, withIntermediateDirectories: true)
        let result = try sandbox.run(
            [
                "import", "swift", Self.fixtures.appendingPathComponent("GitHub.swift").path, "-o",
                trusted.appendingPathComponent("github.yaml").path
            ])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: trusted.appendingPathComponent("github.yaml").path))
    }

    // MARK: Hostile sources

    func hostile(_ name: String, _ text: String) throws -> CLIResult {
        let file = try sandbox.write(name, text)
        return try sandbox.run(["import", "swift", file.path, "-o", "-"])
    }

    func testNoTargetTypeOrAParseErrorExits65WithThePlace() throws {
        let none = try hostile("None.swift", "struct Point { var x = 1 }\n")
        XCTAssertEqual(none.status, 65, none.stderr)
        XCTAssertTrue(none.stderr.contains("no type conforming to TargetType"), none.stderr)
        let broken = try hostile("Broken.swift", "enum API: TargetType {\n    case a(\n}\n")
        XCTAssertEqual(broken.status, 65, broken.stderr)
        XCTAssertTrue(broken.stderr.contains("Broken.swift:2:12: the source does not parse as Swift"), broken.stderr)
        XCTAssertTrue(broken.stderr.contains("does not parse"), broken.stderr)
        var bytes = Array("enum API: TargetType { case a }\n// caf".utf8)
        bytes += [0xE9, 0x0A]
        let file = try sandbox.write("Latin1.swift", bytes: bytes)
        let latin = try sandbox.run(["import", "swift", file.path, "-o", "-"])
        XCTAssertEqual(latin.status, 65, latin.stderr)
        XCTAssertTrue(latin.stderr.contains("Latin1.swift:2:7: not UTF-8 text (byte 0xE9)"), latin.stderr)
        XCTAssertEqual(latin.stdout, "")
    }

    func testMacrosConditionsTwinsAndEscapedNamesAreNotes() throws {
        let result = try hostile(
            "Odd.swift",
            #"""
            import Moya
            #warning("check me")
            enum `Odd`: TargetType {
                case `default`, `self`(`where`: String)
                #if DEBUG
                case debugOnly
                #else
                case releaseOnly
                #endif
                var baseURL: URL { URL(string: "https://odd.example")! }
                var path: String {
                    switch self {
                    case .`self`(let place): return "/self/\(place)"
                    #if DEBUG
                    case .debugOnly: return "/debug"
                    #endif
                    default: return "/"
                    }
                }
                var method: Moya.Method { .get }
                var task: Task { .requestPlain }
                var headers: [String: String]? { nil }
                @Stubbed var sampleData: Data
            }
            enum Odd: TargetType { case again }
            """#)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("Odd.swift:2:1: macro #warning"), result.stderr)
        XCTAssertTrue(
            result.stderr.contains("Odd.swift:5:5: #if: only the members of its first branch are read"), result.stderr)
        XCTAssertTrue(result.stderr.contains("Odd.swift:25:1: Odd is declared again (first at "), result.stderr)
        XCTAssertTrue(result.stdout.contains("\n  default:\n"), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("\n  self:\n    values: [{where: string}]\n    path: \"/self/{where}\""),
            result.stdout)
        XCTAssertTrue(result.stdout.contains("\n  debugOnly:\n    path: /debug\n"), result.stdout)
        XCTAssertFalse(result.stdout.contains("releaseOnly"), result.stdout)
    }

    /// A credential written in the sources is never copied into the target file.
    func testCredentialsInTheSourcesAreNotCopied() throws {
        let result = try hostile(
            "Secrets.swift",
            #"""
            import Moya
            enum Vault: TargetType {
                case login(user: String)
                var baseURL: URL { URL(string: "https://vault.example")! }
                var path: String { "/login" }
                var method: Moya.Method { .post }
                var task: Task {
                    switch self {
                    case .login(let user):
                        return .requestParameters(
                            parameters: ["user": user, "password": "hunter2", "client": ["api_key": "k-123456"]],
                            encoding: JSONEncoding.default)
                    }
                }
                var headers: [String: String]? { ["Authorization": "Bearer sk_live_abcdef", "Accept": "application/json"] }
                var sampleData: Data { Data() }
            }
            """#)
        XCTAssertEqual(result.status, 0, result.stderr)
        for secret in ["hunter2", "k-123456", "sk_live_abcdef"] {
            XCTAssertFalse(result.stdout.contains(secret), result.stdout)
            XCTAssertFalse(result.stderr.contains(secret), result.stderr)
        }
        XCTAssertTrue(result.stdout.contains("Authorization: \"${secret:MOYA_VAULT_AUTHORIZATION}\""), result.stdout)
        // A task may not read the environment: the credential is a value the caller gives.
        XCTAssertTrue(result.stdout.contains("{password: string}"), result.stdout)
        XCTAssertTrue(result.stdout.contains("password: \"{password}\""), result.stdout)
        XCTAssertTrue(result.stdout.contains("api_key: \"{api_key}\""), result.stdout)
        XCTAssertTrue(result.stdout.contains("Accept: application/json"), result.stdout)
        XCTAssertTrue(result.stderr.contains("Authorization holds a credential in the sources"), result.stderr)
    }

    /// A stub in --samples that is a symbolic link out of it (a cloned app's `Stubs/Me.json` to
    /// the user's own key) is not copied into the target folder: 65, nothing written.
    func testAStubLinkedOutOfTheSamplesFolderIsNotCopied() throws {
        let source = #"""
            import Moya
            enum Linked: TargetType {
                case me
                var baseURL: URL { URL(string: "https://linked.example")! }
                var path: String { "/me" }
                var method: Moya.Method { .get }
                var task: Task { .requestPlain }
                var headers: [String: String]? { nil }
                var sampleData: Data { stubbedResponse("Me") }
            }
            """#
        let file = try sandbox.write("Linked.swift", source)
        try sandbox.write("private/key.json", #"{"key": "PRIVATE-KEY-BYTES"}"#)
        try sandbox.write("Stubs/Other.json", "{}")
        try FileManager.default.createSymbolicLink(
            atPath: sandbox.root.appendingPathComponent("Stubs/Me.json").path,
            withDestinationPath: "../private/key.json")
        let result = try sandbox.run(
            ["import", "swift", file.path, "--samples", sandbox.root.appendingPathComponent("Stubs").path])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("leads out of"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.root.appendingPathComponent("targets").path))
        // A stub that is a file in the folder is copied.
        try FileManager.default.removeItem(at: sandbox.root.appendingPathComponent("Stubs/Me.json"))
        try sandbox.write("Stubs/Me.json", #"{"login": "moya"}"#)
        let copied = try sandbox.run(
            ["import", "swift", file.path, "--samples", sandbox.root.appendingPathComponent("Stubs").path])
        XCTAssertEqual(copied.status, 0, copied.stderr)
        XCTAssertEqual(
            try String(
                contentsOf: sandbox.root.appendingPathComponent("targets/samples/linked/Me.json"), encoding: .utf8),
            #"{"login": "moya"}"#)
    }

    func testHugeAndDeepSourcesNeverCrash() throws {
        // 4,000 cases: imported whole.
        var huge = "import Moya\nenum Huge: TargetType {\n"
        for index in 0..<4000 { huge += "    case item\(index)(id: Int)\n" }
        huge += "    var baseURL: URL { URL(string: \"https://huge.example\")! }\n"
        huge += "    var path: String {\n        switch self {\n"
        for index in 0..<4000 { huge += "        case .item\(index)(let id): return \"/items/\(index)/\\(id)\"\n" }
        huge += "        }\n    }\n    var method: Moya.Method { .get }\n    var task: Task { .requestPlain }\n"
        huge += "    var headers: [String: String]? { nil }\n    var sampleData: Data { Data() }\n}\n"
        let many = try hostile("Huge.swift", huge)
        XCTAssertEqual(many.status, 0, many.stderr)
        XCTAssertTrue(many.stderr.contains("4000 cases"), many.stderr)
        // Nested 3,000 deep: over the parser's limit, a 65 with its place. Arrays directly in
        // arrays (`[[[`), which the parser reads in exponential time, are refused past 12.
        let cases: [(String, String, Int32, String)] = [
            (
                "Deep", String(repeating: "[\"a\": ", count: 3000) + "1" + String(repeating: "]", count: 3000), 65,
                "Deep.swift:7:"
            ),
            (
                "Arrays12", String(repeating: "[", count: 12) + "1" + String(repeating: "]", count: 12), 0,
                "the parameters are not a dictionary literal"
            ),
            (
                "Arrays40", "[\"k\": " + String(repeating: "[", count: 40) + "1" + String(repeating: "]", count: 41),
                65,
                "Arrays40.swift:7:59: more than 12 array literals directly inside one another"
            )
        ]
        for (name, nested, status, message) in cases {
            let deep = try hostile(
                "\(name).swift",
                """
                import Moya
                enum Deep: TargetType {
                    case a
                    var baseURL: URL { URL(string: "https://deep.example")! }
                    var path: String { "/a" }
                    var method: Moya.Method { .post }
                    var task: Task { .requestParameters(parameters: \(nested), encoding: JSONEncoding.default) }
                    var headers: [String: String]? { nil }
                    var sampleData: Data { Data() }
                }
                """)
            XCTAssertEqual(deep.status, status, "\(name): " + deep.stderr)
            XCTAssertTrue(deep.stderr.contains(message), deep.stderr)
        }
    }

    func testAMissingHelperIsAClearError() throws {
        let folder = try makeTemporaryFolder()
        let copy = folder.appendingPathComponent("moya-cli")
        try FileManager.default.copyItem(at: CLIRunner.binaryURL, to: copy)
        let result = try sandbox.run(
            ["import", "swift", Self.fixtures.appendingPathComponent("GitHub.swift").path], binary: copy)
        XCTAssertEqual(result.status, 70, result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "moya-cli-import-swift is not installed beside moya-cli (\(folder.path)/moya-cli-import-swift)"),
            result.stderr)
    }

    /// The main binary does not link swift-syntax: the parser lives in the helper alone.
    func testTheCommandDoesNotLinkTheSwiftParser() throws {
        let moyaCLI = try Data(contentsOf: CLIRunner.binaryURL)
        XCTAssertNil(moyaCLI.range(of: Data("SwiftParser".utf8)), "moya-cli holds SwiftParser's symbols")
        let helper = CLIRunner.binaryURL.deletingLastPathComponent().appendingPathComponent("moya-cli-import-swift")
        let helperBytes = try Data(contentsOf: helper)
        XCTAssertNotNil(helperBytes.range(of: Data("SwiftParser".utf8)))
    }
}
