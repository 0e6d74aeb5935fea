import CLITestSupport
import Foundation
import TestServers
import XCTest

/// `--all` sends the API's credentials to every page, wherever the auth puts them: an API key in
/// the query (which a server's next link does not repeat), an API key in a header, a bearer
/// token. `call --all` and `check --live --all` build page N by one rule (`DynamicTarget.page(at:)`);
/// before it, `call --all` replaced the URL after encoding and lost a query key after page 1.
final class PagingAuthTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
        for (api, auth) in [
            ("inquery", #"{type: apiKey, in: query, name: api key, key: "${secret:PAGES_KEY}"}"#),
            ("inheader", #"{type: apiKey, in: header, name: X-Api-Key, key: "${secret:PAGES_KEY}"}"#),
            ("bearer", #"{type: bearer, token: "${secret:PAGES_KEY}"}"#)
        ] {
            try sandbox.write(
                "targets/\(api).yaml",
                """
                api: \(api)
                baseURL: http://127.0.0.1:\(server.port)
                auth: \(auth)
                validation: successCodes
                pagination: {next: link}
                cases:
                  link: {path: /pages/link}
                  cursor:
                    values: [{limit: {type: int, default: 2}}]
                    path: /pages/cursor
                    task: {parameters: {limit: "{limit}"}, encoding: url}
                    pagination: {cursor: {from: "$.meta.next_cursor", param: cursor}, items: "$.data"}
                  cursorInQuery:
                    values: [{limit: {type: int, default: 2}}]
                    path: /pages/cursor
                    task: {parameters: {limit: "{limit}"}, encoding: url, destination: queryString}
                    pagination: {cursor: {from: "$.meta.next_cursor", param: cursor}, items: "$.data"}
                """)
        }
    }

    override func tearDown() {
        server.stop()
    }

    /// Has a space, a slash, an `&` and an `=`: percent-encoded in a query.
    let key = "k3y/s e&c=ret"
    var environment: [String: String] { ["PAGES_KEY": key] }
    let sixItems = "[\n{\"id\":1},\n{\"id\":2},\n{\"id\":3},\n{\"id\":4},\n{\"id\":5},\n{\"id\":6}\n]\n"

    /// The value each received request carried as the API's credential.
    func sentCredentials(_ api: String, since first: Int = 0) -> [String?] {
        server.receivedRequests.dropFirst(first).map { request in
            switch api {
            case "inquery": request.queryItems.first { $0.name == "api key" }?.value
            case "inheader": request.value(of: "X-Api-Key")
            default: request.value(of: "Authorization")
            }
        }
    }

    func expected(_ api: String) -> String {
        api == "bearer" ? "Bearer " + key : key
    }

    func testCallAllSendsAQueryKeyToEveryPage() throws {
        let result = try sandbox.run(["call", "inquery", "link", "--all"], environment: environment)
        assertRun(result, status: 0, stdout: sixItems, stderr: "")
        XCTAssertEqual(server.receivedRequests.map(\.path), Array(repeating: "/pages/link", count: 3))
        XCTAssertEqual(
            server.receivedRequests.map { $0.queryItems.first { $0.name == "page" }?.value }, [nil, "2", "3"])
        XCTAssertEqual(sentCredentials("inquery"), Array(repeating: key, count: 3))
        // Once on each page: the link did not have it, and it is not added twice.
        XCTAssertEqual(server.receivedRequests.map { $0.queryItems.filter { $0.name == "api key" }.count }, [1, 1, 1])
    }

    func testCheckLiveAllSendsAQueryKeyToEveryPage() throws {
        let result = try sandbox.run(
            ["check", "inquery", "--live", "--all", "--only", "link"], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.receivedRequests.count, 3, result.stderr)
        XCTAssertEqual(sentCredentials("inquery"), Array(repeating: key, count: 3))
        XCTAssertFalse(result.stderr.contains("k3y"), result.stderr)
    }

    func testEveryPlacementReachesEveryPageOnBothRoads() throws {
        for api in ["inquery", "inheader", "bearer"] {
            for command in [["call", api, "link", "--all"], ["check", api, "--live", "--all", "--only", "link"]] {
                let first = server.receivedRequests.count
                let result = try sandbox.run(command, environment: environment)
                XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
                XCTAssertEqual(server.receivedRequests.count - first, 3, "\(command)")
                XCTAssertEqual(
                    sentCredentials(api, since: first), Array(repeating: expected(api), count: 3), "\(command)")
            }
        }
    }

    func testACursorPageKeepsTheKeyAndDoesNotRepeatTheFirstPagesQuery() throws {
        // The encoding's default destination (methodDependent) and queryString: both put `limit` in
        // page 1's query, which the next pages get from page 1's URL, not again from the task.
        for command in [
            ["call", "inquery", "cursor", "--all"], ["check", "inquery", "--live", "--all", "--only", "cursor"],
            ["call", "inquery", "cursorInQuery", "--all"],
            ["check", "inquery", "--live", "--all", "--only", "cursorInQuery"]
        ] {
            let first = server.receivedRequests.count
            let result = try sandbox.run(command, environment: environment)
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
            XCTAssertEqual(
                server.receivedRequests.dropFirst(first).map { $0.queryItems.map(\.name) },
                [["api key", "limit"], ["api key", "limit", "cursor"], ["api key", "limit", "cursor"]], "\(command)")
            XCTAssertEqual(sentCredentials("inquery", since: first), Array(repeating: key, count: 3), "\(command)")
        }
    }

    func testTheKeyOfEveryPageIsRedactedInTheVerboseLog() throws {
        let result = try sandbox.run(["call", "inquery", "link", "--all", "-v"], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("k3y"), result.stderr)
        XCTAssertTrue(result.stderr.contains("page=2"), result.stderr)
        XCTAssertTrue(result.stderr.contains("page=3"), result.stderr)
    }
}
