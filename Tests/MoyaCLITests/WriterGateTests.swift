import CLITestSupport
import Foundation
import XCTest

@testable import TestServers

/// Issue 38, bugs 1, 2, 3, 4, 5 and 7, through the binary: every writer of a target file
/// (`import curl|har|postman`, `request --save-as/--save-sample`) keeps the rules of the one gate
/// (`TargetFileGate`): no new cases in a trusted file, one secret model (by name, by being read by
/// auth, by value in every spelling), one sample renderer (too deep goes to a file), one header.
final class WriterGateTests: XCTestCase {
    var folder: TemporaryFolder!
    var server: HTTPTestServer!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server.stop()
    }

    private var base: String { "http://127.0.0.1:\(server.port)" }

    private func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
        try CLIRunner.run(
            arguments, environment: ["HOME": folder.url.path].merging(environment) { _, new in new },
            currentDirectory: folder.url)
    }

    private func text(_ name: String) throws -> String {
        try String(contentsOf: folder.url.appendingPathComponent(name), encoding: .utf8)
    }

    /// JSON nested `depth` deep: `{"a":{"a":…1…}}`.
    private static func deepJSON(_ depth: Int) -> String {
        String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
    }

    // MARK: - Bug 1: a variable an auth scheme reads is a secret, whatever its name

    func testPostmanVariablesReadByAuthAreNeverWritten() throws {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.payload.sig-value"
        try folder.write(
            "shop.postman.json",
            #"""
            {
              "info": {"name": "Shop", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
              "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{jwt}}"}]},
              "variable": [{"key": "baseUrl", "value": "\#(base)"}, {"key": "jwt", "value": "\#(jwt)"}],
              "item": [
                {"name": "Me", "request": {"method": "GET", "url": "{{baseUrl}}/anything/me"},
                 "response": [{"name": "ok", "code": 200, "header": [{"key": "Content-Type", "value": "application/json"}],
                   "body": "{\"echo\": \"Bearer \#(jwt)\"}"}]},
                {"name": "Login", "request": {"method": "GET", "url": "{{baseUrl}}/anything/login",
                  "auth": {"type": "basic", "basic": [{"key": "username", "value": "ann"}, {"key": "password", "value": "{{pw}}"}]}}}
              ]
            }
            """#)
        try folder.write(
            "prod.postman_environment.json",
            #"{"name": "prod", "values": [{"key": "pw", "value": "pa55-w0rd-env"}, {"key": "jwt", "value": "\#(jwt)-env"}]}"#
        )
        let imported = try run([
            "import", "postman", "shop.postman.json", "--environment", "prod.postman_environment.json", "--api", "shop"
        ])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let file = try text("targets/shop.yaml")
        XCTAssertFalse(file.contains(jwt), "the bearer's variable is a secret:\n\(file)")
        XCTAssertFalse(file.contains("pa55-w0rd-env"), "the basic password's variable is a secret:\n\(file)")
        XCTAssertTrue(file.contains("${secret:jwt}"), file)
        XCTAssertTrue(file.contains("<redacted>"), "the example that echoes the token:\n\(file)")
    }

    // MARK: - Bug 2: import curl adds no case to a trusted file, and no credential to another origin

    func testImportCurlRefusesToAddCasesToATrustedFile() throws {
        let original = """
            api: shop
            baseURL: https://api.shop.example
            auth: {type: bearer, token: "${secret:SHOP_TOKEN}"}
            cases:
              me: {path: /me, sample: ok}

            """
        try folder.write("trusted/shop.yaml", original)
        try folder.write("cmd.txt", "curl \(base)/anything/steal\n")
        let trusted = folder.url.appendingPathComponent("trusted").path
        let refused = try run(
            ["import", "curl", "cmd.txt", "-o", "trusted/shop.yaml", "--api", "shop", "--case", "steal"],
            environment: ["MOYA_TRUSTED_TARGETS": trusted])
        XCTAssertEqual(refused.status, 64, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("not adding cases to trusted/shop.yaml"), refused.stderr)
        XCTAssertEqual(try text("trusted/shop.yaml"), original, "nothing was written")
    }

    func testACaseImportedFromAnotherOriginSendsNoneOfTheAPIsCredentials() throws {
        try folder.write(
            "targets/shop.yaml",
            """
            api: shop
            baseURL: https://api.shop.example
            auth: {type: bearer, token: "${secret:SHOP_TOKEN}"}
            cases:
              me: {path: /me, sample: ok}

            """)
        try folder.write("cmd.txt", "curl \(base)/anything/steal\n")
        let imported = try run([
            "import", "curl", "cmd.txt", "-o", "targets/shop.yaml", "--api", "shop", "--case", "steal"
        ])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let file = try text("targets/shop.yaml")
        XCTAssertTrue(file.contains("auth: none"), file)
        let called = try run(
            ["call", "shop", "steal"],
            environment: ["SHOP_TOKEN": "user-bearer-token", CLIRunner.allowedVariablesName: "SHOP_TOKEN"])
        XCTAssertEqual(called.status, 0, called.stderr)
        let sent = server.receivedRequests.last
        XCTAssertEqual(sent?.path, "/anything/steal")
        XCTAssertNil(sent?.headers.first { $0.name.lowercased() == "authorization" }, "no bearer to the snippet's host")
    }

    // MARK: - Bugs 3 and 4: --save-as and --save-sample write no credential in any spelling

    func testSaveSampleRedactsACredentialEchoedPercentEncoded() throws {
        try folder.write(
            "targets/web.yaml",
            """
            api: web
            baseURL: \(base)
            auth: {type: apiKey, in: query, name: access_token, key: "${secret:WEB_TOKEN}"}
            cases:
              zen: {path: /zen, sample: ok}

            """)
        let token = "rt3/Tok+en=="
        let saved = try run(
            ["request", "web", "GET", "/anything/next", "--save-as", "next", "--save-sample"],
            environment: ["WEB_TOKEN": token, CLIRunner.allowedVariablesName: "WEB_TOKEN"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        let file = try text("targets/web.yaml")
        // The echoed URL spells it percent-encoded (`rt3%2FTok%2Ben%3D%3D` or with `/` kept).
        XCTAssertFalse(file.contains("Tok"), "in no spelling:\n\(file)")
        XCTAssertTrue(file.contains("access_token=<redacted>"), file)
    }

    func testSaveAsWritesTheAPIsOwnKeyHeaderAsASecret() throws {
        try folder.write(
            "targets/web.yaml",
            """
            api: web
            baseURL: \(base)
            auth: {type: apiKey, in: header, name: X-Shop-Key, key: "${secret:SHOP_KEY}"}
            cases:
              zen: {path: /zen, sample: ok}

            """)
        let saved = try run(
            ["request", "web", "GET", "/anything/items", "X-Shop-Key:k3y-typed-by-hand", "--save-as", "items"],
            environment: ["SHOP_KEY": "k3y-from-env", CLIRunner.allowedVariablesName: "SHOP_KEY"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        let file = try text("targets/web.yaml")
        XCTAssertFalse(file.contains("k3y-typed-by-hand"), file)
        XCTAssertFalse(file.contains("k3y-from-env"), file)
        XCTAssertTrue(file.contains(#"X-Shop-Key: "${secret:MOYA_WEB_X_SHOP_KEY}""#), file)
    }

    /// A header the file itself marks secret (`sensitiveHeaders:`), though its name does not look
    /// like a credential's, is saved as a `${secret:…}` reference; a header beside it stays as typed.
    func testSaveAsKeepsAHeaderTheFileMarksSensitiveOutOfTheFile() throws {
        try folder.write(
            "targets/web.yaml",
            """
            api: web
            baseURL: \(base)
            sensitiveHeaders: [X-Tenant]
            cases:
              zen: {path: /zen, sample: ok}

            """)
        let saved = try run(
            [
                "request", "web", "GET", "/anything/items", "X-Tenant:t3nant-0042", "X-Trace:trace-visible",
                "--save-as", "items"
            ])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        let file = try text("targets/web.yaml")
        XCTAssertFalse(file.contains("t3nant-0042"), file)
        XCTAssertTrue(file.contains(#"X-Tenant: "${secret:MOYA_WEB_X_TENANT}""#), file)
        XCTAssertTrue(file.contains("trace-visible"), file)
    }

    // MARK: - Bug 5: body credentials become values; response tokens are not kept

    func testImportCurlMakesBodyCredentialsValues() throws {
        try folder.write(
            "cmds.txt",
            """
            curl \(base)/anything/login -H 'Content-Type: application/json' -d '{"user":"ann","password":"hunter22-pw"}'
            curl \(base)/anything/token -H 'Content-Type: application/x-www-form-urlencoded' -d 'grant_type=client_credentials&client_secret=cl13nt-s3cret'

            """)
        let imported = try run(["import", "curl", "cmds.txt", "--api", "auth", "--case", "login"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let file = try text("targets/auth.yaml")
        XCTAssertFalse(file.contains("hunter22-pw"), file)
        XCTAssertFalse(file.contains("cl13nt-s3cret"), file)
        XCTAssertTrue(file.contains("client_secret={client_secret}"), file)
        XCTAssertTrue(imported.stderr.contains("the body field password, a credential"), imported.stderr)
        // Called with the value, the case sends it.
        let called = try run(["call", "auth", "login", "--password", "given-at-call"])
        XCTAssertEqual(called.status, 0, called.stderr)
        XCTAssertEqual(server.receivedRequests.last?.body, Data(#"{"user":"ann","password":"given-at-call"}"#.utf8))
    }

    func testImportHARHidesBodyAndResponseCredentials() throws {
        try folder.write(
            "login.har",
            ImportHARTests.capture([
                #"{"request": {"method": "POST", "url": "\#(base)/anything/login", "headers": [{"name": "Content-Type", "value": "application/json"}], "postData": {"mimeType": "application/json", "text": "{\"user\":\"ann\",\"password\":\"hunter22-pw\"}"}}, "response": {"status": 200, "content": {"mimeType": "application/json", "text": "{\"access_token\":\"at-l1ve-123\",\"refresh_token\":\"rt-l1ve-456\",\"author\":\"ann\"}"}}}"#
            ]))
        let imported = try run(["import", "har", "login.har", "--api", "login"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let file = try text("targets/login.yaml")
        for secret in ["hunter22-pw", "at-l1ve-123", "rt-l1ve-456"] {
            XCTAssertFalse(file.contains(secret), "\(secret):\n\(file)")
        }
        XCTAssertTrue(file.contains("author: ann"), "author is no credential:\n\(file)")
    }

    // MARK: - The credential-name table, both ways

    func testTheNameTableCatchesKeyButNotAuthorKeywordOrMonkey() throws {
        try folder.write(
            "cmd.txt", "curl '\(base)/anything/search?key=k3y-value&author=ann&keyword=moya&monkey=george'\n")
        let imported = try run(["import", "curl", "cmd.txt", "--api", "search", "--case", "search"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let file = try text("targets/search.yaml")
        XCTAssertFalse(file.contains("k3y-value"), file)
        XCTAssertTrue(file.contains("key: \"{key}\""), file)
        XCTAssertTrue(file.contains("author: ann"), file)
        XCTAssertTrue(file.contains("keyword: moya"), file)
        XCTAssertTrue(file.contains("monkey: george"), file)
    }

    // MARK: - Bug 7: a JSON body deeper than the loader reads goes to a sample file

    func testImportHARPutsADeepResponseInASampleFile() throws {
        let deep = Self.deepJSON(80).replacing("\"", with: "\\\"")
        try folder.write(
            "deep.har",
            ImportHARTests.capture([
                #"{"request": {"method": "GET", "url": "\#(base)/anything/deep", "headers": []}, "response": {"status": 200, "content": {"mimeType": "application/json", "text": "\#(deep)"}}}"#
            ]))
        let imported = try run(["import", "har", folder.url.appendingPathComponent("deep.har").path, "--api", "deep"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let file = try text("targets/deep.yaml")
        XCTAssertTrue(file.contains("file: samples/deep/getAnythingDeep.json"), file)
        XCTAssertEqual(try text("targets/samples/deep/getAnythingDeep.json"), Self.deepJSON(80))
        XCTAssertTrue(file.hasPrefix("# Made by moya-cli import har from deep.har;"), "no absolute path:\n\(file)")
        let stubbed = try run(["call", "deep", "getAnythingDeep", "--stub"])
        XCTAssertEqual(stubbed.stdout, Self.deepJSON(80))
    }

    func testImportCurlKeepsADeepJSONBody() throws {
        try folder.write(
            "cmd.txt", "curl \(base)/anything/deep -H 'Content-Type: application/json' -d '\(Self.deepJSON(80))'\n")
        let imported = try run(["import", "curl", "cmd.txt", "--api", "deep", "--case", "deep"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let called = try run(["call", "deep", "deep"])
        XCTAssertEqual(called.status, 0, called.stderr)
        XCTAssertEqual(server.receivedRequests.last?.body, Data(Self.deepJSON(80).utf8))
    }

    func testImportPostmanPutsADeepExampleInASampleFile() throws {
        let deep = Self.deepJSON(80).replacing("\"", with: "\\\"")
        try folder.write(
            "deep.postman.json",
            #"""
            {"info": {"name": "d", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [{"name": "X", "request": {"method": "GET", "url": "\#(base)/anything/x"},
               "response": [{"name": "ok", "code": 200, "header": [{"key": "Content-Type", "value": "application/json"}],
                 "body": "\#(deep)"}]}]}
            """#)
        let imported = try run(["import", "postman", "deep.postman.json", "--api", "deep"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(try text("targets/deep.yaml").contains("file: samples/deep/x.json"))
        XCTAssertEqual(try run(["call", "deep", "x", "--stub"]).stdout, Self.deepJSON(80))
    }

    func testImportOpenAPILeavesADeepExampleOutWithANote() throws {
        var example = "1"
        for _ in 0..<80 { example = #"{"a": \#(example)}"# }
        try folder.write(
            "spec.json",
            #"""
            {"openapi": "3.0.3", "info": {"title": "d", "version": "1"}, "servers": [{"url": "\#(base)"}],
             "paths": {"/x": {"get": {"operationId": "getX", "responses": {"200": {"description": "ok",
               "content": {"application/json": {"example": \#(example)}}}}}}}}
            """#)
        let imported = try run(["import", "openapi", "spec.json", "--api", "deep"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stderr.contains("nests deeper than a target file holds"), imported.stderr)
    }

    func testSaveSamplePutsADeepResponseInASampleFile() throws {
        // `serve` answers the deep body, from another folder.
        let served = try TemporaryFolder()
        try served.write(
            "targets/src.yaml",
            "api: src\nbaseURL: http://src.example\ncases:\n  deep: {path: /deep, sample: {file: deep.json, headers: {Content-Type: application/json}}}\n"
        )
        try served.write("targets/deep.json", Self.deepJSON(80))
        let source = try ServeProcess([], in: served.url)
        defer { _ = source.stop() }
        try folder.write(
            "targets/web.yaml",
            "api: web\nbaseURL: http://127.0.0.1:\(source.port)\ncases:\n  z: {path: /z, sample: ok}\n")
        let saved = try run(["request", "web", "GET", "/deep", "--save-as", "deep", "--save-sample"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        let file = try text("targets/web.yaml")
        XCTAssertTrue(file.contains("file: samples/web/deep.json"), file)
        XCTAssertEqual(try run(["call", "web", "deep", "--stub"]).stdout, Self.deepJSON(80))
    }
}
