import Dispatch
import Foundation
import TestServers
import XCTest

@testable import CurlTransport

/// Issue 16: finished transfers give their easy handle back (`EasyHandlePool`) and the next request
/// takes it: with its URL alone when the handle is configured for the request's shape, else reset;
/// and a transfer with a completion queue assembles its response there. Neither
/// may change what is sent or what comes back: a request sent on a handle that carried another
/// one arrives as it does on a new handle, and a response assembled on a queue is the one
/// assembled on the driving thread.
final class TransportReuseTests: XCTestCase {
    private var server: HTTPTestServer!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// What a request looked like on the wire, but for what changes between two sends anyway.
    private func arrival(_ received: ReceivedRequest) -> [String] {
        [received.method, received.target, "\(received.bodyLength)"]
            + received.headers.map { "\($0.name): \($0.value)" }
    }

    func testARequestOnAReusedHandleArrivesAsOnANewOne() throws {
        // On a new handle: the pool is emptied first (it belongs to the process's one loop).
        let loop = try TransportLoop.shared.get()
        while let handle = try? loop.handles.takeKeptForTesting() { _ = handle }
        let plain = makeRequest(server.url("/get?a=1"), headers: [("Accept", "application/json")])
        _ = try response(to: plain)
        let onNewHandle = try XCTUnwrap(server.receivedRequests.last)

        // Requests that set what a plain GET does not: a body, a method, headers, no body at all,
        // a multipart form; each handle goes back to the pool and the GET after it takes one.
        var post = makeRequest(
            server.url("/anything"), method: "POST", headers: [("X-First", "1"), ("Content-Type", "text/plain")])
        post.httpBody = Data("a body".utf8)
        var multipart = makeRequest(server.url("/anything"), method: "PUT")
        multipart.multipartParts = [MultipartFormBodyPart(provider: .data(Data("x".utf8)), name: "part")]
        let head = makeRequest(server.url("/bytes/10"), method: "HEAD")
        let custom = makeRequest(server.url("/anything"), method: "PROPFIND", headers: [("X-Empty", "")])
        for earlier in [post, multipart, head, custom] {
            _ = try response(to: earlier)
            _ = try response(to: plain)
            let onReusedHandle = try XCTUnwrap(server.receivedRequests.last)
            XCTAssertEqual(arrival(onReusedHandle), arrival(onNewHandle), "after \(earlier.httpMethod ?? "GET")")
        }
        // A HEAD's handle answers a GET with its body.
        _ = try response(to: head)
        XCTAssertEqual(try response(to: makeRequest(server.url("/bytes/10"))).body.count, 10)
    }

    // MARK: Handles kept configured for a request's shape

    /// The process's one loop, its pool emptied: the next request runs on a new handle.
    private func loopWithEmptyPool() throws -> TransportLoop {
        let loop = try TransportLoop.shared.get()
        while let handle = try? loop.handles.takeKeptForTesting() { _ = handle }
        return loop
    }

    func testARequestOfTheSameShapeTakesTheConfiguredHandleWithItsOwnURL() throws {
        let loop = try loopWithEmptyPool()
        _ = try response(to: makeRequest(server.url("/get?n=1"), headers: [("Accept", "application/json")]))
        let kept = try loop.handles.takeKeptForTesting()
        XCTAssertNotNil(kept.configuredShape, "a GET that ended well leaves its handle configured")
        loop.handles.giveBack(kept, endedWell: true)

        let second = makeRequest(server.url("/anything/2?x=y"), headers: [("Accept", "application/json")])
        let answer = try response(to: second)
        let onConfiguredHandle = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(onConfiguredHandle.target, "/anything/2?x=y")
        XCTAssertEqual(answer.head.url, server.url("/anything/2?x=y"))
        XCTAssertTrue(try loop.handles.takeKeptForTesting() === kept, "the handle configured for the shape was taken")

        _ = try loopWithEmptyPool()
        _ = try response(to: second)
        XCTAssertEqual(arrival(onConfiguredHandle), arrival(try XCTUnwrap(server.receivedRequests.last)))
    }

    func testARequestOfAnotherShapeFindsNoOptionOfTheLastOne() throws {
        let plain = makeRequest(server.url("/anything"))
        _ = try loopWithEmptyPool()
        _ = try response(to: plain)
        let onNewHandle = arrival(try XCTUnwrap(server.receivedRequests.last))
        var others = [
            makeRequest(server.url("/anything"), headers: [("X-Extra", "1")]),
            makeRequest(server.url("/anything"), method: "DELETE"),
            makeRequest(server.url("/anything"), method: "HEAD")
        ]
        var post = makeRequest(server.url("/anything"), method: "POST")
        post.httpBody = Data("body".utf8)
        others.append(post)
        for other in others {
            _ = try loopWithEmptyPool()
            _ = try response(to: other)
            _ = try response(to: plain)
            XCTAssertEqual(
                arrival(try XCTUnwrap(server.receivedRequests.last)), onNewHandle, "after \(other.httpMethod ?? "GET")")
        }
    }

    func testTimeoutsAndSessionSettingsArePartOfTheShape() throws {
        // A handle left with a short timeout must not time out the next request, which has the default.
        var hurried = makeRequest(server.url("/get"))
        hurried.timeoutInterval = 0.2
        _ = try loopWithEmptyPool()
        _ = try response(to: hurried)
        XCTAssertEqual(try response(to: makeRequest(server.url("/delay/600"))).head.statusCode, 200)

        // One that followed no redirect, under another session's settings, must not stop the next.
        var unfollowing = SessionConfiguration()
        unfollowing.followRedirects = false
        let redirect = makeRequest(server.url("/redirect-to?url=/get"))
        _ = try loopWithEmptyPool()
        XCTAssertEqual(try response(to: redirect, session: Session(configuration: unfollowing)).head.statusCode, 302)
        XCTAssertEqual(try response(to: redirect).head.statusCode, 200)
    }

    func testFailedTransfersLeaveHandlesThatAreReset() throws {
        let loop = try loopWithEmptyPool()
        _ = try transportError(for: makeRequest(URL(string: "http://127.0.0.1:1/closed")!))
        XCTAssertNil(try loop.handles.takeKeptForTesting().configuredShape)
    }

    func testTracedAndSecretCarryingRequestsAreShapesOfTheirOwn() throws {
        let loop = try loopWithEmptyPool()
        let plain = makeRequest(server.url("/anything"), headers: [("Accept", "*/*")])
        _ = try response(to: plain)
        let onNewHandle = arrival(try XCTUnwrap(server.receivedRequests.last))
        _ = try loopWithEmptyPool()

        // Traces (`-v`): the handle keeps them for the next traced request, and only for it.
        let traced = TraceCounter()
        let tracing = Session(trace: traced.record)
        _ = try response(to: plain, session: tracing)
        let tracedHandle = try loop.handles.takeKeptForTesting()
        XCTAssertEqual(tracedHandle.configuredShape?.traces, true)
        loop.handles.giveBack(tracedHandle, endedWell: true)
        let events = traced.count
        XCTAssertGreaterThan(events, 0)
        _ = try response(to: plain)
        XCTAssertEqual(arrival(try XCTUnwrap(server.receivedRequests.last)), onNewHandle)
        XCTAssertEqual(traced.count, events, "a request without traces reports nothing to another's")
        _ = try response(to: plain, session: tracing)
        XCTAssertGreaterThan(traced.count, events, "a traced request on a configured handle is traced")

        // A secret on a request that follows redirects: libcurl checks each request, on a reused
        // handle as on a new one.
        _ = try loopWithEmptyPool()
        let secret = [("Accept", "*/*"), ("Authorization", "Bearer secret-value")]
        _ = try response(to: makeRequest(server.url("/anything"), headers: secret))
        let guarded = try loop.handles.takeKeptForTesting()
        XCTAssertEqual(guarded.configuredShape?.checksEachRequest, true)
        loop.handles.giveBack(guarded, endedWell: true)
        _ = try response(to: plain)
        XCTAssertEqual(arrival(try XCTUnwrap(server.receivedRequests.last)), onNewHandle)
    }

    func testAReusedHandleCarriesNoSecretToAnotherOrigin() throws {
        let other = try HTTPTestServer()
        defer { other.stop() }
        let loop = try loopWithEmptyPool()
        // X-Api-Key: libcurl itself drops Authorization on a redirect to another host, not this.
        let secret = [("X-Api-Key", "secret-value")]
        _ = try response(to: makeRequest(server.url("/get"), headers: secret))
        let configured = try loop.handles.takeKeptForTesting()
        loop.handles.giveBack(configured, endedWell: true)

        // The same shape, redirected to another origin: the configured handle is taken, and the
        // redirect arrives there without the secret.
        let elsewhere = other.url("/anything").absoluteString.addingPercentEncoding(
            withAllowedCharacters: .alphanumerics)!
        let answer = try response(to: makeRequest(server.url("/redirect-to?url=\(elsewhere)"), headers: secret))
        XCTAssertEqual(answer.head.statusCode, 200)
        let arrived = try XCTUnwrap(other.receivedRequests.last)
        XCTAssertEqual(arrived.values(of: "X-Api-Key"), [], "the secret stayed with its origin")
        XCTAssertEqual(server.receivedRequests.last?.value(of: "X-Api-Key"), "secret-value")
        // The restart without the secret changed the handle's options: it is reset before reuse.
        let restarted = try loop.handles.takeKeptForTesting()
        XCTAssertTrue(restarted === configured, "the configured handle carried the redirected request")
        XCTAssertNil(restarted.configuredShape)
    }

    func testAFailureOnAReusedHandleReportsItsOwnError() throws {
        let unreachable = makeRequest(URL(string: "http://127.0.0.1:1/closed")!)
        let first = try transportError(for: unreachable)
        _ = try response(to: makeRequest(server.url("/get")))
        let again = try transportError(for: unreachable)
        XCTAssertEqual(again.kind, first.kind)
        XCTAssertEqual(again.message, first.message)
        // A success after a failure carries no trace of it.
        XCTAssertEqual(try response(to: makeRequest(server.url("/get"))).head.statusCode, 200)
    }

    func testTransfersAbortedMidBodyLeaveHandlesTheNextRequestsCanUse() throws {
        // A transfer aborted from the write callback leaves libcurl's receive buffer allocated,
        // and such a handle refuses a new buffer size: the pool must not hand it out as is.
        for _ in 0..<3 {
            let recorder = TransferRecorder()
            _ = Session().perform(
                makeRequest(server.url("/bytes/50000")), downloadTo: nil, overwrite: false,
                bodyHandling: .collect(limit: 10), progress: nil, completion: recorder.completion)
            guard case .failure(let error) = try XCTUnwrap(recorder.wait()) else {
                return XCTFail("the limit was not enforced")
            }
            XCTAssertEqual(error.kind, .responseTooLarge)
        }
        for _ in 0..<3 {
            XCTAssertEqual(try response(to: makeRequest(server.url("/bytes/50000"))).body.count, 50000)
        }
    }

    func testTheRequestedURLStandsForAnEqualEffectiveURL() throws {
        let texts = [
            "http://127.0.0.1:8080/get?a=1&b=%20x", "https://example.com/", "https://example.com",
            "http://h/p%2Fq#frag",
            "http://user:pw@h:1/a/../b", "HTTP://Example.COM/X", "http://h/caf%C3%A9?q=%E2%9C%93"
        ]
        for text in texts {
            let requested = try XCTUnwrap(URL(string: text))
            for effective in texts + [nil] {
                let general = effective.flatMap { URL(string: $0) } ?? requested
                let fast = Transfer.answeringURL(effective, requestURL: requested)
                XCTAssertEqual(fast, general, "\(text) answered by \(effective ?? "nil")")
                XCTAssertEqual(fast.absoluteString, general.absoluteString)
                XCTAssertEqual(fast.relativeString, general.relativeString)
            }
        }
        // A URL relative to a base is parsed again: its base is not the answer's.
        let relative = try XCTUnwrap(URL(string: "get", relativeTo: URL(string: "http://h/")))
        XCTAssertEqual(Transfer.answeringURL("http://h/get", requestURL: relative), URL(string: "http://h/get"))
    }

    func testAResponseAssembledOnTheCompletionQueueIsTheOneAssembledInline() throws {
        let queue = DispatchQueue(label: "completions")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let request = makeRequest(server.url("/redirect-to?url=/get%3Fa%3D1"), headers: [("X-Trace", "1")])
        let inline = try response(to: request)

        let recorder = TransferRecorder()
        let ranOnQueue = LockedFlag()
        _ = Session().perform(request, downloadTo: nil, overwrite: false, progress: nil, completionQueue: queue) {
            result in
            ranOnQueue.set(DispatchQueue.getSpecific(key: key) == true)
            recorder.completion(result)
        }
        let queued = try XCTUnwrap(recorder.wait()).get()
        XCTAssertTrue(ranOnQueue.value, "the completion ran on its queue")
        XCTAssertEqual(queued.head.statusCode, inline.head.statusCode)
        XCTAssertEqual(queued.head.url, inline.head.url)
        XCTAssertEqual(queued.head.httpVersion, inline.head.httpVersion)
        XCTAssertEqual(queued.head.headers.map(\.name), inline.head.headers.map(\.name))
        XCTAssertEqual(queued.head.headers[.contentType], inline.head.headers[.contentType])
        XCTAssertEqual(queued.bodyLength, inline.bodyLength)
    }
}

private final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var value: Bool {
        lock.lock()
        defer { lock.unlock() }
        return flag
    }
    func set(_ value: Bool) {
        lock.lock()
        flag = value
        lock.unlock()
    }
}

/// Counts the trace events a session reports.
private final class TraceCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var events = 0
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return events
    }
    var record: @Sendable (TransferTrace) -> Void {
        { [self] _ in
            lock.lock()
            events += 1
            lock.unlock()
        }
    }
}
