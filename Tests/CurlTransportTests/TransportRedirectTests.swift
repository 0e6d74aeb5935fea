import CurlTransport
import Foundation
import TestServers
import XCTest

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
        let response = try response(
            to: makeRequest(server.url("/redirect/2")), session: session(), downloadTo: destination)
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
        XCTAssertEqual(
            server.receivedRequests.map { $0.value(of: "Authorization") },
            ["Bearer secret-token", "Bearer secret-token"])
    }

    func testAuthorizationIsNotForwardedToAnotherPort() throws {
        let other = try HTTPTestServer()
        defer { other.stop() }
        let target = other.url("/anything")
        let request = makeRequest(
            server.url("/redirect-to?url=\(escaped(target))"),
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
        let request = makeRequest(
            server.url("/redirect-to?url=\(escaped(target))"),
            headers: [("Authorization", "Basic dXNlcjpwYXNz")])
        let response = try response(to: request)
        XCTAssertEqual(response.head.url, target)
        let requests = server.receivedRequests
        XCTAssertEqual(requests.count, 2)
        XCTAssertEqual(requests.first?.value(of: "Authorization"), "Basic dXNlcjpwYXNz")
        XCTAssertNil(requests.last?.value(of: "Authorization"))
    }

    // MARK: Sensitive headers (issue 11, item 1)

    /// Every kind of sensitive header: by name, and one the request marks (built from a secret).
    private static let sensitiveHeaders: [(String, String)] = [
        ("Authorization", "Bearer secret-token"), ("Proxy-Authorization", "Basic cHJveHk6cGFzcw=="),
        ("Cookie", "session=abc123"), ("X-Api-Key", "key-123456"), ("X-Auth-Token", "auth-123456"),
        ("X-Session", "marked-secret-value")
    ]

    private func requestWithSecrets(_ url: URL, method: String = "GET", body: Data? = nil) -> URLRequest {
        var request = makeRequest(url, method: method, headers: Self.sensitiveHeaders + [("X-Other", "kept")])
        request.httpBody = body
        request.markSensitiveHeader("X-Session")
        return request
    }

    private func assertNoSecrets(in received: ReceivedRequest?, file: StaticString = #filePath, line: UInt = #line) {
        guard let received else { return XCTFail("the redirect was not followed", file: file, line: line) }
        for (name, _) in Self.sensitiveHeaders {
            XCTAssertNil(received.value(of: name), "\(name) must not reach another origin", file: file, line: line)
        }
        XCTAssertEqual(received.value(of: "X-Other"), "kept", "other headers follow", file: file, line: line)
    }

    func testSensitiveHeadersStayOnTheSameOrigin() throws {
        _ = try response(to: requestWithSecrets(server.url("/redirect/1")))
        let requests = server.receivedRequests
        XCTAssertEqual(requests.map(\.path), ["/redirect/1", "/get"])
        for (name, value) in Self.sensitiveHeaders {
            XCTAssertEqual(requests.map { $0.value(of: name) }, [value, value], name)
        }
    }

    func testSensitiveHeadersDoNotFollowARedirectToAnotherPort() throws {
        let other = try HTTPTestServer()
        defer { other.stop() }
        let target = other.url("/anything/port")
        let response = try response(to: requestWithSecrets(server.url("/redirect-to?url=\(escaped(target))")))
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertEqual(response.head.url, target)
        XCTAssertEqual(server.receivedRequests.first?.value(of: "X-Api-Key"), "key-123456", "the first host gets them")
        XCTAssertEqual(other.receivedRequests.count, 1)
        assertNoSecrets(in: other.receivedRequests.first)
    }

    func testSensitiveHeadersDoNotFollowARedirectToAnotherHost() throws {
        let other = try HTTPTestServer(address: "127.0.0.2")
        defer { other.stop() }
        // Through two hops on the first host, then the other host, which redirects within itself.
        let target = other.url("/redirect/1")
        let response = try response(to: requestWithSecrets(server.url("/redirect-to?url=\(escaped(target))")))
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertEqual(response.head.url, other.url("/get"))
        XCTAssertEqual(other.receivedRequests.map(\.path), ["/redirect/1", "/get"])
        for received in other.receivedRequests { assertNoSecrets(in: received) }
    }

    func testPostBodyIsResentWithoutSecretsAfterA307ToAnotherHost() throws {
        let other = try HTTPTestServer(address: "127.0.0.2")
        defer { other.stop() }
        let target = other.url("/anything/moved")
        let request = requestWithSecrets(
            server.url("/redirect-to?url=\(escaped(target))&status=307"), method: "POST",
            body: Data("payload=1".utf8))
        let response = try response(to: request)
        XCTAssertEqual(response.head.statusCode, 200)
        let forwarded = try XCTUnwrap(other.receivedRequests.first)
        XCTAssertEqual(forwarded.method, "POST")
        XCTAssertEqual(String(decoding: forwarded.body, as: UTF8.self), "payload=1")
        assertNoSecrets(in: forwarded)
    }

    func testPostBecomesGetWithoutSecretsAfterA302ToAnotherHost() throws {
        let other = try HTTPTestServer(address: "127.0.0.2")
        defer { other.stop() }
        let target = other.url("/anything/moved")
        let request = requestWithSecrets(
            server.url("/redirect-to?url=\(escaped(target))&status=302"), method: "POST",
            body: Data("payload=1".utf8))
        _ = try response(to: request)
        let forwarded = try XCTUnwrap(other.receivedRequests.first)
        XCTAssertEqual(forwarded.method, "GET")
        XCTAssertTrue(forwarded.body.isEmpty)
        assertNoSecrets(in: forwarded)
    }

    func testStreamedUploadIsResentWithoutSecretsAfterA307ToAnotherHost() throws {
        let other = try HTTPTestServer(address: "127.0.0.2")
        defer { other.stop() }
        let file = try makeTemporaryFolder().appendingPathComponent("body.bin")
        try TestBytes.data(count: 200_000).write(to: file)
        var request = requestWithSecrets(
            server.url("/redirect-to?url=\(escaped(other.url("/put")))&status=307"), method: "PUT")
        request.bodyFileURL = file
        let response = try response(to: request)
        XCTAssertEqual(response.head.statusCode, 200)
        let forwarded = try XCTUnwrap(other.receivedRequests.first)
        XCTAssertEqual(forwarded.body, TestBytes.data(count: 200_000))
        assertNoSecrets(in: forwarded)
    }

    func testTheRedirectLimitCountsHopsBeforeAndAfterSecretsAreDropped() throws {
        let other = try HTTPTestServer(address: "127.0.0.2")
        defer { other.stop() }
        // One hop to the other host, then 3 there: 4 in all, over a limit of 3.
        let request = requestWithSecrets(server.url("/redirect-to?url=\(escaped(other.url("/redirect/3")))"))
        let error = try transportError(for: request, session: session(maximum: 3))
        XCTAssertEqual(error.kind, .tooManyRedirects, error.message)
        XCTAssertEqual(other.receivedRequests.count, 3)
    }

    func testSensitiveHeadersDoNotFollowADowngradeFromHTTPSToHTTP() throws {
        guard TLSTestServer.opensslPath != nil else { throw XCTSkip("the openssl command is not installed") }
        let secure: NginxTestServer
        do {
            secure = try NginxTestServer()
        } catch let error as NginxTestServer.StartError {
            throw XCTSkip("nginx could not start: \(error.description)")
        }
        defer { secure.stop() }
        var configuration = SessionConfiguration()
        configuration.certificateAuthorityFile = secure.certificateAuthorityFile
        configuration.httpVersion = .http1_1
        let response = try response(
            to: requestWithSecrets(secure.url("/to-cleartext?port=\(server.port)", secure: true)),
            session: Session(configuration: configuration))
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertEqual(response.head.url, server.url("/anything/downgraded"))
        XCTAssertEqual(server.receivedRequests.count, 1)
        assertNoSecrets(in: server.receivedRequests.first)
    }

    func testRedirectToAnotherProtocolIsRefused() throws {
        let request = makeRequest(
            server.url("/redirect-to?url=\(escaped(try XCTUnwrap(URL(string: "file:///etc/passwd"))))"))
        let error = try transportError(for: request)
        XCTAssertEqual(error.kind, .unsupportedProtocol, error.message)
    }
}
