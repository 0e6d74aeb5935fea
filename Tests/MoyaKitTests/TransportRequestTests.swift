import Foundation
import XCTest
@testable import MoyaKit
import TestSupport

final class TransportRequestTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server.stop()
    }

    func testGetReturnsStatusHeadersBodyAndFinalURL() throws {
        let response = try response(to: makeRequest(server.url("/get?b=2&a=1&b=3")))
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertEqual(response.head.httpVersion, "HTTP/1.1")
        XCTAssertEqual(response.head.url, server.url("/get?b=2&a=1&b=3"))
        XCTAssertEqual(response.head.headers[.contentType], "application/json")
        XCTAssertNil(response.downloadedFile)
        let echo = try EchoedRequest(from: response.body)
        XCTAssertEqual(echo.method, "GET")
        XCTAssertEqual(echo.path, "/get")
        XCTAssertEqual(echo.args, [["b", "2"], ["a", "1"], ["b", "3"]])
        XCTAssertEqual(echo.bodySize, 0)
    }
}
