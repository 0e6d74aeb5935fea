import CLITestSupport
import Foundation
import TestServers
import XCTest

/// `optional: true` values over real HTTP: left out of the query, the JSON body and the headers
/// when not given, sent when given.
final class OptionalValueTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write(
            "targets/issues.yaml",
            """
            api: issues
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              search:
                values: [{q: string}, {state: {type: string, optional: true, description: open or closed}}]
                path: /anything/search
                headers: {X-State: "{state}"}
                task: {parameters: {q: "{q}", state: "{state}"}, encoding: url}
                sample: ok
              create:
                method: POST
                values: [{title: string}, {milestone: {type: int, optional: true}}]
                path: /anything/issues
                task: {json: {title: "{title}", milestone: "{milestone}"}}
                sample: ok
            """)
    }

    override func tearDown() {
        server.stop()
    }

    func call(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(arguments, currentDirectory: folder.url)
    }

    func testLeftOutOfQueryAndHeaderWhenNotGiven() throws {
        let result = try call(["call", "issues", "search", "bug"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(request.target, "/anything/search?q=bug")
        XCTAssertNil(request.value(of: "X-State"))
    }

    func testSentWhenGiven() throws {
        let result = try call(["call", "issues", "search", "bug", "--state", "closed"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(request.target, "/anything/search?q=bug&state=closed")
        XCTAssertEqual(request.value(of: "X-State"), "closed")
    }

    func testLeftOutOfTheJSONBodyWhenNotGiven() throws {
        let bare = try call(["call", "issues", "create", "Crash"])
        XCTAssertEqual(bare.status, 0, bare.stderr)
        XCTAssertEqual(
            String(decoding: try XCTUnwrap(server.receivedRequests.last).body, as: UTF8.self), #"{"title":"Crash"}"#)
        let full = try call(["call", "issues", "create", "Crash", "--milestone", "4"])
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertEqual(
            String(decoding: try XCTUnwrap(server.receivedRequests.last).body, as: UTF8.self),
            #"{"title":"Crash","milestone":4}"#)
    }

    func testOptionalValuesAreNamedOnlyAndShownInHelpAndList() throws {
        let tooMany = try call(["call", "issues", "search", "bug", "closed", "extra"])
        XCTAssertEqual(tooMany.status, 64)
        let help = try call(["call", "issues", "search", "--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(help.stdout.hasPrefix("USAGE: moya-cli call issues search <q> [--state <string>]\n"), help.stdout)
        XCTAssertTrue(help.stdout.contains("  state  string  optional  open or closed\n"), help.stdout)
        let list = try call(["list", "issues"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("q: string, state?: string"), list.stdout)
    }
}
