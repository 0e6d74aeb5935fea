import CLITestSupport
import Foundation
import TestServers
import XCTest

/// `request` as xh and HTTPie take it: `:PORT/path` is `http://localhost:PORT/path`, and a URL
/// without METHOD is a GET, or a POST when something is in the body.
final class RequestShorthandTests: XCTestCase {
    var server: HTTPTestServer!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server.stop()
    }

    private func request(_ words: [String]) throws -> CLIResult {
        try CLIRunner.run(["request"] + words)
    }

    func testAPortShorthandIsLocalhost() throws {
        let result = try request([":\(server.port)/get", "page==2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let sent = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(sent.method, "GET", "a query item puts nothing in the body")
        XCTAssertEqual(sent.path, "/get")
        XCTAssertEqual(sent.value(of: "Host"), "localhost:\(server.port)")
        XCTAssertEqual(sent.queryItems.first { $0.name == "page" }?.value, "2")
    }

    func testWithoutMETHODABodyMakesAPOSTAndAnExplicitMethodWins() throws {
        let url = "http://127.0.0.1:\(server.port)/anything"
        XCTAssertEqual(try request([url, "name=Ada", "X-Trace:1"]).status, 0)
        XCTAssertEqual(try request([url, "--json", #"{"a":1}"#]).status, 0)
        XCTAssertEqual(try request([url, "X-Trace:1"]).status, 0)
        XCTAssertEqual(try request(["-X", "PUT", url, "name=Ada"]).status, 0)
        XCTAssertEqual(try request(["PATCH", ":\(server.port)/anything", "name=Ada"]).status, 0)
        XCTAssertEqual(try request(["-I", ":\(server.port)/get"]).status, 0)
        XCTAssertEqual(server.receivedRequests.map(\.method), ["POST", "POST", "GET", "PUT", "PATCH", "HEAD"])
        XCTAssertEqual(String(decoding: server.receivedRequests[0].body, as: UTF8.self), #"{"name":"Ada"}"#)
        XCTAssertEqual(server.receivedRequests[4].value(of: "Host"), "localhost:\(server.port)")
    }

    func testAColonWordThatIsNoShorthandIsLeftAlone() throws {
        let result = try request([":not-a-port", "name=x"])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertEqual(server.receivedRequests.count, 0)
    }
}
