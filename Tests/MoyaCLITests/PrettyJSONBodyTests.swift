import CLITestSupport
import Foundation
import TestServers
import XCTest

/// A case with `prettyPrinted: true` sends what Moya's `JSONEncoding.prettyPrinted` sends, which is
/// Foundation's `JSONSerialization` `.prettyPrinted` layout (`"a" : 1`, `\/`, empty containers over
/// two lines): the one expectation of Moya's and Alamofire's suites moya-cli did not meet.
final class PrettyJSONBodyTests: XCTestCase {
    func testAPrettyPrintedCaseSendsFoundationsBytes() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let sandbox = try Sandbox()
        try sandbox.write(
            "targets/pretty.yaml",
            """
            api: pretty
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              create:
                method: POST
                values: [{title: {type: string}}, {count: {type: int}}]
                path: /anything/create
                task:
                  parameters:
                    count: "{count}"
                    empty: {}
                    links: ["https://example.com/a/b", "/relative"]
                    nested: {none: [], title: "{title}"}
                    title: "{title}"
                  encoding: json
                  prettyPrinted: true
            """)
        let result = try sandbox.run(["call", "pretty", "create", "a/b \"quoted\"", "3"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let received = try XCTUnwrap(server.receivedRequests.last)
        let reference = try JSONSerialization.data(
            withJSONObject: [
                "count": 3, "empty": [String: Any](), "links": ["https://example.com/a/b", "/relative"],
                "nested": ["none": [Any](), "title": "a/b \"quoted\""] as [String: Any], "title": "a/b \"quoted\""
            ] as [String: Any],
            options: [.prettyPrinted, .sortedKeys])
        XCTAssertEqual(String(decoding: received.body, as: UTF8.self), String(decoding: reference, as: UTF8.self))
        XCTAssertEqual(received.value(of: "Content-Type"), "application/json")
    }
}
