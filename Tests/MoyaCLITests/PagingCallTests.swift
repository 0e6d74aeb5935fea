import CLITestSupport
import Foundation
import TestServers
import XCTest

/// `call … --all` over loopback: each paging style, the loop guard, the origin rule, rate limits,
/// a failing page and the page limit; and `--stub --all` offline.
final class PagingCallTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
        try sandbox.write(
            "targets/pages.yaml",
            """
            api: pages
            baseURL: http://127.0.0.1:\(server.port)
            headers: {X-Api-Key: "${secret:PAGES_KEY}"}
            validation: successCodes
            pagination: {next: link}
            cases:
              link: {path: /pages/link}
              loop: {path: /pages/loop}
              evil: {path: /pages/evil}
              limited: {path: /pages/limited}
              fail: {path: /pages/fail}
              endless: {path: /pages/endless}
              html: {path: /pages/html}
              body:
                path: /pages/body
                pagination: {next: {body: "$.next"}, items: "$.results"}
              cursor:
                values: [{limit: {type: int, default: 2}}]
                path: /pages/cursor
                task: {parameters: {limit: "{limit}"}, encoding: url}
                pagination: {cursor: {from: "$.meta.next_cursor", param: cursor}, items: "$.data"}
              single:
                path: /json
                pagination: none
            """)
    }

    override func tearDown() {
        server.stop()
    }

    let environment = ["PAGES_KEY": "k3y-secret"]
    let sixItems = "[\n{\"id\":1},\n{\"id\":2},\n{\"id\":3},\n{\"id\":4},\n{\"id\":5},\n{\"id\":6}\n]\n"

    func run(_ arguments: [String]) throws -> CLIResult {
        try sandbox.run(["call", "pages"] + arguments, environment: environment)
    }

    func testLinkPagingFollowsRelativeAndAbsoluteLinksAcrossFields() throws {
        assertRun(try run(["link", "--all"]), status: 0, stdout: sixItems, stderr: "")
        XCTAssertEqual(
            server.receivedRequests.map(\.target), ["/pages/link", "/pages/link?page=2", "/pages/link?page=3"])
        // The credentials go to every page (they stay on the API's origin).
        XCTAssertEqual(
            server.receivedRequests.map { $0.value(of: "X-Api-Key") }, Array(repeating: "k3y-secret", count: 3))
    }

    func testJSONLinesAndKeypathPerItem() throws {
        assertRun(
            try run(["link", "--all", "--format", "jsonl", "--keypath", "id"]), status: 0, stdout: "1\n2\n3\n4\n5\n6\n",
            stderr: "")
        assertRun(
            try run(["link", "--all", "--keypath", "missing", "--max-pages", "1"]), status: 9,
            stdout: "[\nnull,\nnull\n]\n",
            stderr:
                "moya-cli: error: stopped after 1 page (--max-pages 1); the server has more; raise --max-pages to get them; 2 items printed before\n"
        )
    }

    func testBodyAndCursorPaging() throws {
        assertRun(
            try run(["body", "--all", "--format", "jsonl"]), status: 0,
            stdout: "{\"id\":1}\n{\"id\":2}\n{\"id\":3}\n{\"id\":4}\n", stderr: "")
        assertRun(try run(["cursor", "--all"]), status: 0, stdout: sixItems, stderr: "")
        XCTAssertEqual(
            server.receivedRequests.suffix(3).map(\.target),
            ["/pages/cursor?limit=2", "/pages/cursor?limit=2&cursor=c2", "/pages/cursor?limit=2&cursor=c3"])
    }

    func testALoopStopsWithTheArrayClosed() throws {
        let result = try run(["loop", "--all"])
        XCTAssertEqual(result.status, 1)
        // /pages/loop, ?page=2, ?page=1, whose next (?page=2) was fetched before.
        XCTAssertEqual(
            result.stdout, sixItems.replacingOccurrences(of: "5", with: "1").replacingOccurrences(of: "6", with: "2"))
        XCTAssertEqual(
            result.stderr,
            "moya-cli: error: pages.loop: page 3 points to a page fetched before "
                + "(http://127.0.0.1:\(server.port)/pages/loop?page=2); stopping, as the server would page forever; 6 items printed before\n"
        )
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: result.stdoutData))
        XCTAssertEqual(
            server.receivedRequests.map(\.target), ["/pages/loop", "/pages/loop?page=2", "/pages/loop?page=1"])
    }

    func testANextPageOnAnotherOriginIsRefusedAndNothingIsSentThere() throws {
        let result = try run(["evil", "--all"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "[\n{\"id\":1},\n{\"id\":2}\n]\n")
        XCTAssertEqual(
            result.stderr,
            "moya-cli: error: pages.evil: page 1: refusing to follow the next page to "
                + "'http://localhost:\(server.port)/pages/link?page=2': it leaves the API's origin (http://127.0.0.1:\(server.port)); "
                + "a server may only page within the base URL's scheme, host and port; 2 items printed before\n")
        XCTAssertEqual(server.receivedRequests.map(\.target), ["/pages/evil"])
    }

    func testRateLimitedPagesWaitAndRetry() throws {
        let result = try run(["limited", "--all", "--format", "jsonl", "--keypath", "id"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "1\n2\n3\n4\n5\n6\n")
        XCTAssertEqual(
            result.stderr, "moya-cli: HTTP 429; retrying in 0 s (1/3)\nmoya-cli: HTTP 503; retrying in 0 s (1/3)\n")
        XCTAssertEqual(
            server.receivedRequests.map(\.target),
            [
                "/pages/limited", "/pages/limited?page=2", "/pages/limited?page=2", "/pages/limited?page=3",
                "/pages/limited?page=3"
            ])
    }

    func testAFailingPageClosesTheArrayAndExitsWithItsStatus() throws {
        let result = try run(["fail", "--all"])
        assertRun(
            result, status: 5, stdout: "[\n{\"id\":1},\n{\"id\":2}\n]\n",
            stderr:
                "moya-cli: error: pages.fail: page 2: HTTP 500 failed the case's validation; 2 items printed before\n")
    }

    func testAnEndlessServerStopsAtTheLimitAndNotAsAHang() throws {
        let result = try run(["endless", "--all", "--max-pages", "5", "--format", "jsonl", "--keypath", "id"])
        assertRun(
            result, status: 9, stdout: (1...10).map { "\($0)\n" }.joined(),
            stderr:
                "moya-cli: error: stopped after 5 pages (--max-pages 5); the server has more; raise --max-pages to get them; 10 items printed before\n"
        )
        XCTAssertEqual(server.receivedRequests.count, 5)
        let check = try sandbox.run(
            ["check", "pages", "--live", "--all", "--only", "endless"], environment: environment)
        XCTAssertEqual(check.status, 8)
        XCTAssertTrue(
            check.stderr.contains("more than 100 pages (--max-pages 100); the last one still has a next page"),
            check.stderr)
    }

    func testAPageThatIsNotJSONStopsWithItsPlaceAndNoEscapes() throws {
        let result = try run(["html", "--all"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "[]\n")
        XCTAssertTrue(
            result.stderr.hasPrefix("moya-cli: error: pages.html: page 1: the body is not JSON"), result.stderr)
        XCTAssertFalse(result.stderr.contains("\u{1B}"), result.stderr)
    }

    func testLiveCheckAllFollowsEveryStyleAndFailsLoopsAndOtherOrigins() throws {
        let result = try sandbox.run(
            [
                "check", "pages", "--live", "--all", "--only", "link", "--only", "body", "--only", "cursor",
                "--only", "loop", "--only", "evil"
            ], environment: environment)
        XCTAssertEqual(result.status, 8, result.stderr)
        for id in ["pages.link", "pages.body", "pages.cursor"] {
            XCTAssertEqual(CheckFixtures.line(id, in: result.stderr)?.contains(" pass "), true, result.stderr)
        }
        XCTAssertEqual(
            CheckFixtures.line("pages.loop", in: result.stderr)?.contains("page 3 points to a page fetched before"),
            true, result.stderr)
        XCTAssertEqual(
            CheckFixtures.line("pages.evil", in: result.stderr)?.contains("leaves the API's origin"), true,
            result.stderr)
        XCTAssertFalse(
            server.receivedRequests.contains {
                $0.path == "/pages/link" && $0.target.contains("page=2")
                    && $0.value(of: "Host")?.hasPrefix("localhost") == true
            })
        // Without --all only the first page of each is fetched.
        let before = server.receivedRequests.count
        XCTAssertEqual(
            try sandbox.run(["check", "pages", "--live", "--only", "link"], environment: environment).status, 0)
        XCTAssertEqual(server.receivedRequests.count, before + 1)
    }

    func testUsageErrors() throws {
        assertRun(
            try run(["single", "--all"]), status: 64, stdout: "",
            stderr:
                "moya-cli: error: case 'single' of API 'pages' does not page; --all needs 'pagination:' on the case or the API (see moya-targets(5))\n"
        )
        XCTAssertEqual(try run(["link", "--all", "-w", "%{http_code}"]).status, 64)
        XCTAssertEqual(try run(["link", "--max-pages", "2"]).status, 64)
        XCTAssertEqual(try run(["link", "--all", "--max-pages", "0"]).status, 64)
        XCTAssertEqual(try run(["link", "--all", "-i"]).status, 64)
        XCTAssertEqual(try run(["link", "--all", "--capture"]).status, 64)
        for oneResponse in [["--continue"], ["--etag-save", "tag"], ["--etag-compare", "tag"]] {
            let result = try run(["link", "--all"] + oneResponse)
            XCTAssertEqual(result.status, 64, oneResponse[0])
            XCTAssertTrue(
                result.stderr.contains(" \(oneResponse[0]) ") || result.stderr.contains(" \(oneResponse[0]),"),
                result.stderr)
            XCTAssertEqual(try run(["link", "--capture"] + oneResponse).status, 64, oneResponse[0])
        }
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    func testVerboseShowsEveryPageWithTheKeyRedacted() throws {
        let result = try run(["link", "--all", "-v", "--max-pages", "2"])
        XCTAssertEqual(result.status, 9)
        XCTAssertTrue(result.stderr.contains("> GET /pages/link?page=2 HTTP/1.1"), result.stderr)
        XCTAssertFalse(result.stderr.contains("k3y-secret"), result.stderr)
    }

    func testTheShippedGitHubFilePagesOffline() throws {
        let result = try CLIRunner.run(
            ["call", "github", "userRepositories", "octocat", "--all", "--stub", "--keypath", "full_name"],
            currentDirectory: CLIRunner.repositoryRoot)
        assertRun(
            result, status: 0,
            stdout: "[\n\"octocat/Moya\",\n\"octocat/Repo-Name\",\n\"octocat/boysenberry-repo-1\"\n]\n", stderr: "")
    }

    func testControlCharactersInItemsStayEscaped() throws {
        try sandbox.write(
            "targets/controls.yaml",
            """
            api: controls
            baseURL: https://api.example.com
            cases:
              list:
                path: /list
                pagination: {next: link}
                sample: {text: '["a\\u001b[31m\\u009b31m"]', headers: {Content-Type: application/json}}
            """)
        assertRun(
            try sandbox.run(["call", "controls", "list", "--stub", "--all"]), status: 0,
            stdout: "[\n\"a\\u001b[31m\\u009b31m\"\n]\n", stderr: "")
    }

    func testStubPagingNeedsASampleForEveryNextPage() throws {
        try sandbox.write(
            "targets/stubbed.yaml",
            """
            api: stubbed
            baseURL: https://api.example.com
            pagination: {cursor: {from: "$.next", param: after}, items: "$.data"}
            cases:
              list:
                path: /list
                samples:
                  page1: {json: {data: [a, b], next: "b"}}
                  page2: {json: {data: [c], next: "c"}}
            """)
        let result = try sandbox.run(["call", "stubbed", "list", "--stub", "--all"])
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(result.stdout, "[\n\"a\",\n\"b\",\n\"c\"\n]\n")
        XCTAssertTrue(
            result.stderr.contains("page 2 (a sample) has a next page, but the case has no sample 'page3'"),
            result.stderr)
    }
}
