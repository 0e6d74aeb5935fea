import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 11, item 2: a path value is one segment always; `.` and `..` cannot climb out of it.
final class PathSegmentTests: XCTestCase {
    func testDotSegmentsStayInTheirSegment() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write(
            "targets/api.yaml",
            """
            api: api
            baseURL: http://127.0.0.1:\(server.port)/anything/v1
            cases:
              sessions:
                method: DELETE
                values: [{id: string}]
                path: /users/{id}/sessions
                sample: ok
            """)
        for (value, expected) in [
            ("..", "/anything/v1/users/%2E%2E/sessions"), (".", "/anything/v1/users/%2E/sessions"),
            ("../..", "/anything/v1/users/..%2F../sessions"), ("a.b", "/anything/v1/users/a.b/sessions")
        ] {
            let result = try CLIRunner.run(
                ["call", "api", "sessions", value], environment: ["HOME": folder.url.path],
                currentDirectory: folder.url)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(server.receivedRequests.last?.target, expected, value)
            let curl = try CLIRunner.run(
                ["curl", "api", "sessions", value], environment: ["HOME": folder.url.path],
                currentDirectory: folder.url)
            XCTAssertTrue(curl.stdout.contains(expected), curl.stdout)
        }
    }
}
