import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Cursor paging whose parameter's name must be escaped in a URL: OData's `$skiptoken`, JSON:API's
/// `page[cursor]`. Each page is fetched once, with the cursor given once (replaced, not added).
final class PagingCursorNameTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
        try sandbox.write(
            "targets/named.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              odata:
                path: /pages/cursor
                task: {parameters: {name: "$skiptoken", limit: 2}, encoding: url}
                pagination: {cursor: {from: "$.meta.next_cursor", param: "$skiptoken"}, items: "$.data"}
                sample: {json: []}
              bracket:
                path: /pages/cursor
                task: {parameters: {name: "page[cursor]"}, encoding: url}
                pagination: {cursor: {from: "$.meta.next_cursor", param: "page[cursor]"}, items: "$.data"}
                sample: {json: []}
              resumed:
                values: [{from: string}]
                path: /pages/cursor
                task: {parameters: {name: "page[cursor]", "page[cursor]": "{from}"}, encoding: url}
                pagination: {cursor: {from: "$.meta.next_cursor", param: "page[cursor]"}, items: "$.data"}
                sample: {json: []}
            """)
    }

    override func tearDown() {
        server.stop()
    }

    /// The values of `name` in each request the server received, in order.
    private func cursors(named name: String) -> [[String]] {
        server.receivedRequests.map { request in request.queryItems.filter { $0.name == name }.map(\.value) }
    }

    func testAnEscapedCursorNameIsReplacedOnEachPage() throws {
        let six = "[\n{\"id\":1},\n{\"id\":2},\n{\"id\":3},\n{\"id\":4},\n{\"id\":5},\n{\"id\":6}\n]\n"
        assertRun(try sandbox.run(["call", "named", "odata", "--all"]), status: 0, stdout: six, stderr: "")
        XCTAssertEqual(cursors(named: "$skiptoken"), [[], ["c2"], ["c3"]])

        assertRun(try sandbox.run(["call", "named", "bracket", "--all"]), status: 0, stdout: six, stderr: "")
        XCTAssertEqual(cursors(named: "page[cursor]").suffix(3), [[], ["c2"], ["c3"]])
        XCTAssertEqual(server.receivedRequests.count, 6)
    }

    func testACursorTheFirstRequestAlreadyCarriesIsReplaced() throws {
        let result = try sandbox.run(["call", "named", "resumed", "c1", "--all", "--format", "jsonl"])
        assertRun(
            result, status: 0, stdout: "{\"id\":1}\n{\"id\":2}\n{\"id\":3}\n{\"id\":4}\n{\"id\":5}\n{\"id\":6}\n",
            stderr: "")
        XCTAssertEqual(cursors(named: "page[cursor]"), [["c1"], ["c2"], ["c3"]])
    }
}
