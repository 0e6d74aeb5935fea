import Foundation
import TestServers
import XCTest

@testable import CurlTransport

#if canImport(Glibc)
import Glibc
#endif

/// `RequestLatch`: the waiting thread runs its own transfers, and hands the rest on when it stops.
final class RequestLatchTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        // Earlier tests' transfers may still keep the transport's own thread busy; it ends after a
        // second with nothing to do, and only then can a latch take over the driving.
        let deadline = Date().addingTimeInterval(10)
        while !TransportLoop.isIdle && Date() < deadline { usleep(20_000) }
        XCTAssertTrue(TransportLoop.isIdle, "the transport went idle")
    }

    override func tearDown() {
        server.stop()
    }

    func testTheWaitingThreadRunsItsOwnRequest() throws {
        let waiter = pthread_self()
        let ranOnWaiter = LockedBox<Bool?>(nil)
        let recorder = TransferRecorder()
        let request = makeRequest(server.url("/get"))
        RequestLatch.wait { latch in
            _ = Session().perform(request, downloadTo: nil, overwrite: false, progress: nil) { result in
                ranOnWaiter.value = pthread_equal(pthread_self(), waiter) != 0
                recorder.completion(result)
                latch.signal()
            }
        }
        XCTAssertEqual(ranOnWaiter.value, true, "the completion ran on the thread that waited")
        guard case .success(let response) = try XCTUnwrap(recorder.wait(seconds: 0)) else {
            return XCTFail("the request failed")
        }
        XCTAssertEqual(response.head.statusCode, 200)
        XCTAssertTrue(TransportLoop.isIdle, "no thread was left to drive nothing")
    }

    func testOtherThreadsRequestsAreHandedOnWhenTheLatchStopsWaiting() throws {
        let session = Session()
        let own = TransferRecorder()
        let other = TransferRecorder()
        let quick = makeRequest(server.url("/delay/50"))
        let slow = makeRequest(server.url("/delay/2000"))
        RequestLatch.wait { latch in
            _ = session.perform(quick, downloadTo: nil, overwrite: false, progress: nil) { result in
                own.completion(result)
                latch.signal()
            }
            // Sent by another thread while this one holds the driving, and still running when it stops.
            let queued = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                _ = session.perform(
                    slow, downloadTo: nil, overwrite: false, progress: nil, completion: other.completion)
                queued.signal()
            }
            queued.wait()
        }
        guard case .success = try XCTUnwrap(own.wait(seconds: 0)) else { return XCTFail("the latch's request failed") }
        XCTAssertEqual(other.completionCount, 0, "the other request was still running")
        guard case .success(let response) = try XCTUnwrap(other.wait(seconds: 10), "the other request was stranded")
        else {
            return XCTFail("the other request failed")
        }
        XCTAssertEqual(response.head.statusCode, 200)
    }

    func testARequestThatFailsAtOnceEndsTheWaitAndLeavesNoDriver() throws {
        let recorder = TransferRecorder()
        var request = makeRequest(server.url("/put"), method: "PUT")
        request.bodyFileURL = URL(fileURLWithPath: "/nonexistent/moya-cli-upload")
        RequestLatch.wait { latch in
            _ = Session().perform(request, downloadTo: nil, overwrite: false, progress: nil) { result in
                recorder.completion(result)
                latch.signal()
            }
        }
        guard case .failure(let error) = try XCTUnwrap(recorder.wait(seconds: 0)) else {
            return XCTFail("expected a failure")
        }
        XCTAssertEqual(error.kind, .fileAccess)
        XCTAssertTrue(TransportLoop.isIdle, "the reservation was given up")
        XCTAssertEqual(
            try response(to: makeRequest(server.url("/get"))).head.statusCode, 200, "later requests still run")
    }

    func testAWatchedDescriptorCanCancelTheRequest() throws {
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        defer { ends.forEach { close($0) } }
        let recorder = TransferRecorder()
        let slow = makeRequest(server.url("/delay/10000"))
        let writeEnd = ends[1]
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
        let start = Date()
        var readable: [Int32] = []
        var request: (any Cancellable)?
        RequestLatch.wait(
            watching: [ends[0]],
            onReadable: { fd in
                var byte: UInt8 = 0
                _ = read(fd, &byte, 1)
                readable.append(fd)
                request?.cancel()
            }
        ) { latch in
            request = Session().perform(slow, downloadTo: nil, overwrite: false, progress: nil) { result in
                recorder.completion(result)
                latch.signal()
            }
        }
        XCTAssertEqual(readable, [ends[0]])
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "the cancel ended the 10 s request")
        guard case .failure(let error) = try XCTUnwrap(recorder.wait(seconds: 0)) else {
            return XCTFail("expected a cancellation")
        }
        XCTAssertEqual(error.kind, .cancelled)
    }

    func testASignalFromAnotherThreadEndsAWaitWithNothingToDrive() {
        let signalled = LockedBox(false)
        RequestLatch.wait { latch in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
                signalled.value = true
                latch.signal()
            }
        }
        XCTAssertTrue(signalled.value)
        XCTAssertTrue(TransportLoop.isIdle)
    }

    func testACompletionMayWaitForAnotherRequest() throws {
        // The completion runs on this thread, which drives: it must drive the second request too.
        let second = TransferRecorder()
        let first = TransferRecorder()
        let session = Session()
        let requests = (makeRequest(server.url("/get?first")), makeRequest(server.url("/get?second")))
        RequestLatch.wait { latch in
            _ = session.perform(requests.0, downloadTo: nil, overwrite: false, progress: nil) { result in
                RequestLatch.wait { inner in
                    _ = session.perform(requests.1, downloadTo: nil, overwrite: false, progress: nil) { result in
                        second.completion(result)
                        inner.signal()
                    }
                }
                first.completion(result)
                latch.signal()
            }
        }
        guard case .success = try XCTUnwrap(first.wait(seconds: 0)) else { return XCTFail("the first request failed") }
        guard case .success(let response) = try XCTUnwrap(second.wait(seconds: 0)) else {
            return XCTFail("the second request failed")
        }
        XCTAssertEqual(response.head.url, requests.1.url)
        XCTAssertTrue(TransportLoop.isIdle)
    }

    func testACompletionOnTheTransportsOwnThreadMayWaitForAnotherRequest() throws {
        let session = Session()
        let second = TransferRecorder()
        let follow = makeRequest(server.url("/get?second"))
        let first = TransferRecorder()
        // No latch: the transport's own thread runs the completion, and must drive the second request.
        _ = session.perform(makeRequest(server.url("/get?first")), downloadTo: nil, overwrite: false, progress: nil) {
            result in
            RequestLatch.wait { inner in
                _ = session.perform(follow, downloadTo: nil, overwrite: false, progress: nil) { result in
                    second.completion(result)
                    inner.signal()
                }
            }
            first.completion(result)
        }
        guard case .success = try XCTUnwrap(first.wait(seconds: 10), "the completion never returned") else {
            return XCTFail("the first request failed")
        }
        guard case .success = try XCTUnwrap(second.wait(seconds: 0)) else {
            return XCTFail("the second request failed")
        }
    }

    func testAWaitInsideSendRunsBeforeTheOuterRequest() throws {
        let session = Session()
        let inner = TransferRecorder()
        let outer = TransferRecorder()
        let requests = (makeRequest(server.url("/get?inner")), makeRequest(server.url("/get?outer")))
        RequestLatch.wait { latch in
            RequestLatch.wait { innerLatch in
                _ = session.perform(requests.0, downloadTo: nil, overwrite: false, progress: nil) { result in
                    inner.completion(result)
                    innerLatch.signal()
                }
            }
            _ = session.perform(requests.1, downloadTo: nil, overwrite: false, progress: nil) { result in
                outer.completion(result)
                latch.signal()
            }
        }
        guard case .success = try XCTUnwrap(inner.wait(seconds: 0)) else { return XCTFail("the inner request failed") }
        guard case .success = try XCTUnwrap(outer.wait(seconds: 0)) else { return XCTFail("the outer request failed") }
    }

    func testAHungUpDescriptorIsNotPolledForEver() {
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        close(ends[1])
        defer { close(ends[0]) }
        var reports = 0
        RequestLatch.wait(
            watching: [ends[0]],
            onReadable: { fd in
                var byte: UInt8 = 0
                _ = read(fd, &byte, 1)
                reports += 1
            }
        ) { latch in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { latch.signal() }
        }
        XCTAssertEqual(reports, 1, "the closed pipe was reported once, then left alone")
    }

    func testWaitingWhileTheTransportsOwnThreadDrives() throws {
        let session = Session()
        // Sent with no latch: the transport's own thread starts and drives it.
        let background = TransferRecorder()
        _ = session.perform(
            makeRequest(server.url("/delay/500")), downloadTo: nil, overwrite: false, progress: nil,
            completion: background.completion)
        XCTAssertFalse(TransportLoop.isIdle)
        let recorder = TransferRecorder()
        let request = makeRequest(server.url("/get"))
        RequestLatch.wait { latch in
            _ = session.perform(request, downloadTo: nil, overwrite: false, progress: nil) { result in
                recorder.completion(result)
                latch.signal()
            }
        }
        guard case .success = try XCTUnwrap(recorder.wait(seconds: 0)) else { return XCTFail("the request failed") }
        guard case .success = try XCTUnwrap(background.wait(seconds: 10)) else {
            return XCTFail("the other request failed")
        }
    }
}

/// A value shared with a completion that runs on another thread.
private final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
