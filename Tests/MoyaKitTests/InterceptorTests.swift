import Foundation
import HTTPTypes
import MoyaKit
import Synchronization
import TestServers
import XCTest

/// `MoyaProvider(interceptor:)` over real HTTP: `RetryPolicy`, `AuthenticationInterceptor`, adapters
/// and `Interceptor` composition, against the loopback server's `/flaky`, `/bearer/TOKEN` and
/// `/anything` routes.
final class InterceptorTests: HTTPBinTestCase {
    /// A route of the test server, with a query.
    struct Route: TargetType {
        var baseURL: URL
        var path: String
        var method: MoyaKit.Method = .get
        var query: [String: String] = [:]
        var validationType: ValidationType = .successCodes
        /// A file sent as the body, with the query in the URL.
        var upload: URL?
        var task: Task {
            if let upload { return .uploadCompositeFile(upload, urlParameters: query) }
            return query.isEmpty
                ? .requestPlain : .requestParameters(parameters: query, encoding: URLEncoding.queryString)
        }
        var headers: [String: String]? { nil }
        var sampleData: Data { Data(#"{"stubbed":true}"#.utf8) }
    }

    func route(_ path: String, method: MoyaKit.Method = .get, _ query: [String: String] = [:]) -> Route {
        Route(baseURL: server.baseURL, path: path, method: method, query: query)
    }

    /// An interceptor that records each decision of the one it wraps.
    final class Recording: RequestInterceptor {
        let wrapped: any RequestInterceptor
        let decisions = Mutex<[String]>([])

        init(_ wrapped: any RequestInterceptor) {
            self.wrapped = wrapped
        }

        func adapt(
            _ urlRequest: URLRequest, for session: Session,
            completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void
        ) {
            wrapped.adapt(urlRequest, for: session, completion: completion)
        }

        func retry(
            _ request: InterceptedRequest, for session: Session, dueTo error: any Error,
            completion: @escaping @Sendable (RetryResult) -> Void
        ) {
            wrapped.retry(request, for: session, dueTo: error) { [self] result in
                let text: String
                switch result {
                case .retry: text = "retry"
                case .retryWithDelay(let delay): text = "retry after \(delay)"
                case .doNotRetry: text = "stop"
                case .doNotRetryWithError(let error): text = "fail: \(error)"
                }
                decisions.withLock { $0.append("#\(request.retryCount) \(request.statusCode ?? 0): \(text)") }
                completion(result)
            }
        }
    }

    /// A quick policy: backoff of milliseconds.
    let quick = RetryPolicy(retryLimit: 3, exponentialBackoffScale: 0.01)

    func testARetryPolicyRetriesA503ThenSucceeds() throws {
        let recording = Recording(quick)
        let provider = MoyaProvider<Route>(interceptor: recording)
        let response = try response(route("/flaky/a", ["failures": "2"]), with: provider)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(server.receivedRequests.count, 3)
        XCTAssertEqual(
            recording.decisions.withLock { $0 }, ["#0 503: retry after 0.01", "#1 503: retry after 0.02"])
    }

    func testAnAnswerTheValidationAcceptsIsStillRetried() throws {
        var target = route("/flaky/b", ["failures": "1"])
        target.validationType = .none
        let response = try response(target, with: MoyaProvider<Route>(interceptor: quick))
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(server.receivedRequests.count, 2)
    }

    func testTheRetriesStopAtTheLimitWithTheLastAnswer() throws {
        let policy = RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.01)
        let error = try error(route("/flaky/c", ["failures": "9"]), with: MoyaProvider<Route>(interceptor: policy))
        XCTAssertEqual(error.response?.statusCode, 503)
        XCTAssertEqual(server.receivedRequests.count, 3)
    }

    func testRetryAfterDecidesTheWait() throws {
        let recording = Recording(quick)
        let provider = MoyaProvider<Route>(interceptor: recording)
        let target = route("/flaky/d", ["failures": "1", "header": "Retry-After:1"])
        XCTAssertEqual(try response(target, with: provider).statusCode, 200)
        XCTAssertEqual(server.receivedRequests.count, 2)
        // The server's one second, not the backoff's 0.01.
        XCTAssertEqual(recording.decisions.withLock { $0 }, ["#0 503: retry after 1.0"])
    }

    func testRetryAfterIsCappedAndReadAsADate() {
        func answer(_ status: Int, retryAfter: String) -> Result<Response, MoyaError> {
            var fields = HTTPFields()
            fields[.retryAfter] = retryAfter
            let head = HTTPResponseHead(statusCode: status, headers: fields)
            return .failure(.statusCode(Response(statusCode: status, data: Data(), response: head)))
        }
        let policy = RetryPolicy()
        XCTAssertEqual(policy.retryDelay(after: answer(503, retryAfter: "86400"), retryCount: 0, method: .get), 120)
        XCTAssertEqual(
            policy.retryDelay(
                after: answer(429, retryAfter: "Sun, 06 Nov 1994 08:49:37 GMT"), retryCount: 0, method: .get),
            0)
        // A status not retried keeps its Retry-After to itself.
        XCTAssertNil(policy.retryDelay(after: answer(404, retryAfter: "1"), retryCount: 0, method: .get))
        // Beyond the limit, a rate-limited answer is retried only with rateLimitRetries.
        XCTAssertNil(policy.retryDelay(after: answer(429, retryAfter: "3"), retryCount: 2, method: .get))
        var paging = policy
        paging.rateLimitRetries = 3
        XCTAssertEqual(paging.retryDelay(after: answer(429, retryAfter: "3"), retryCount: 2, method: .post), 3)
    }

    func testAPostIsNotRetriedUnlessEveryMethodIs() throws {
        let post = route("/flaky/e", method: .post, ["failures": "2"])
        let error = try error(post, with: MoyaProvider<Route>(interceptor: quick))
        XCTAssertEqual(error.response?.statusCode, 503)
        XCTAssertEqual(server.receivedRequests.count, 1)
        var all = quick
        all.retriesAllMethods = true
        XCTAssertEqual(try response(post, with: MoyaProvider<Route>(interceptor: all)).statusCode, 200)
        // The 503 of the first provider counts: the second answered 503, then 200.
        XCTAssertEqual(server.receivedRequests.count, 3)
    }

    func testALostConnectionIsRetriedByTheConnectionLostPolicy() throws {
        let provider = MoyaProvider<Route>(
            interceptor: ConnectionLostRetryPolicy(retryLimit: 2, exponentialBackoffScale: 0.01))
        let error = try error(route("/drop"), with: provider)
        XCTAssertNotNil(error.transportError)
        XCTAssertEqual(server.receivedRequests.count, 3)
        // A 503 is no lost connection.
        _ = try self.error(route("/flaky/f", ["failures": "1"]), with: provider)
        XCTAssertEqual(server.receivedRequests.filter { $0.path.hasPrefix("/flaky") }.count, 1)
    }

    // MARK: - Authentication

    /// Bearer tokens; a refresh hands out `next` (or fails), counting.
    final class Tokens: Authenticator {
        struct Credential: AuthenticationCredential {
            var token: String
            var expired = false
            var requiresRefresh: Bool { expired }
        }

        struct RefreshFailed: Error {}

        let next: String?
        /// How long a refresh takes, answered from another thread.
        let delay: Double
        let refreshes = Atomic<Int>(0)

        init(next: String?, delay: Double = 0) {
            self.next = next
            self.delay = delay
        }

        func apply(_ credential: Credential, to urlRequest: inout URLRequest) {
            urlRequest.setValue("Bearer \(credential.token)", forHTTPHeaderField: "Authorization")
        }

        func refresh(
            _ credential: Credential, for session: Session,
            completion: @escaping @Sendable (Result<Credential, any Error>) -> Void
        ) {
            refreshes.add(1, ordering: .relaxed)
            let result: Result<Credential, any Error> =
                next.map { .success(Credential(token: $0)) } ?? .failure(RefreshFailed())
            guard delay > 0 else { return completion(result) }
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { completion(result) }
        }

        func isRequest(_ urlRequest: URLRequest, authenticatedWith credential: Credential) -> Bool {
            urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer \(credential.token)"
        }
    }

    func testA401IsAnsweredWithOneRefreshThenSucceeds() throws {
        let tokens = Tokens(next: "fresh")
        let interceptor = AuthenticationInterceptor(authenticator: tokens, credential: .init(token: "stale"))
        let response = try response(route("/bearer/fresh"), with: MoyaProvider<Route>(interceptor: interceptor))
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(tokens.refreshes.load(ordering: .relaxed), 1)
        XCTAssertEqual(
            server.receivedRequests.map { $0.value(of: "Authorization") ?? "" }, ["Bearer stale", "Bearer fresh"])
        XCTAssertEqual(interceptor.credential?.token, "fresh")
    }

    func testARefreshedCredentialRefusedAgainIsTheResult() throws {
        let tokens = Tokens(next: "also-wrong")
        let interceptor = AuthenticationInterceptor(authenticator: tokens, credential: .init(token: "stale"))
        let error = try error(route("/bearer/right"), with: MoyaProvider<Route>(interceptor: interceptor))
        XCTAssertEqual(error.response?.statusCode, 401)
        XCTAssertEqual(tokens.refreshes.load(ordering: .relaxed), 1)
        XCTAssertEqual(server.receivedRequests.count, 2)
    }

    func testAFailedRefreshIsTheError() throws {
        let tokens = Tokens(next: nil)
        let interceptor = AuthenticationInterceptor(authenticator: tokens, credential: .init(token: "stale"))
        let error = try error(route("/bearer/fresh"), with: MoyaProvider<Route>(interceptor: interceptor))
        guard case .underlying(let cause, let response) = error else { return XCTFail("got \(error)") }
        XCTAssertTrue(cause is Tokens.RefreshFailed, "\(cause)")
        XCTAssertEqual(response?.statusCode, 401)
        XCTAssertEqual(server.receivedRequests.count, 1)
    }

    func testAnExpiredCredentialIsRefreshedBeforeItIsSentAndNoneFails() throws {
        let tokens = Tokens(next: "fresh")
        let expired = AuthenticationInterceptor(
            authenticator: tokens, credential: .init(token: "stale", expired: true))
        XCTAssertEqual(
            try response(route("/bearer/fresh"), with: MoyaProvider<Route>(interceptor: expired)).statusCode, 200)
        XCTAssertEqual(server.receivedRequests.map { $0.value(of: "Authorization") ?? "" }, ["Bearer fresh"])
        let missing = AuthenticationInterceptor(authenticator: tokens)
        let error = try error(route("/bearer/fresh"), with: MoyaProvider<Route>(interceptor: missing))
        guard case .underlying(let cause, _) = error else { return XCTFail("got \(error)") }
        XCTAssertEqual(cause as? AuthenticationError, .missingCredential)
        XCTAssertEqual(server.receivedRequests.count, 1)
    }

    func testRequestsNeedingARefreshWhileOneIsUnderWayWaitForIt() throws {
        let tokens = Tokens(next: "fresh", delay: 0.3)
        let interceptor = AuthenticationInterceptor(
            authenticator: tokens, credential: .init(token: "stale", expired: true))
        let provider = MoyaProvider<Route>(interceptor: interceptor)
        let results = (0..<3).map { _ in ResultBox() }
        let done = (0..<3).map { expectation(description: "request \($0)") }
        for index in 0..<3 {
            provider.request(route("/bearer/fresh")) { result in
                results[index].set(result)
                done[index].fulfill()
            }
        }
        wait(for: done, timeout: 10)
        XCTAssertEqual(results.map { $0.result?.response?.statusCode }, [200, 200, 200])
        XCTAssertEqual(tokens.refreshes.load(ordering: .relaxed), 1)
    }

    func testAuthenticationAndRetriesCompose() throws {
        let tokens = Tokens(next: "fresh")
        let interceptor = Interceptor(
            interceptors: [AuthenticationInterceptor(authenticator: tokens, credential: .init(token: "fresh")), quick])
        let response = try response(
            route("/flaky/g", ["failures": "1"]), with: MoyaProvider<Route>(interceptor: interceptor))
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(
            server.receivedRequests.map { $0.value(of: "Authorization") ?? "" }, ["Bearer fresh", "Bearer fresh"])
        XCTAssertEqual(tokens.refreshes.load(ordering: .relaxed), 0)
    }

    // MARK: - Adapters

    func testAnAdapterChangesEveryAttemptAndTheServerEchoesIt() throws {
        let attempt = AttemptCounter()
        let stamp = Adapter { request, _, completion in
            var stamped = request
            stamped.setValue("attempt-\(attempt.next())", forHTTPHeaderField: "X-Attempt")
            completion(.success(stamped))
        }
        let provider = MoyaProvider<Route>(interceptor: Interceptor(adapter: stamp, retrier: quick))
        XCTAssertEqual(try response(route("/flaky/h", ["failures": "1"]), with: provider).statusCode, 200)
        XCTAssertEqual(server.receivedRequests.map { $0.value(of: "X-Attempt") ?? "" }, ["attempt-1", "attempt-2"])
        let echoed = try response(route("/anything"), with: provider)
        XCTAssertTrue(echoed.data.text.contains("attempt-3"), echoed.data.text)
    }

    /// Stamps each request it prepares with a number, and counts the answers it hears of.
    final class Stamping: PluginType {
        let prepared = AttemptCounter()
        let received = AttemptCounter()

        func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
            var stamped = request
            stamped.setValue("prepared-\(prepared.next())", forHTTPHeaderField: "X-Prepared")
            return stamped
        }

        func didReceive(_ result: Result<Response, MoyaError>, target: any TargetType) {
            _ = received.next()
        }
    }

    func testEachRetryIsPreparedAfreshByThePluginsWhichHearEachAnswer() throws {
        let stamping = Stamping()
        let provider = MoyaProvider<Route>(interceptor: quick, plugins: [stamping])
        XCTAssertEqual(try response(route("/flaky/j", ["failures": "2"]), with: provider).statusCode, 200)
        XCTAssertEqual(
            server.receivedRequests.map { $0.value(of: "X-Prepared") ?? "" }, ["prepared-1", "prepared-2", "prepared-3"]
        )
        XCTAssertEqual(stamping.received.next(), 4)
    }

    func testABodyStreamedFromAPipeIsNeverSentAgain() throws {
        let file = try makeTemporaryFolder().appendingPathComponent("body")
        try Data("streamed".utf8).write(to: file)
        // The request closure names the file a stream, as moya-cli does for `-` and FIFOs.
        let requestClosure: MoyaProvider<Route>.RequestClosure = { endpoint, done in
            do throws(MoyaError) {
                var request = try endpoint.urlRequest()
                request.streamedFilePaths = [file.path]
                done(.success(request))
            } catch {
                done(.failure(error))
            }
        }
        var all = quick
        all.retriesAllMethods = true
        var target = route("/flaky/k", method: .put, ["failures": "2"])
        target.upload = file
        let streamed = MoyaProvider<Route>(requestClosure: requestClosure, interceptor: all)
        XCTAssertEqual(try error(target, with: streamed).response?.statusCode, 503)
        XCTAssertEqual(server.receivedRequests.count, 1)
        // The same file not streamed is sent again, whole.
        XCTAssertEqual(try response(target, with: MoyaProvider<Route>(interceptor: all)).statusCode, 200)
        XCTAssertEqual(server.receivedRequests.count, 3)
        XCTAssertEqual(server.receivedRequests.last?.body, Data("streamed".utf8))
    }

    func testAFailingAdapterEndsTheRequestBeforeItIsSent() throws {
        struct Refused: Error {}
        let provider = MoyaProvider<Route>(interceptor: Adapter { _, _, completion in completion(.failure(Refused())) })
        let error = try error(route("/get"), with: provider)
        guard case .underlying(let cause, nil) = error else { return XCTFail("got \(error)") }
        XCTAssertTrue(cause is Refused)
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    func testStubsNeverSeeTheInterceptor() throws {
        struct Refused: Error {}
        let provider = MoyaProvider<Route>(
            stubClosure: MoyaProvider.immediatelyStub,
            interceptor: Adapter { _, _, completion in completion(.failure(Refused())) })
        XCTAssertEqual(try response(route("/get"), with: provider).data.text, #"{"stubbed":true}"#)
    }

    func testCancellingDuringTheWaitEndsTheRequest() throws {
        let provider = MoyaProvider<Route>(interceptor: RetryPolicy(retryLimit: 1, exponentialBackoffScale: 60))
        let done = expectation(description: "completion")
        let box = ResultBox()
        let token = provider.request(route("/flaky/i", ["failures": "1"])) { result in
            box.set(result)
            done.fulfill()
        }
        waitForRequests(1)
        XCTAssertTrue(waitUntil { !self.server.receivedRequests.isEmpty })
        token.cancel()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(box.result?.error?.transportError?.kind, .cancelled)
        XCTAssertEqual(server.receivedRequests.count, 1)
    }

    func testAnInterceptorCallingItsCompletionTwiceSendsOnce() throws {
        let twice = Interceptor(
            adapter: Adapter { request, _, completion in
                completion(.success(request))
                completion(.success(request))
            },
            retrier: Retrier { _, _, _, completion in
                completion(.retryWithDelay(0.01))
                completion(.retryWithDelay(0.01))
            })
        let provider = MoyaProvider<Route>(interceptor: Interceptor(interceptors: [twice]))
        XCTAssertEqual(try response(route("/flaky/l", ["failures": "1"]), with: provider).statusCode, 200)
        XCTAssertTrue(waitUntil(seconds: 0.5) { self.server.receivedRequests.count > 2 } == false)
        XCTAssertEqual(server.receivedRequests.count, 2)
    }

    func testTheFirstRetrierThatDecidesWins() {
        let never = Retrier { _, _, _, completion in completion(.doNotRetry) }
        let soon = Retrier { _, _, _, completion in completion(.retryWithDelay(2)) }
        let later = Retrier { _, _, _, completion in completion(.retryWithDelay(9)) }
        let request = InterceptedRequest(
            id: InterceptedRequest.makeID(), target: route("/get"), request: URLRequest(url: server.baseURL),
            result: .failure(.statusCode(Response(statusCode: 503, data: Data()))), retryCount: 0)
        let decided = Decided()
        Interceptor(retriers: [never, soon, later]).retry(request, for: .default, dueTo: MoyaError.requestMapping("")) {
            result in decided.set(result)
        }
        XCTAssertEqual(decided.result?.delay, 2)
    }
}

/// Counts from 1.
final class AttemptCounter: Sendable {
    private let value = Atomic<Int>(0)
    func next() -> Int { value.add(1, ordering: .relaxed).newValue }
}

/// A retrier's decision, kept.
private final class Decided: Sendable {
    private let stored = Mutex<RetryResult?>(nil)
    func set(_ result: RetryResult) { stored.withLock { $0 = result } }
    var result: RetryResult? { stored.withLock { $0 } }
}
