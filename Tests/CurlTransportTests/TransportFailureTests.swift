import CurlTransport
import Foundation
import TestServers
import XCTest

#if canImport(Glibc)
import Glibc
#endif

final class TransportFailureTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server.stop()
    }

    private func session(timeout: TimeInterval = 60, connectTimeout: TimeInterval = 10) -> Session {
        var configuration = SessionConfiguration()
        configuration.timeout = timeout
        configuration.connectTimeout = connectTimeout
        return Session(configuration: configuration)
    }

    func testSlowResponseTimesOut() throws {
        let start = Date()
        let error = try transportError(for: makeRequest(server.url("/delay/3000")), session: session(timeout: 0.3))
        XCTAssertEqual(error.kind, .timedOut)
        XCTAssertTrue(error.message.contains("timed out"), error.message)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2.5)
    }

    func testRequestTimeoutIntervalAlsoLimits() throws {
        var request = makeRequest(server.url("/delay/3000"))
        request.timeoutInterval = 0.3
        let error = try transportError(for: request, session: session(timeout: 60))
        XCTAssertEqual(error.kind, .timedOut)
    }

    func testClosedPortCannotConnect() throws {
        let port = try TLSTestServer.freePort()
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/get"))
        let error = try transportError(for: makeRequest(url))
        XCTAssertEqual(error.kind, .cannotConnect, error.message)
    }

    func testConnectTimeoutWhenTheServerNeverAccepts() throws {
        // A listener with a full accept queue: Linux drops further SYNs, so connecting hangs.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = TLSTestServer.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        listen(listener, 0)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        var fillers: [Int32] = []
        defer { fillers.forEach { close($0) } }
        for _ in 0..<4 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) }
            }
            fillers.append(filler)
        }
        Thread.sleep(forTimeInterval: 0.1)
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/get"))
        let start = Date()
        let error = try transportError(for: makeRequest(url), session: session(connectTimeout: 0.4))
        XCTAssertEqual(error.kind, .timedOut, error.message)
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
    }

    func testDroppedConnectionIsConnectionLost() throws {
        let error = try transportError(for: makeRequest(server.url("/drop")))
        XCTAssertEqual(error.kind, .connectionLost, error.message)
    }

    func testUnresolvableHost() throws {
        let url = try XCTUnwrap(URL(string: "http://nonexistent.invalid/get"))
        let error = try transportError(for: makeRequest(url))
        XCTAssertEqual(error.kind, .cannotResolveHost, error.message)
        XCTAssertTrue(error.message.contains("nonexistent.invalid"), error.message)
    }

    func testOnlyHTTPAndHTTPSAreSpoken() throws {
        for address in ["ftp://127.0.0.1/file", "file:///etc/hostname", "gopher://127.0.0.1/"] {
            let error = try transportError(for: makeRequest(try XCTUnwrap(URL(string: address))))
            XCTAssertEqual(error.kind, .unsupportedProtocol, "\(address): \(error.message)")
        }
    }

    func testCancelDuringAResponseCompletesOnceWithCancelled() throws {
        let recorder = TransferRecorder()
        let start = Date()
        let request = Session().perform(
            makeRequest(server.url("/delay/5000")), downloadTo: nil, overwrite: false,
            progress: nil, completion: recorder.completion)
        XCTAssertFalse(request.isCancelled)
        Thread.sleep(forTimeInterval: 0.2)
        request.cancel()
        request.cancel()
        XCTAssertTrue(request.isCancelled)
        let result = try XCTUnwrap(recorder.wait(seconds: 5))
        guard case .failure(let error) = result else { return XCTFail("expected cancellation") }
        XCTAssertEqual(error.kind, .cancelled)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(recorder.completionCount, 1)
    }

    func testCancelRightAwayCompletesOnceWithCancelled() throws {
        for _ in 0..<20 {
            let recorder = TransferRecorder()
            // A slow route, so the response cannot beat the cancel.
            let request = Session().perform(
                makeRequest(server.url("/delay/300")), downloadTo: nil, overwrite: false,
                progress: nil, completion: recorder.completion)
            request.cancel()
            let result = try XCTUnwrap(recorder.wait(seconds: 5))
            guard case .failure(let error) = result else { return XCTFail("expected cancellation") }
            XCTAssertEqual(error.kind, .cancelled)
            XCTAssertEqual(recorder.completionCount, 1)
        }
    }

    func testCancelAfterCompletionChangesNothing() throws {
        let recorder = TransferRecorder()
        let request = Session().perform(
            makeRequest(server.url("/get")), downloadTo: nil, overwrite: false,
            progress: nil, completion: recorder.completion)
        guard case .success = try XCTUnwrap(recorder.wait()) else { return XCTFail("request failed") }
        request.cancel()
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(recorder.completionCount, 1)
    }

    func testRequestWithoutURLFailsRightAway() throws {
        var request = makeRequest(server.url("/get"))
        request.url = nil
        let error = try transportError(for: request)
        XCTAssertEqual(error.kind, .other)
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }
}
