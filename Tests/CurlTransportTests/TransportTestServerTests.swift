import Foundation
import TestServers
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// The test server itself, spoken to over a raw socket: what libcurl never sends must work too.
final class TransportTestServerTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// Sends `text` on a new connection and returns everything received until the server closes
    /// or `seconds` pass.
    private func exchange(_ text: String, seconds: Double = 2) throws -> String {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = server.port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        XCTAssertEqual(connected, 0)
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(text.utf8)
        XCTAssertEqual(
            bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }, bytes.count
        )
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    func testGarbageGets400AndTheServerKeepsServing() throws {
        let answer = try exchange("\u{1}\u{2} this is not HTTP\r\n\r\n")
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 400 "), answer)
        let headerBomb = try exchange(
            "GET / HTTP/1.1\r\n" + String(repeating: "X-Long: aaaaaaaaaaaaaaaa\r\n", count: 5000))
        XCTAssertTrue(headerBomb.hasPrefix("HTTP/1.1 400 "), headerBomb)
        XCTAssertTrue(
            try exchange("GET /get HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 200 OK\r\n"))
    }

    func testChunkedRequestBodyIsDecoded() throws {
        let answer = try exchange(
            "POST /anything HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n")
        let body = try XCTUnwrap(answer.components(separatedBy: "\r\n\r\n").last)
        let echo = try EchoedRequest(from: Data(body.utf8))
        XCTAssertEqual(echo.bodyText, "hello, world")
        XCTAssertTrue(echo.chunked)
        XCTAssertEqual(server.receivedRequests.last?.body, Data("hello, world".utf8))
    }

    func testExpectContinueAndPipelinedKeepAliveRequests() throws {
        let answer = try exchange(
            "PUT /put HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc"
                + "GET /status/204 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n"), answer)
        XCTAssertTrue(
            answer.contains("HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\nHTTP/1.1 200 OK"), answer)
        XCTAssertTrue(answer.hasSuffix(HTTPTestServer.jsonDocument), answer)
        XCTAssertEqual(server.receivedRequests.map(\.target), ["/put", "/status/204", "/json"])
        XCTAssertEqual(Set(server.receivedRequests.map(\.connectionNumber)).count, 1)
    }

    func testHTTP10ClosesAfterTheResponse() throws {
        let answer = try exchange("GET /get HTTP/1.0\r\n\r\n", seconds: 5)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        XCTAssertTrue(answer.contains("Connection: close\r\n"))
    }

    func testCredentialsRoutes() throws {
        let basic = try exchange(
            "GET /basic-auth/user/pass HTTP/1.1\r\nAuthorization: Basic dXNlcjpwYXNz\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(basic.hasSuffix(#"{"authenticated":true,"user":"user"}"#), basic)
        let wrong = try exchange(
            "GET /basic-auth/user/pass HTTP/1.1\r\nAuthorization: Basic d3Jvbmc=\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(wrong.hasPrefix("HTTP/1.1 401 "), wrong)
        let bearer = try exchange("GET /bearer HTTP/1.1\r\nAuthorization: Bearer abc\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(bearer.hasSuffix(#"{"authenticated":true,"token":"abc"}"#), bearer)
        XCTAssertTrue(try exchange("GET /bearer HTTP/1.1\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 401 "))
    }

    func testStopEndsConnectionsThatAreWaiting() throws {
        let started = Date()
        let thread = Thread { [server] in
            Thread.sleep(forTimeInterval: 0.3)
            server?.stop()
        }
        thread.start()
        _ = try exchange("GET /delay/10000 HTTP/1.1\r\nHost: x\r\n\r\n", seconds: 8)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        XCTAssertTrue(server.isStopped)
    }
}
