import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 26, item 9: `--all` reads a page only when the base URL's origin answered it. A page
/// whose request was redirected to another port or host is refused (exit 1, naming where it came
/// from, the items of the pages before kept); `check --all` fails such a check (`paging`). A
/// redirect within the origin is followed as before.
final class PagingRedirectTests: XCTestCase {
    var server: HTTPTestServer!
    /// Another origin: the same host, another port.
    var foreign: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        foreign = try HTTPTestServer()
        sandbox = try Sandbox()
        let foreignPage = "http://127.0.0.1:\(foreign.port)/pages/link"
        try sandbox.write(
            "targets/pages.yaml",
            """
            api: pages
            baseURL: http://127.0.0.1:\(server.port)
            headers: {X-Api-Key: "${secret:PAGES_KEY}"}
            validation: successCodes
            pagination: {next: link}
            cases:
              away:
                path: /redirect-to
                task: {parameters: {url: "\(foreignPage)"}, encoding: url}
              otherHost:
                path: /redirect-to
                task: {parameters: {url: "http://localhost:\(server.port)/pages/link"}, encoding: url}
              laterAway:
                path: /response-headers
                task: {parameters: {Link: "</redirect-to?url=\(foreignPage.replacing(":", with: "%3A").replacing("/", with: "%2F"))>; rel=next"}, encoding: url}
              home:
                path: /redirect-to
                task: {parameters: {url: /pages/body}, encoding: url}
                pagination: {next: {body: "$.next"}, items: "$.results"}
            """)
    }

    override func tearDown() {
        server.stop()
        foreign.stop()
    }

    private func run(_ arguments: [String]) throws -> CLIResult {
        try sandbox.run(arguments, environment: ["PAGES_KEY": "k3y-secret"])
    }

    private func refusal(_ name: String, page: Int, to url: String, printed: Int) -> String {
        "moya-cli: error: pages.\(name): page \(page): refusing to read the page: its request was redirected to '\(url)', off the API's "
            + "origin (http://127.0.0.1:\(server.port)); a server may only page within the base URL's scheme, host and port; "
            + "\(printed) item\(printed == 1 ? "" : "s") printed before\n"
    }

    func testAFirstPageRedirectedToAnotherPortIsNotRead() throws {
        assertRun(
            try run(["call", "pages", "away", "--all"]), status: 1, stdout: "[]\n",
            stderr: refusal("away", page: 1, to: "http://127.0.0.1:\(foreign.port)/pages/link", printed: 0))
        XCTAssertEqual(
            foreign.receivedRequests.map(\.target), ["/pages/link"],
            "libcurl followed the redirect, as a plain call does")
        XCTAssertNil(foreign.receivedRequests.first?.value(of: "X-Api-Key"), "without the credentials")
    }

    func testAFirstPageRedirectedToAnotherHostIsNotRead() throws {
        assertRun(
            try run(["call", "pages", "otherHost", "--all"]), status: 1, stdout: "[]\n",
            stderr: refusal("otherHost", page: 1, to: "http://localhost:\(server.port)/pages/link", printed: 0))
        XCTAssertFalse(
            server.receivedRequests.contains { $0.target.contains("page=2") },
            "no next page of the foreign answer was fetched")
    }

    func testALaterPageRedirectedAwayStopsWithTheItemsBeforeKept() throws {
        let result = try run(["call", "pages", "laterAway", "--all"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let items = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdoutData) as? [[String]], result.stdout)
        XCTAssertEqual(items.count, 1, "page 1's item (the one header echoed)")
        XCTAssertEqual(items.first?.first, "Link")
        XCTAssertEqual(
            result.stderr, refusal("laterAway", page: 2, to: "http://127.0.0.1:\(foreign.port)/pages/link", printed: 1))
        XCTAssertEqual(foreign.receivedRequests.count, 1)
    }

    func testARedirectWithinTheOriginIsFollowed() throws {
        let result = try run(["call", "pages", "home", "--all", "--format", "jsonl", "--keypath", "id"])
        assertRun(result, status: 0, stdout: "1\n2\n3\n4\n", stderr: "")
        XCTAssertTrue(foreign.receivedRequests.isEmpty)
    }

    func testLiveCheckAllFailsAPageRedirectedAway() throws {
        let result = try run(["check", "pages", "--live", "--all"])
        XCTAssertEqual(result.status, 8, result.stderr)
        for name in ["away", "otherHost", "laterAway"] {
            let line = CheckFixtures.line("pages.\(name)", in: result.stderr)
            XCTAssertEqual(line?.contains(" fail "), true, result.stderr)
            XCTAssertEqual(
                line?.contains("refusing to read the page: its request was redirected to"), true, result.stderr)
        }
        XCTAssertEqual(CheckFixtures.line("pages.home", in: result.stderr)?.contains(" pass "), true, result.stderr)
    }
}
