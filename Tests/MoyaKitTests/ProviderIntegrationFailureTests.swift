import Foundation
import MoyaKit
import TestServers
import XCTest

/// Validation, timeouts, redirects, lost connections and cancellation over real HTTP.
final class ProviderIntegrationFailureTests: HTTPBinTestCase {
    private func provider(_ configure: (inout SessionConfiguration) -> Void = { _ in }) -> MoyaProvider<HTTPBin> {
        var configuration = SessionConfiguration()
        configure(&configuration)
        return MoyaProvider<HTTPBin>(session: Session(configuration: configuration))
    }

    func testValidationFailureKeepsTheResponse() throws {
        let error = try error(.status(404, validation: .successCodes), with: provider())
        guard case .statusCode(let response) = error else { return XCTFail("got \(error)") }
        XCTAssertEqual(response.statusCode, 404)
        XCTAssertEqual(response.response?.statusCode, 404)
        XCTAssertEqual(response.request?.url, server.url("/status/404"))
        XCTAssertEqual(error.response?.statusCode, 404)
        XCTAssertEqual(error.errorDescription, "Status code 404 didn't fall within the accepted range.")
    }

    func testValidationFailureKeepsTheResponseBody() throws {
        let error = try error(
            .status(422, validation: .successCodes, body: #"{"error":"bad input"}"#), with: provider())
        guard case .statusCode(let response) = error else { return XCTFail("got \(error)") }
        XCTAssertEqual(response.statusCode, 422)
        XCTAssertEqual(try response.mapString(atKeyPath: "error"), "bad input")
    }

    func testValidationTypes() throws {
        let provider = provider { $0.followRedirects = false }
        let outcomes: [(Int, ValidationType, Bool)] = [
            (204, .successCodes, true), (302, .successCodes, false), (302, .successAndRedirectCodes, true),
            (500, .successAndRedirectCodes, false), (418, .customCodes([418]), true), (200, .customCodes([418]), false),
            (503, .none, true)
        ]
        for (status, validation, succeeds) in outcomes {
            let result = try XCTUnwrap(send(.status(status, validation: validation), with: provider))
            XCTAssertEqual(result.response != nil, succeeds, "\(status) \(validation)")
            XCTAssertEqual(result.response?.statusCode ?? result.error?.response?.statusCode, status)
        }
    }

    func testTimeoutFailsWithTimedOut() throws {
        let started = Date()
        let error = try error(.delay(milliseconds: 3_000), with: provider { $0.timeout = 0.3 })
        guard case .underlying(let cause, let response) = error else { return XCTFail("got \(error)") }
        XCTAssertEqual((cause as? TransportError)?.kind, .timedOut)
        XCTAssertNil(response)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5)
        XCTAssertTrue(error.description.contains("timed out"), error.description)
    }

    func testRequestTimeoutFromTheRequestClosure() throws {
        // A request closure can set a per-request limit tighter than the session's.
        let requestClosure: MoyaProvider<HTTPBin>.RequestClosure = { endpoint, done in
            do {
                var request = try endpoint.urlRequest()
                request.timeoutInterval = 0.3
                done(.success(request))
            } catch {
                done(.failure(MoyaError.underlying(error, nil)))
            }
        }
        let provider = MoyaProvider<HTTPBin>(requestClosure: requestClosure)
        XCTAssertEqual(try error(.delay(milliseconds: 3_000), with: provider).transportError?.kind, .timedOut)
    }

    func testRedirectsAreFollowed() throws {
        let response = try response(.redirect(hops: 3), with: provider())
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.response?.url, server.url("/get"))
        XCTAssertEqual(try EchoedRequest(from: response.data).path, "/get")
        XCTAssertEqual(server.receivedRequests.map(\.target), ["/redirect/3", "/redirect/2", "/redirect/1", "/get"])
        // Each hop keeps the target's headers.
        XCTAssertEqual(
            server.receivedRequests.map { $0.value(of: "X-Client") }, Array(repeating: "MoyaKit-tests", count: 4))
    }

    func testTooManyRedirects() throws {
        let error = try error(.redirect(hops: 5), with: provider { $0.maximumRedirects = 2 })
        XCTAssertEqual(error.transportError?.kind, .tooManyRedirects)
        XCTAssertEqual(server.receivedRequests.count, 3)
    }

    func testRedirectsNotFollowedWhenDisabled() throws {
        let response = try response(.redirect(hops: 2), with: provider { $0.followRedirects = false })
        XCTAssertEqual(response.statusCode, 302)
        XCTAssertEqual(response.response?.headers[.location], "/redirect/1")
        XCTAssertEqual(response.data.text, "redirecting to /redirect/1")
    }

    func testDroppedConnectionIsConnectionLost() throws {
        XCTAssertEqual(try error(.drop, with: provider()).transportError?.kind, .connectionLost)
    }

    func testNoServerIsCannotConnect() throws {
        server.stop()
        XCTAssertEqual(try error(.get, with: provider()).transportError?.kind, .cannotConnect)
    }

    func testCancellingTheTokenDuringTheRequest() throws {
        let done = expectation(description: "completion")
        let box = ResultBox()
        let started = Date()
        let token = provider().request(.delay(milliseconds: 10_000)) { result in
            box.set(result)
            done.fulfill()
        }
        waitForRequests(1)
        XCTAssertFalse(token.isCancelled)
        token.cancel()
        XCTAssertTrue(token.isCancelled)
        wait(for: [done], timeout: 5)
        XCTAssertTrue(try XCTUnwrap(box.result?.error).isCancellation)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        // Cancelling again does nothing more.
        token.cancel()
    }

    func testCancellingTheAsyncTask() async throws {
        let provider = provider()
        let task = _Concurrency.Task { try await provider.request(.delay(milliseconds: 10_000)) }
        let received = await waitForServerAsync(requests: 1)
        XCTAssertTrue(received)
        let started = Date()
        task.cancel()
        do {
            let response = try await task.value
            XCTFail("expected a cancellation, got \(response)")
        } catch let error as MoyaError {
            XCTAssertTrue(error.isCancellation, "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    }

    func testAsyncTaskCancelledBeforeSendingNeverReachesTheServer() async throws {
        let provider = provider()
        let task = _Concurrency.Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await provider.request(.get)
        }
        do {
            _ = try await task.value
            XCTFail("expected a cancellation")
        } catch let error as MoyaError {
            XCTAssertTrue(error.isCancellation, "\(error)")
        }
        try await _Concurrency.Task.sleep(nanoseconds: 200_000_000)
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    private func waitForServerAsync(requests count: Int) async -> Bool {
        for _ in 0..<2_000 where server.receivedRequests.count < count {
            try? await _Concurrency.Task.sleep(nanoseconds: 5_000_000)
        }
        return server.receivedRequests.count >= count
    }
}
