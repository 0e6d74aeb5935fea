import CurlTransport
import Foundation
import TestServers
import XCTest

/// The cookie store sessions share (libcurl's engine on a share handle): kept across sessions
/// given one store, never reaching a session without it, even on a handle kept for reuse.
final class CookieStoreTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server.stop()
    }

    private func session(_ store: CookieStore?) -> Session {
        var configuration = SessionConfiguration()
        configuration.cookieStore = store
        return Session(configuration: configuration)
    }

    private func cookiesEchoed(_ session: Session) throws -> String {
        String(decoding: try response(to: makeRequest(server.url("/cookies")), session: session).body, as: UTF8.self)
    }

    func testSessionsGivenOneStoreShareItAndOthersSeeNone() throws {
        let store = CookieStore()
        let first = try response(to: makeRequest(server.url("/cookies/set?k=v")), session: session(store))
        XCTAssertEqual(String(decoding: first.body, as: UTF8.self), #"{"cookies":{"k":"v"}}"#)
        XCTAssertEqual(try cookiesEchoed(session(store)), #"{"cookies":{"k":"v"}}"#)
        // Handles go back to the pool attached to the store's share; one taken by a session
        // without a store, or with another, must carry none of it.
        XCTAssertEqual(try cookiesEchoed(session(nil)), #"{"cookies":{}}"#)
        XCTAssertEqual(try cookiesEchoed(session(CookieStore())), #"{"cookies":{}}"#)
        XCTAssertEqual(try cookiesEchoed(session(store)), #"{"cookies":{"k":"v"}}"#)
    }

    func testTheStoreListsLoadsAndForgetsCookies() throws {
        let store = CookieStore()
        _ = try response(to: makeRequest(server.url("/cookies/set?a=1&b=2")), session: session(store))
        let cookies = try store.cookies()
        XCTAssertEqual(cookies.map(\.name).sorted(), ["a", "b"])
        XCTAssertEqual(cookies.first?.domain, "127.0.0.1")
        XCTAssertEqual(cookies.first?.includesSubdomains, false)
        XCTAssertEqual(cookies.first?.path, "/")
        let copy = CookieStore()
        try copy.load(netscapeLines: try store.netscapeLines())
        XCTAssertEqual(try cookiesEchoed(session(copy)), #"{"cookies":{"a":"1","b":"2"}}"#)
        try copy.removeAll()
        XCTAssertEqual(try copy.cookies(), [])
        XCTAssertEqual(try cookiesEchoed(session(copy)), #"{"cookies":{}}"#)
    }

    func testANetscapeLineIsReadAndWrittenBack() throws {
        let line = "#HttpOnly_.example.com\tTRUE\t/api\tTRUE\t1999999999\tsid\tx y"
        let cookie = try XCTUnwrap(Cookie(netscapeLine: line))
        XCTAssertEqual(cookie.domain, "example.com")
        XCTAssertTrue(cookie.includesSubdomains && cookie.isSecure && cookie.isHTTPOnly)
        XCTAssertEqual(cookie.netscapeLine, line)
        XCTAssertNil(Cookie(netscapeLine: "# Netscape HTTP Cookie File"))
        XCTAssertNil(Cookie(netscapeLine: "a\tFALSE\t/\tFALSE\tsoon\tn\tv"))
        XCTAssertNil(Cookie(netscapeLine: "a\tFALSE\t/\tFALSE\t0\tn\tv\r\nX: y"))
    }
}
