import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 39: `request --save-as` with `-u`/`--bearer` saves the case reading an auth scheme of
/// the API (added when it has none), so the saved case is called again with `-u`/`--bearer` or
/// the scheme's variables, and checked; and `request METHOD URL --save-as API.CASE` starts an API.
final class SavedCredentialTests: WebTargetTestCase {
    override func webTarget(port: UInt16) -> String {
        """
        # web API, by hand
        api: web
        baseURL: http://127.0.0.1:\(port)
        cases:
          zen: {path: /anything/zen, sample: ok}
        """
    }

    private var path: String { folder.url.path + "/targets/web.yaml" }
    private func fileText(_ name: String = "web") throws -> String {
        try String(contentsOfFile: folder.url.path + "/targets/\(name).yaml", encoding: .utf8)
    }

    private func write(_ text: String) throws { try folder.write("targets/web.yaml", text) }

    private func runWith(_ arguments: [String], _ environment: [String: String]) throws -> CLIResult {
        try CLIRunner.run(
            arguments,
            environment: ["HOME": folder.url.path, "MOYA_ALLOW_ENV": "*"].merging(environment) { _, new in new },
            currentDirectory: folder.url)
    }

    func testBasicAndBearerBecomeTheAPIsSchemesAndTheSavedCasesTakeTheirOptionsAgain() throws {
        let bearer = try run(["request", "web", "GET", "/bearer", "--bearer", "t0ken-s3cret", "--save-as", "withToken"])
        XCTAssertEqual(bearer.status, 0, bearer.stderr)
        XCTAssertTrue(
            bearer.stderr.contains(
                "moya-cli: the case reads the bearer token from ${secret:MOYA_WEB_TOKEN}; set MOYA_WEB_TOKEN to call it\n"
                    + "moya-cli: or give --bearer TOKEN as you did: moya-cli call web withToken --bearer TOKEN\n"),
            bearer.stderr)
        let basic = try run([
            "request", "web", "GET", "/anything/login", "-u", "alice:pw-s3cret", "--save-as", "withBasic"
        ])
        XCTAssertEqual(basic.status, 0, basic.stderr)
        let text = try fileText()
        for secret in ["t0ken-s3cret", "pw-s3cret", Data("alice:pw-s3cret".utf8).base64EncodedString()] {
            XCTAssertFalse(text.contains(secret), "a credential is never written: \(text)")
        }
        XCTAssertTrue(
            text.contains(
                """
                auth:
                  schemes:
                    bearer: {type: bearer, token: "${secret:MOYA_WEB_TOKEN}"}
                    basic: {type: basic, username: "${secret:MOYA_WEB_USER}", password: "${secret:MOYA_WEB_PASSWORD}"}
                cases:
                  zen: {path: /anything/zen, sample: ok}

                """), text)
        XCTAssertTrue(text.contains("  withToken:\n    method: GET\n    path: /bearer\n    auth: bearer\n"), text)
        XCTAssertTrue(text.hasSuffix("  withBasic:\n    method: GET\n    path: /anything/login\n    auth: basic"), text)
        XCTAssertFalse(text.contains("Authorization"), "no header secret: \(text)")

        // Called again: with the options, with the variables, and the other case sends nothing.
        let count = server.receivedRequests.count
        XCTAssertEqual(try run(["call", "web", "withToken", "--bearer", "again"]).status, 0)
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Authorization"), "Bearer again")
        let fromEnvironment = try runWith(
            ["call", "web", "withBasic"], ["MOYA_WEB_USER": "alice", "MOYA_WEB_PASSWORD": "pw-s3cret"])
        XCTAssertEqual(fromEnvironment.status, 0, fromEnvironment.stderr)
        XCTAssertEqual(
            server.receivedRequests.last?.value(of: "Authorization"),
            "Basic " + Data("alice:pw-s3cret".utf8).base64EncodedString())
        let option = try run(["call", "web", "withBasic", "-u", "bob:pw"])
        XCTAssertEqual(option.status, 0, option.stderr)
        XCTAssertEqual(
            server.receivedRequests.last?.value(of: "Authorization"),
            "Basic " + Data("bob:pw".utf8).base64EncodedString())
        XCTAssertEqual(try run(["call", "web", "zen"]).status, 0)
        XCTAssertNil(server.receivedRequests.last?.value(of: "Authorization"), "zen still sends no credentials")
        XCTAssertEqual(server.receivedRequests.count, count + 4)

        // Both saved cases pass the offline check with no variable set.
        let check = try run(["check", "web"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
    }

    func testAOneSchemeAuthBecomesTheDefaultOfNamedSchemesAndKeepsWhatEveryCaseSent() throws {
        for (style, auth) in [
            ("flow", "auth: {type: bearer, token: \"${secret:WEB_TOKEN}\"}   # the API's\n"),
            ("block", "auth:\n  type: bearer   # the API's\n  token: \"${secret:WEB_TOKEN}\"\n")
        ] {
            try write(
                """
                api: web
                baseURL: http://127.0.0.1:\(server.port)
                \(auth)cases:
                  zen: {path: /anything/zen, sample: ok}
                  open: {path: /anything/open, auth: none, sample: ok}
                  named: {path: /anything/named, auth: bearer, sample: ok}

                """)
            let saved = try run(["request", "web", "GET", "/anything/login", "-u", "ada:pw", "--save-as", "login"])
            XCTAssertEqual(saved.status, 0, "\(style): \(saved.stderr)")
            let text = try fileText()
            XCTAssertTrue(text.contains("  default: bearer\n  schemes:\n    basic: {type: basic"), "\(style): \(text)")
            XCTAssertTrue(text.contains("# the API's"), "\(style): the comment is kept: \(text)")
            let environment = ["WEB_TOKEN": "tok", "MOYA_WEB_USER": "ada", "MOYA_WEB_PASSWORD": "pw"]
            var sent: [String?] = []
            for name in ["zen", "open", "named", "login"] {
                let call = try runWith(["call", "web", name], environment)
                XCTAssertEqual(call.status, 0, "\(style) \(name): \(call.stderr)")
                sent.append(server.receivedRequests.last?.value(of: "Authorization"))
            }
            XCTAssertEqual(
                sent, ["Bearer tok", nil, "Bearer tok", "Basic " + Data("ada:pw".utf8).base64EncodedString()], style)
            XCTAssertEqual(try run(["validate", "targets/web.yaml"]).status, 0, style)
        }
    }

    func testAFlowStyleSchemesMapIsRefusedBeforeAnythingIsSent() throws {
        let original = """
            api: web
            baseURL: http://127.0.0.1:\(server.port)
            auth: {schemes: {token: {type: bearer, token: "${secret:WEB_TOKEN}"}}}
            cases:
              zen: {path: /anything/zen, sample: ok}

            """
        try write(original)
        let refused = try run(["request", "web", "GET", "/anything/x", "-u", "ada:pw", "--save-as", "login"])
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("is written in flow style"), refused.stderr)
        XCTAssertEqual(server.receivedRequests.count, 0, "nothing was sent")
        XCTAssertEqual(try fileText(), original)
        // A scheme of the type already there is used as it is.
        let bearer = try run(["request", "web", "GET", "/anything/x", "--bearer", "t", "--save-as", "withToken"])
        XCTAssertEqual(bearer.status, 0, bearer.stderr)
        XCTAssertTrue(
            try fileText().hasSuffix("  withToken:\n    method: GET\n    path: /anything/x\n    auth: token\n"))
    }

    func testAURLRequestStartsAnAPIOrAddsToIt() throws {
        let url = "http://127.0.0.1:\(server.port)"
        let refused = try run(["request", "GET", url + "/anything/a", "--save-as", "first"])
        XCTAssertEqual(refused.status, 64)
        XCTAssertEqual(
            refused.stderr,
            "moya-cli: error: --save-as first: a URL has no target file; give --save-as API.first, which adds the case to API's target file, or starts targets/API.yaml with the URL's origin as its base URL\n"
        )
        let started = try run([
            "request", "POST", url + "/anything/items?tag=x", "name=Ann", "--bearer", "s3cret-t", "--save-as",
            "shop.createItem"
        ])
        XCTAssertEqual(started.status, 0, started.stderr)
        XCTAssertTrue(
            started.stderr.hasPrefix("moya-cli: wrote targets/shop.yaml: API 'shop' with the case 'createItem'\n"),
            started.stderr)
        let text = try fileText("shop")
        XCTAssertFalse(text.contains("s3cret-t"))
        XCTAssertTrue(
            text.contains(
                """
                api: shop
                baseURL: "\(url)"
                auth:
                  schemes:
                    bearer: {type: bearer, token: "${secret:MOYA_SHOP_TOKEN}"}
                cases:
                  createItem:
                    method: POST
                    path: /anything/items
                    auth: bearer
                """), text)
        // The same origin adds a case with its path; another origin, a case with its own base URL.
        XCTAssertEqual(try run(["request", "GET", url + "/anything/b", "--save-as", "shop.listItems"]).status, 0)
        let other = try run([
            "request", "GET", "http://localhost:\(server.port)/anything/c", "--save-as", "shop.elsewhere"
        ])
        XCTAssertEqual(other.status, 0, other.stderr)
        let added = try fileText("shop")
        XCTAssertTrue(added.contains("  listItems:\n    method: GET\n    path: /anything/b\n"), added)
        XCTAssertTrue(
            added.contains(
                "  elsewhere:\n    baseURL: \"http://localhost:\(server.port)\"\n    method: GET\n    path: /anything/c\n"
            ),
            added)
        let again = try run(["call", "shop", "createItem", "--bearer", "t2"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Authorization"), "Bearer t2")
        XCTAssertEqual(server.receivedRequests.last?.target, "/anything/items?tag=x")
        XCTAssertEqual(try run(["check", "shop"]).status, 0)
        // The API named must be the request's, and a name must be an API name.
        let mismatch = try run(["request", "web", "GET", "/x", "--save-as", "shop.x"])
        XCTAssertEqual(mismatch.status, 64)
        XCTAssertTrue(mismatch.stderr.contains("names the API 'shop', but the request is to 'web'"), mismatch.stderr)
        let badName = try run(["request", "GET", url + "/x", "--save-as", "../evil.x"])
        XCTAssertEqual(badName.status, 64, badName.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.path + "/evil.yaml"))
    }
}
