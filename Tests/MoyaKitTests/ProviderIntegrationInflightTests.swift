import Foundation
import MoyaKit
import TestServers
import XCTest

/// `trackInflights`, the async API and `MultiTarget` over real HTTP.
final class ProviderIntegrationInflightTests: HTTPBinTestCase {
    private let provider = MoyaProvider<HTTPBin>(trackInflights: true)

    /// Starts `target` twice at once; returns the two result boxes, their expectations and tokens.
    private func startTwice(_ target: HTTPBin) -> ([ResultBox], [XCTestExpectation], [any Cancellable]) {
        var boxes: [ResultBox] = []
        var expectations: [XCTestExpectation] = []
        var tokens: [any Cancellable] = []
        for index in 0..<2 {
            let box = ResultBox()
            let done = expectation(description: "caller \(index)")
            tokens.append(
                provider.request(target) { result in
                    box.set(result)
                    done.fulfill()
                })
            boxes.append(box)
            expectations.append(done)
        }
        return (boxes, expectations, tokens)
    }

    func testIdenticalConcurrentRequestsReachTheServerOnce() throws {
        let (boxes, expectations, _) = startTwice(.delay(milliseconds: 300))
        XCTAssertEqual(Array(provider.inflightRequests.values), [2])
        wait(for: expectations, timeout: 10)
        XCTAssertEqual(server.receivedRequests.map(\.target), ["/delay/300"])
        let first = try XCTUnwrap(boxes[0].result?.response)
        XCTAssertTrue(first === boxes[1].result?.response, "both callers get the one response")
        XCTAssertEqual(try EchoedRequest(from: first.data).path, "/delay/300")
        XCTAssertTrue(provider.inflightRequests.isEmpty)

        // Done, the entry is gone: the same request goes out again.
        _ = try response(.delay(milliseconds: 300), with: provider)
        XCTAssertEqual(server.receivedRequests.count, 2)
    }

    func testIdenticalEncodableBodiesAreCoalesced() throws {
        // The JSON of an Encodable body must be the same every time, or two identical requests
        // would look different (and an endpoint would not even equal itself).
        let body = Task.requestJSONEncodable(
            Payload(title: "t", createdAt: Date(timeIntervalSince1970: 1), tags: ["a", "b"]))
        let endpoint = provider.endpoint(.slowPost(milliseconds: 300, task: body))
        for _ in 0..<20 { XCTAssertEqual(endpoint, provider.endpoint(.slowPost(milliseconds: 300, task: body))) }
        let (boxes, expectations, _) = startTwice(.slowPost(milliseconds: 300, task: body))
        wait(for: expectations, timeout: 10)
        XCTAssertEqual(boxes.compactMap { $0.result?.response?.statusCode }, [200, 200])
        XCTAssertEqual(server.receivedRequests.count, 1)
    }

    func testDifferentRequestsAreNotCoalesced() throws {
        var expectations: [XCTestExpectation] = []
        for milliseconds in [200, 201] {
            let done = expectation(description: "\(milliseconds)")
            provider.request(.delay(milliseconds: milliseconds)) { _ in done.fulfill() }
            expectations.append(done)
        }
        XCTAssertEqual(provider.inflightRequests.count, 2)
        wait(for: expectations, timeout: 10)
        XCTAssertEqual(Set(server.receivedRequests.map(\.target)), ["/delay/200", "/delay/201"])
    }

    /// Issue 11, item 3: the key is the request as it goes out, after the plugins. A case that needs
    /// the token must not receive the anonymous case's response because their endpoints match.
    func testRequestsThatDifferOnlyInAPluginsCredentialAreNotCoalesced() throws {
        let provider = MoyaProvider<SlowAuthorized>(
            plugins: [AccessTokenPlugin { _ in "s3cret-token" }], trackInflights: true)
        let anonymous = SlowAuthorized(baseURL: HTTPBin.get.baseURL, authorizationType: nil)
        let authorized = SlowAuthorized(baseURL: HTTPBin.get.baseURL, authorizationType: .bearer)
        XCTAssertEqual(provider.endpoint(anonymous), provider.endpoint(authorized), "the endpoints alone look the same")
        var boxes: [ResultBox] = []
        var expectations: [XCTestExpectation] = []
        for target in [anonymous, authorized, authorized] {
            let box = ResultBox()
            let done = expectation(description: "\(target.authorizationType == nil ? "anonymous" : "authorized")")
            provider.request(target) { result in
                box.set(result)
                done.fulfill()
            }
            boxes.append(box)
            expectations.append(done)
        }
        wait(for: expectations, timeout: 10)
        // Two requests: the anonymous one, and one shared by the two identical authorized callers.
        XCTAssertEqual(
            server.receivedRequests.map { $0.value(of: "Authorization") }.sorted { ($0 ?? "") < ($1 ?? "") },
            [nil, "Bearer s3cret-token"])
        XCTAssertEqual(
            try EchoedRequest(from: XCTUnwrap(boxes[0].result?.response).data).headerValues("Authorization"), [])
        XCTAssertEqual(
            try EchoedRequest(from: XCTUnwrap(boxes[1].result?.response).data).headerValues("Authorization"),
            ["Bearer s3cret-token"])
        XCTAssertTrue(boxes[1].result?.response === boxes[2].result?.response)
    }

    func testAPendingCallerCancelledBeforeItsRequestIsMadeGetsACancellation() throws {
        // The request closure runs later: the cancel comes before the caller has an exchange.
        let queue = DispatchQueue(label: "late request closure")
        let provider = MoyaProvider<HTTPBin>(
            requestClosure: { endpoint, done in
                queue.asyncAfter(deadline: .now() + 0.2) {
                    done(Result { try endpoint.urlRequest() }.mapError { .underlying($0, nil) })
                }
            }, trackInflights: true)
        let box = ResultBox()
        let done = expectation(description: "cancelled")
        let token = provider.request(.delay(milliseconds: 10)) { result in
            box.set(result)
            done.fulfill()
        }
        token.cancel()
        XCTAssertTrue(token.isCancelled)
        wait(for: [done], timeout: 5)
        XCTAssertTrue(box.result?.error?.isCancellation ?? false)
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    func testEntryIsRemovedAfterAFailure() throws {
        // Dropped after a while: the second caller joins before the failure (an immediate drop
        // could fail the first exchange before it, as it did under AddressSanitizer).
        let (boxes, expectations, _) = startTwice(.dropAfter(milliseconds: 300))
        XCTAssertEqual(Array(provider.inflightRequests.values), [2])
        wait(for: expectations, timeout: 10)
        XCTAssertEqual(server.receivedRequests.count, 1)
        XCTAssertEqual(boxes.map { $0.result?.error?.transportError?.kind }, [.connectionLost, .connectionLost])
        XCTAssertTrue(provider.inflightRequests.isEmpty)
        _ = try error(.drop, with: provider)
        XCTAssertEqual(server.receivedRequests.count, 2)
    }

    func testOneCallerCancellingLeavesTheOtherItsResult() throws {
        let (boxes, expectations, tokens) = startTwice(.delay(milliseconds: 500))
        waitForRequests(1)
        tokens[0].cancel()
        wait(for: [expectations[0]], timeout: 2)
        XCTAssertTrue(boxes[0].result?.error?.isCancellation ?? false)
        XCTAssertEqual(Array(provider.inflightRequests.values), [1])
        wait(for: [expectations[1]], timeout: 10)
        XCTAssertEqual(boxes[1].result?.response?.statusCode, 200)
        XCTAssertTrue(provider.inflightRequests.isEmpty)
        XCTAssertEqual(server.receivedRequests.count, 1)
    }

    func testEntryIsRemovedWhenEveryCallerCancels() throws {
        let (boxes, expectations, tokens) = startTwice(.delay(milliseconds: 10_000))
        waitForRequests(1)
        tokens.forEach { $0.cancel() }
        wait(for: expectations, timeout: 5)
        XCTAssertEqual(boxes.map { $0.result?.error?.isCancellation }, [true, true])
        XCTAssertTrue(provider.inflightRequests.isEmpty)
        // A new identical request is sent anew, not joined to the cancelled one.
        let result = try XCTUnwrap(send(.delay(milliseconds: 10), with: provider))
        XCTAssertEqual(result.response?.statusCode, 200)
        XCTAssertEqual(server.receivedRequests.count, 2)
    }

    func testConcurrentAsyncCallersShareOneRequest() async throws {
        let provider = self.provider
        async let first = provider.request(.delay(milliseconds: 300))
        async let second = provider.request(.delay(milliseconds: 300))
        let responses = try await [first, second]
        XCTAssertEqual(responses.map(\.statusCode), [200, 200])
        XCTAssertEqual(server.receivedRequests.count, 1)
        XCTAssertTrue(provider.inflightRequests.isEmpty)
    }

    func testAsyncRequestAndMapping() async throws {
        let provider = MoyaProvider<HTTPBin>()
        let response = try await provider.request(.search(query: "moya", page: 3))
        let echoed = try response.filterSuccessfulStatusCodes().map(EchoedRequest.self)
        XCTAssertEqual(echoed.args, [["page", "3"], ["q", "moya"]])
        XCTAssertEqual(try response.mapString(atKeyPath: "method"), "GET")

        do {
            _ = try await provider.request(.status(500, validation: .successCodes))
            XCTFail("expected a validation failure")
        } catch let error as MoyaError {
            XCTAssertEqual(error.response?.statusCode, 500)
        }
    }

    func testMultiTargetSendsWrappedTargetsOfDifferentTypes() throws {
        let provider = MoyaProvider<MultiTarget>()
        let echo = try response(MultiTarget(HTTPBin.search(query: "multi", page: 1)), with: provider)
        XCTAssertEqual(try EchoedRequest(from: echo.data).args, [["page", "1"], ["q", "multi"]])
        let json = try response(MultiTarget(JSONDocument()), with: provider)
        XCTAssertEqual(try json.mapString(atKeyPath: "slideshow.title"), "Sample Slide Show")
        XCTAssertEqual(server.receivedRequests.map(\.target), ["/get?page=1&q=multi", "/json"])
        XCTAssertEqual(server.receivedRequests.map { $0.value(of: "X-Client") }, ["MoyaKit-tests", nil])
        // Validation is the wrapped target's.
        XCTAssertNotNil(try error(MultiTarget(HTTPBin.status(404, validation: .successCodes)), with: provider).response)
    }
}

/// A slow request that may carry the token `AccessTokenPlugin` adds.
private struct SlowAuthorized: TargetType, AccessTokenAuthorizable {
    var baseURL: URL
    var authorizationType: AuthorizationType?
    var path: String { "/delay/300" }
    var method: MoyaKit.Method { .get }
    var task: Task { .requestPlain }
    var headers: [String: String]? { nil }
}

/// A second target type, to mix with `HTTPBin` in a `MultiTarget` provider.
private struct JSONDocument: TargetType {
    var baseURL: URL { HTTPBin.get.baseURL }
    var path: String { "/json" }
    var method: MoyaKit.Method { .get }
    var task: Task { .requestPlain }
    var headers: [String: String]? { nil }
}
