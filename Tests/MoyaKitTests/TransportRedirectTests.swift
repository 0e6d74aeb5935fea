import Foundation
import XCTest
@testable import MoyaKit
import TestSupport

final class TransportRedirectTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server.stop()
    }

    private func session(follow: Bool = true, maximum: Int = 10) -> Session {
        var configuration = SessionConfiguration()
        configuration.followRedirects = follow
        configuration.maximumRedirects = maximum
        return Session(configuration: configuration)
    }

    private func escaped(_ url: URL) -> String {
        url.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url.absoluteString
    }

    func testRedirectChainIsFollowedToTheFinalResponse() throws {
        let response = try response(to: makeRequest(server.url("/redirect/3")), session: session())
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertEqual(response.head.url, server.url("/get"))
        XCTAssertEqual(try EchoedRequest(from: response.body).path, "/get")
        XCTAssertEqual(server.receivedRequests.map(\.path), ["/redirect/3", "/redirect/2", "/redirect/1", "/get"])
        // Only the final response's fields: no Location from the 302s.
        XCTAssertNil(response.head.headers[.location])
        XCTAssertEqual(response.head.headers[.contentType], "application/json")
    }

    func testTooManyRedirectsFails() throws {
        let error = try transportError(for: makeRequest(server.url("/redirect/5")), session: session(maximum: 2))
        XCTAssertEqual(error.kind, .tooManyRedirects, error.message)
        XCTAssertEqual(server.receivedRequests.count, 3)
    }

    func testNotFollowingReturnsTheRedirectItself() throws {
        let response = try response(to: makeRequest(server.url("/redirect/2")), session: session(follow: false))
        XCTAssertEqual(response.head.statusCode, 302)
        XCTAssertEqual(response.head.headers[.location], "/redirect/1")
        XCTAssertEqual(response.head.url, server.url("/redirect/2"))
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "redirecting to /redirect/1")
        XCTAssertEqual(server.receivedRequests.count, 1)
    }

    func testDownloadKeepsOnlyTheFinalBody() throws {
        let destination = try makeTemporaryFolder().appendingPathComponent("final.json")
        let response = try response(to: makeRequest(server.url("/redirect/2")), session: session(), downloadTo: destination)
        XCTAssertEqual(response.downloadedFile, destination)
        let echo = try EchoedRequest(from: Data(contentsOf: destination))
        XCTAssertEqual(echo.path, "/get", "the redirect bodies must not be in the file")
    }

    func testPostBecomesGetAfter302ButKeepsMethodAndBodyAfter307() throws {
        var request = makeRequest(server.url("/redirect-to?url=/anything&status=302"), method: "POST")
        request.httpBody = Data("payload".utf8)
        let after302 = try EchoedRequest(from: response(to: request).body)
        XCTAssertEqual(after302.method, "GET")

        request.url = server.url("/redirect-to?url=/anything&status=307")
        let after307 = try EchoedRequest(from: response(to: request).body)
        XCTAssertEqual(after307.method, "POST")
        XCTAssertEqual(after307.bodyText, "payload")
    }

    func testStreamedUploadIsResentAfter307() throws {
        let folder = try makeTemporaryFolder()
        let file = folder.appendingPathComponent("body.txt")
        try Data("streamed body".utf8).write(to: file)
        var request = makeRequest(server.url("/redirect-to?url=/anything&status=307"), method: "PUT")
        request.bodyFileURL = file
        let echo = try EchoedRequest(from: response(to: request).body)
        XCTAssertEqual(echo.method, "PUT")
        XCTAssertEqual(echo.bodyText, "streamed body")
    }

    func testAuthorizationIsKeptOnTheSameHost() throws {
        let request = makeRequest(server.url("/redirect/1"), headers: [("Authorization", "Bearer secret-token")])
        _ = try response(to: request)
        XCTAssertEqual(server.receivedRequests.map { $0.value(of: "Authorization") }, ["Bearer secret-token", "Bearer secret-token"])
    }

    func testAuthorizationIsNotForwardedToAnotherPort() throws {
        let other = try HTTPTestServer()
        defer { other.stop() }
        let target = other.url("/anything")
        let request = makeRequest(server.url("/redirect-to?url=\(escaped(target))"),
                                  headers: [("Authorization", "Bearer secret-token"), ("X-Other", "kept")])
        let response = try response(to: request)
        XCTAssertEqual(response.head.url, target)
        XCTAssertEqual(server.receivedRequests.first?.value(of: "Authorization"), "Bearer secret-token")
        let forwarded = try XCTUnwrap(other.receivedRequests.first)
        XCTAssertNil(forwarded.value(of: "Authorization"), "Authorization must not reach another host")
        XCTAssertEqual(forwarded.value(of: "X-Other"), "kept")
    }

    func testAuthorizationIsNotForwardedToAnotherHostName() throws {
        // Same address and port, another name: libcurl compares host names, not addresses.
        let target = try XCTUnwrap(URL(string: "http://localhost:\(server.port)/anything"))
        let request = makeRequest(server.url("/redirect-to?url=\(escaped(target))"),
                                  headers: [("Authorization", "Basic dXNlcjpwYXNz")])
        let response = try response(to: request)
        XCTAssertEqual(response.head.url, target)
        let requests = server.receivedRequests
        XCTAssertEqual(requests.count, 2)
        XCTAssertEqual(requests.first?.value(of: "Authorization"), "Basic dXNlcjpwYXNz")
        XCTAssertNil(requests.last?.value(of: "Authorization"))
    }

    func testRedirectToAnotherProtocolIsRefused() throws {
        let request = makeRequest(server.url("/redirect-to?url=\(escaped(try XCTUnwrap(URL(string: "file:///etc/passwd"))))"))
        let error = try transportError(for: request)
        XCTAssertEqual(error.kind, .unsupportedProtocol, error.message)
    }
}
