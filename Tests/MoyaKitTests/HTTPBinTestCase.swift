import Foundation
import MoyaKit
import TestServers
import XCTest

/// A test case with its own loopback `HTTPTestServer`, which `HTTPBin` targets point at.
class HTTPBinTestCase: XCTestCase {
    /// The server of the running test.
    private(set) var server: HTTPTestServer!

    /// How much of each request body the server keeps; subclasses measuring memory keep none.
    class var bodyRecordingLimit: Int { HTTPTestServer.recordedBodyLimit }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let server = try HTTPTestServer(bodyRecordingLimit: Self.bodyRecordingLimit)
        self.server = server
        HTTPBin.use(server)
    }

    override func tearDown() {
        HTTPBin.use(nil)
        server?.stop()
        server = nil
        super.tearDown()
    }

    /// The one request the server received; fails the test if it received another number.
    func onlyReceivedRequest(file: StaticString = #filePath, line: UInt = #line) throws -> ReceivedRequest {
        let received = server.receivedRequests
        XCTAssertEqual(received.count, 1, "requests received: \(received.map(\.target))", file: file, line: line)
        return try XCTUnwrap(received.last, file: file, line: line)
    }

    /// Sends `target` and returns the response, failing the test on an error.
    func response<T: TargetType>(
        _ target: T, with provider: MoyaProvider<T>, timeout: TimeInterval = 20,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> Response {
        let result = try XCTUnwrap(
            send(target, with: provider, timeout: timeout, file: file, line: line),
            "no completion", file: file, line: line)
        return try result.get()
    }

    /// Sends `target` and returns its error, failing the test on a success.
    func error<T: TargetType>(
        _ target: T, with provider: MoyaProvider<T>, timeout: TimeInterval = 20,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> MoyaError {
        let result = try XCTUnwrap(
            send(target, with: provider, timeout: timeout, file: file, line: line),
            "no completion", file: file, line: line)
        switch result {
        case .success(let response):
            XCTFail("expected a failure, got \(response)", file: file, line: line)
            throw MoyaError.statusCode(response)
        case .failure(let error):
            return error
        }
    }

    /// Waits until the server received `count` requests (a request the test then cancels, say).
    func waitForRequests(_ count: Int, seconds: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(seconds)
        while server.receivedRequests.count < count && Date() < deadline { usleep(5_000) }
        XCTAssertGreaterThanOrEqual(
            server.receivedRequests.count, count, "the server did not receive the request",
            file: file, line: line)
    }

    /// Waits until `condition` holds, polling.
    func waitUntil(seconds: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() && Date() < deadline { usleep(5_000) }
        return condition()
    }
}

extension ReceivedRequest {
    /// The header fields as `name: value` pairs, for comparing.
    var fieldPairs: [String] { headers.map { "\($0.name): \($0.value)" } }
}
