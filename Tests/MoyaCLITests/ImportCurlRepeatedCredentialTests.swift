import CLITestSupport
import Foundation
import TestServers
import XCTest

/// A credential given more than once in a query (`?key=one&key=two`) becomes a value for each of
/// its items, and the case sends both, in order, as curl does; neither is written.
final class ImportCurlRepeatedCredentialTests: XCTestCase {
    func testEachItemOfARepeatedCredentialIsAValueAndBothAreSent() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        let sandbox = try Sandbox()
        try sandbox.write("keys.sh", "curl 'http://127.0.0.1:\(server.port)/get?key=first1&page=2&key=second2'\n")
        let imported = try sandbox.run(["import", "curl", "keys.sh", "--api", "keys", "--case", "find"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let file = try String(contentsOf: sandbox.root.appendingPathComponent("targets/keys.yaml"), encoding: .utf8)
        XCTAssertFalse(file.contains("first1") || file.contains("second2"), file)
        XCTAssertTrue(file.contains(#"values: [{key: string}, {key_2: string}]"#), file)
        XCTAssertTrue(file.contains(#"key: ["{key}", "{key_2}"]"#), file)
        let check = try sandbox.run(["check", "keys"])
        XCTAssertEqual(check.status, 0, "the examples cover the case offline: \(check.stdout)\(check.stderr)")
        let called = try sandbox.run(["call", "keys", "find", "first1", "second2"])
        XCTAssertEqual(called.status, 0, called.stderr)
        let sent = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(sent.queryItems.filter { $0.name == "key" }.map(\.value), ["first1", "second2"])
        XCTAssertEqual(sent.queryItems.first { $0.name == "page" }?.value, "2")
    }
}
