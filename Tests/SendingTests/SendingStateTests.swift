import CurlTransport
import Foundation
import HTTPTypes
import MoyaKit
import Sending
import Synchronization
import TargetModel
import TargetSpec
import XCTest

/// The sender's decisions without a server: what `SendingState` says after each answer (retry,
/// renew once, give up), and the target of page N for every auth placement.
final class SendingStateTests: XCTestCase {
    /// Hands out `token-N`, counting; or fails every time.
    final class Tokens: AccessTokenSource {
        let asked = Atomic<Int>(0)
        let fails: Bool

        init(fails: Bool = false) {
            self.fails = fails
        }

        func accessToken(for request: AccessTokenRequest, replacing rejected: String?) throws(AccessTokenError)
            -> String
        {
            let count = asked.wrappingAdd(1, ordering: .relaxed).newValue
            if fails && rejected != nil { throw AccessTokenError(.command, "the token command exited with 1") }
            return "token-\(count)"
        }
    }

    func api(_ auth: String, method: String = "GET", file: String = "sent.yaml") throws -> APISpec {
        let yaml = """
            api: sent
            baseURL: https://api.example.com
            auth: \(auth)
            cases:
              items:
                method: \(method)
                values: [{limit: {type: int, default: 2}}]
                path: /items
                task: {parameters: {limit: "{limit}"}, encoding: url}
            """
        let result = TargetFileLoader.load(text: yaml, file: file)
        return try XCTUnwrap(result.api, result.diagnostics.map(\.message).joined(separator: "\n"))
    }

    func target(_ api: APISpec, tokens: (any AccessTokenSource)? = nil) throws -> DynamicTarget {
        let builder = TargetFactory(environment: ["KEY": "s3cret", "MOYA_ALLOW_ENV": "KEY"], accessTokens: tokens)
            .builder(for: api, isStubbed: false)
        return try builder.target(for: try api.case(named: "items"), arguments: ["limit": .int(2)])
    }

    func answer(_ status: Int, retryAfter: String? = nil) -> Result<Response, MoyaError> {
        var fields = HTTPFields()
        if let retryAfter { fields[.retryAfter] = retryAfter }
        let response = Response(
            statusCode: status, data: Data(), response: HTTPResponseHead(statusCode: status, headers: fields))
        return status < 400 ? .success(response) : .failure(.statusCode(response))
    }

    let command = #"{type: command, command: ["/bin/true"]}"#

    func testAnswersAreRetriedAsThePolicySaysThenFinish() throws {
        let sent = try target(try api(#"{type: bearer, token: "${KEY}"}"#))
        var state = SendingState(
            target: sent, retry: RetryPolicy(maximumRetries: 2), accessTokens: nil)
        guard case .retry(let first) = state.step(after: answer(503)) else { return XCTFail("no retry") }
        XCTAssertEqual(first, 0.5)
        guard case .retry(let second) = state.step(after: answer(429, retryAfter: "7")) else {
            return XCTFail("no retry")
        }
        XCTAssertEqual(second, 7)
        guard case .finish = state.step(after: answer(503)) else { return XCTFail("a third retry") }
        XCTAssertEqual(state.retries, 2)
        XCTAssertEqual(state.attempts, 3)
        // A 404 and a success are never retried.
        var other = SendingState(target: sent, retry: RetryPolicy(maximumRetries: 2), accessTokens: nil)
        guard case .finish = other.step(after: answer(404)) else { return XCTFail("a 404 retried") }
        guard case .finish = other.step(after: answer(200)) else { return XCTFail("a 200 retried") }
    }

    func testRateLimitedAnswersWaitBeyondTheRetriesOnlyWithRetryAfter() throws {
        let sent = try target(try api(#"{type: bearer, token: "${KEY}"}"#))
        var state = SendingState(
            target: sent, retry: RetryPolicy(maximumRetries: 0, rateLimitRetries: 1), accessTokens: nil)
        guard case .finish = state.step(after: answer(503)) else { return XCTFail("retried without Retry-After") }
        guard case .retry(let wait) = state.step(after: answer(429, retryAfter: "0")) else {
            return XCTFail("no retry")
        }
        XCTAssertEqual(wait, 0)
        guard case .finish = state.step(after: answer(429, retryAfter: "0")) else { return XCTFail("a second") }
    }

    func testAPostIsRetriedOnlyWhenAllMethodsAre() throws {
        let sent = try target(try api(#"{type: bearer, token: "${KEY}"}"#, method: "POST"))
        var state = SendingState(target: sent, retry: RetryPolicy(maximumRetries: 3), accessTokens: nil)
        guard case .finish = state.step(after: answer(503)) else { return XCTFail("a POST retried") }
        var all = SendingState(
            target: sent, retry: RetryPolicy(maximumRetries: 3, retriesAllMethods: true), accessTokens: nil)
        guard case .retry = all.step(after: answer(503)) else { return XCTFail("--retry-all not retried") }
    }

    func testARefusedTokenIsRenewedOnceAndTheRenewalIsNoRetry() throws {
        let tokens = Tokens()
        let sent = try target(try api(command), tokens: tokens)
        XCTAssertEqual(sent.credential, "token-1")
        var state = SendingState(target: sent, retry: RetryPolicy(maximumRetries: 1), accessTokens: tokens)
        guard case .renewed = state.step(after: answer(401)) else { return XCTFail("not renewed") }
        XCTAssertEqual(state.target.credential, "token-2")
        XCTAssertTrue(state.target.secretValues.contains("token-2"))
        XCTAssertTrue(state.hasRenewedToken)
        XCTAssertEqual(state.retries, 0)
        // A second 401 is the answer.
        guard case .finish = state.step(after: answer(401)) else { return XCTFail("renewed twice") }
        XCTAssertEqual(tokens.asked.load(ordering: .relaxed), 2)
        XCTAssertEqual(state.attempts, 2)
    }

    func testAWillSendAgainAnswerIsKeptFromTheOutput() throws {
        let tokens = Tokens()
        let sent = try target(try api(command), tokens: tokens)
        var state = SendingState(target: sent, retry: RetryPolicy(maximumRetries: 1), accessTokens: tokens)
        XCTAssertTrue(state.willSendAgain(after: HTTPResponseHead(statusCode: 401)))
        XCTAssertTrue(state.willSendAgain(after: HTTPResponseHead(statusCode: 503)))
        XCTAssertFalse(state.willSendAgain(after: HTTPResponseHead(statusCode: 404)))
        _ = state.step(after: answer(401))
        XCTAssertFalse(state.willSendAgain(after: HTTPResponseHead(statusCode: 401)))
    }

    func testNoNewTokenIsTheResultWithTheSentence() throws {
        let tokens = Tokens(fails: true)
        let sent = try target(try api(command), tokens: tokens)
        var state = SendingState(target: sent, retry: RetryPolicy(maximumRetries: 3), accessTokens: tokens)
        guard case .renewalFailed(let error) = state.step(after: answer(401)) else { return XCTFail("no failure") }
        XCTAssertEqual(
            error.description,
            "the API refused the token with HTTP 401, and no new one could be obtained: the token command exited with 1"
        )
        // Without a source (a stub, a check configured without one), a 401 is just the answer.
        var unsourced = SendingState(target: sent, retry: .none, accessTokens: nil)
        guard case .finish = unsourced.step(after: answer(401)) else { return XCTFail("renewed without a source") }
    }

    func testPageNKeepsEveryAuthPlacementAndDropsTheFirstPagesQuery() throws {
        let next = "https://api.example.com/items?page=2"
        let query = try target(try api(#"{type: apiKey, in: query, name: api_key, key: "${KEY}"}"#)).page(at: next)
        XCTAssertEqual(try query.endpoint.urlRequest().url?.absoluteString, next + "&api_key=s3cret")
        let header = try target(try api(#"{type: apiKey, in: header, name: X-Key, key: "${KEY}"}"#)).page(at: next)
        XCTAssertEqual(try header.endpoint.urlRequest().url?.absoluteString, next)
        XCTAssertEqual(header.headers?["X-Key"], "s3cret")
        let bearer = try target(try api(#"{type: bearer, token: "${KEY}"}"#)).page(at: next)
        XCTAssertEqual(try bearer.endpoint.urlRequest().url?.absoluteString, next)
        XCTAssertEqual(bearer.credential, "s3cret")
        // A link that repeats the key does not get it twice.
        let repeated = try target(try api(#"{type: apiKey, in: query, name: api_key, key: "${KEY}"}"#))
            .page(at: next + "&api_key=s3cret")
        XCTAssertEqual(try repeated.endpoint.urlRequest().url?.absoluteString, next + "&api_key=s3cret")
    }

    func testEveryBuilderHidesWhatAnUntrustedFileMayNotRead() throws {
        // The rule is applied where the builder is made: the default sender (a check from Swift)
        // as much as the command's.
        let api = try api(#"{type: bearer, token: "${KEY}"}"#, file: "hidden.yaml")
        let builder = Sender().targets.builder(for: api, isStubbed: false)
        XCTAssertThrowsError(try builder.target(for: try api.case(named: "items"), arguments: ["limit": .int(2)]))
        // (Each file's view is worked out once a run, so another file.)
        let other = try self.api(#"{type: bearer, token: "${KEY}"}"#, file: "hidden-too.yaml")
        let told = TargetFactory(environment: ["KEY": "s3cret"]).builder(for: other, isStubbed: false)
        XCTAssertEqual(told.hiddenVariableNames, ["KEY"])
        XCTAssertNil(told.processEnvironment["KEY"])
    }
}
