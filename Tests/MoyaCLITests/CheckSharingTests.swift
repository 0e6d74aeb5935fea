import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 26, item 9: `check --live --jobs N` sends identical GETs and HEADs in flight once, and
/// every other request (POST, PATCH, PUT, DELETE, OPTIONS) and every chained step as often as it
/// is checked. The server counts what arrives; each request takes 400 ms, so identical ones are
/// in flight together.
final class CheckSharingTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write(
            "targets/shared.yaml",
            """
            api: shared
            baseURL: http://127.0.0.1:\(server.port)
            validation: successCodes
            cases:
              create:
                method: POST
                path: /delay/400
                values: [{name: string}]
                task: {json: {name: "{name}"}}
                captures: {method: "$.method"}
                sample: {json: {method: POST}}
                examples: [[same], [same]]
              remove:
                method: DELETE
                values: [{seen: string}]
                path: /delay/400
                headers: {X-Seen: "{seen}"}
                sample: {json: {method: DELETE}}
                examples:
                  - {after: "create#1", with: {seen: "{method}"}}
                  - {after: "create#2", with: {seen: "{method}"}}
              edit:
                method: PATCH
                path: /delay/400
                task: {data: same}
                sample: {json: {method: PATCH}}
                examples: [[], []]
              replace:
                method: PUT
                values: [{n: int}]
                path: /delay/{n}
                sample: {json: {method: PUT}}
                examples: [[400], [400]]
              probe:
                method: OPTIONS
                values: [{n: int}]
                path: /delay/{n}
                sample: {json: {method: OPTIONS}}
                examples: [[400], [400]]
              read:
                values: [{n: int}]
                path: /delay/{n}
                sample: {json: {method: GET}}
                examples: [[400], [400], [400]]
              peek:
                method: HEAD
                values: [{n: int}]
                path: /delay/{n}
                sample: ""
                examples: [[400], [400]]
            """)
    }

    override func tearDown() {
        server.stop()
    }

    private func count(_ method: String) -> Int {
        server.receivedRequests.filter { $0.method == method && $0.path == "/delay/400" }.count
    }

    func testOnlyStandaloneGETsAndHEADsAreSharedWhenChecksRunTogether() throws {
        let result = try CLIRunner.run(
            ["check", "shared", "--live", "--include-unsafe", "--jobs", "16"], currentDirectory: folder.url, timeout: 60
        )
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("check (live): 15 passed, 0 failed"), result.stderr)
        XCTAssertEqual(count("POST"), 2, "two identical POST examples create two things")
        XCTAssertEqual(count("DELETE"), 2, "each chained DELETE is sent")
        XCTAssertEqual(count("PATCH"), 2)
        XCTAssertEqual(count("PUT"), 2)
        XCTAssertEqual(count("OPTIONS"), 2)
        XCTAssertEqual(count("GET"), 1, "three identical GETs in flight together are sent once")
        XCTAssertEqual(count("HEAD"), 1, "two identical HEADs in flight together are sent once")
    }

    func testOneJobSendsEachCheckAnyway() throws {
        let result = try CLIRunner.run(
            ["check", "shared", "--live", "--include-unsafe", "--jobs", "1", "--only", "create", "--only", "remove"],
            currentDirectory: folder.url, timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(count("POST"), 2)
        XCTAssertEqual(count("DELETE"), 2)
    }
}
