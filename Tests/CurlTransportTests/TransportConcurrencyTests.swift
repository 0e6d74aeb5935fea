import Foundation
import TestServers
import XCTest

@testable import CurlTransport

final class TransportConcurrencyTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server.stop()
    }

    func testFiftyConcurrentRequestsRunInParallelOverReusedConnections() throws {
        let session = Session()
        let recorders = (0..<50).map { _ in TransferRecorder() }
        let start = Date()
        let requests = recorders.enumerated().map { index, recorder in
            session.perform(
                makeRequest(server.url("/delay/200?n=\(index)")), downloadTo: nil, overwrite: false,
                progress: nil, completion: recorder.completion)
        }
        var indexes: [String] = []
        for recorder in recorders {
            guard case .success(let response) = try XCTUnwrap(recorder.wait()) else {
                return XCTFail("a request failed")
            }
            XCTAssertEqual(response.head.statusCode, 200)
            indexes.append(try EchoedRequest(from: response.body).args.first?.last ?? "")
        }
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(indexes, (0..<50).map(String.init), "each completion got its own response")
        XCTAssertEqual(recorders.map(\.completionCount), Array(repeating: 1, count: 50))
        XCTAssertFalse(requests.contains { $0.isCancelled })
        // 50 × 200 ms one after another would take 10 s.
        XCTAssertLessThan(elapsed, 5, "requests must run in parallel")
        XCTAssertLessThan(server.acceptedConnectionCount, 50, "connections must be reused")
        XCTAssertLessThanOrEqual(server.acceptedConnectionCount, TransportLoop.maximumConnectionsPerHost)
    }

    func testSequentialRequestsReuseOneConnection() throws {
        for _ in 0..<10 {
            XCTAssertEqual(try response(to: makeRequest(server.url("/get"))).head.statusCode, 200)
        }
        XCTAssertEqual(server.acceptedConnectionCount, 1)
        XCTAssertEqual(Set(server.receivedRequests.map(\.connectionNumber)), [1])
    }

    /// A request queued while the driver sleeps in libcurl's poll (here: waiting on a slow
    /// response) wakes it; only the first command queued after it fell asleep sends the wakeup.
    /// A lost wakeup would leave each request waiting out the poll's one-second timeout.
    func testRequestsQueuedWhileTheDriverSleepsWakeIt() throws {
        let session = Session()
        let slow = TransferRecorder()
        let slowRequest = session.perform(
            makeRequest(server.url("/delay/20000")), downloadTo: nil, overwrite: false,
            progress: nil, completion: slow.completion)
        defer { slowRequest.cancel() }
        let start = Date()
        for index in 0..<20 {
            usleep(20_000)  // the driver is back in its poll, with the slow request running
            let recorder = TransferRecorder()
            _ = session.perform(
                makeRequest(server.url("/get?n=\(index)")), downloadTo: nil, overwrite: false,
                progress: nil, completion: recorder.completion)
            guard case .success(let response) = try XCTUnwrap(recorder.wait()) else {
                return XCTFail("request \(index) failed")
            }
            XCTAssertEqual(response.head.statusCode, 200)
        }
        // 20 × (20 ms + a loopback request); 20 lost wakeups would take 20 s or more.
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    }

    func testCompletionMayStartAnotherRequest() throws {
        let session = Session()
        let recorder = TransferRecorder()
        let url = server.url("/get?second")
        let request = makeRequest(server.url("/get?first"))
        let follow = makeRequest(url)
        _ = session.perform(request, downloadTo: nil, overwrite: false, progress: nil) { _ in
            _ = session.perform(
                follow, downloadTo: nil, overwrite: false, progress: nil, completion: recorder.completion)
        }
        guard case .success(let response) = try XCTUnwrap(recorder.wait()) else {
            return XCTFail("second request failed")
        }
        XCTAssertEqual(response.head.url, url)
    }
}
