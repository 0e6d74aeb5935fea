import CurlTransport
import MoyaKit
import Synchronization
import TargetSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sending one request, as a state machine: each answer goes to `step(after:)`, which says
/// whether to send again (a retry after a wait, or once with a new token after a 401) or stop.
/// `call` drives it on a latch, `check` from callbacks and `serve`'s proxy from its own: they
/// wait (and say so, and can be interrupted) and rebuild what shows the request, but the decision
/// is MoyaKit's interceptors', asked here: the run's `RetryPolicy`, and an
/// `AuthenticationInterceptor` over the run's token source (`AccessTokenAuthenticator`).
package struct SendingState: Sendable {
    /// What to do after an answer.
    package enum Step: Sendable {
        /// The answer is the result.
        case finish
        /// Send `target` again after `delay` seconds (`retries` counts this retry).
        case retry(after: Double)
        /// Send `target`, now with a new token, at once (the one refused with 401 is replaced).
        case renewed
        /// The token was refused with 401 and no new one could be obtained: this is the result.
        case renewalFailed(AccessTokenRenewalError)
    }

    /// The target to send: the one given, or it with a new token.
    package private(set) var target: DynamicTarget
    /// Retries made so far (a renewed token is not a retry).
    package private(set) var retries = 0
    /// Requests answered so far.
    package private(set) var attempts = 0
    /// Whether `target` holds a token obtained after a 401.
    package private(set) var hasRenewedToken = false
    private let retry: RetryPolicy
    /// Renews the token after a 401; `nil` when the request has none to renew.
    private let authentication: AuthenticationInterceptor<AccessTokenAuthenticator>?
    /// The request's identity for the interceptors, the same over its attempts.
    private let id = InterceptedRequest.makeID()

    /// Starts sending `target`; a 401 is answered with a new token from `accessTokens` once.
    package init(target: DynamicTarget, retry: RetryPolicy, accessTokens: (any AccessTokenSource)?) {
        self.target = target
        // A body streamed from a pipe is gone once sent: sending it again would send only its
        // rest, so such a request is never retried nor sent again with a new token.
        let sendsStream = !target.streamedFilePaths.isEmpty
        self.retry = sendsStream ? .none : retry
        if !sendsStream, let accessTokens, let request = target.accessTokenRequest, let token = target.credential {
            authentication = AuthenticationInterceptor(
                authenticator: AccessTokenAuthenticator(source: accessTokens, request: request),
                credential: AccessTokenAuthenticator.Credential(token: token))
        } else {
            authentication = nil
        }
    }

    /// Records `result` and says what to do next.
    package mutating func step(after result: Result<Response, MoyaError>) -> Step {
        attempts += 1
        let request = InterceptedRequest(
            id: id, target: target, request: Self.request(of: result, target: target), result: result,
            retryCount: retries)
        // The interceptor renews a request's token once; a second 401 is the answer.
        if let authentication, let error = InterceptedRequest.failure(of: result) {
            switch Self.answerAtOnce({ authentication.retry(request, for: .default, dueTo: error, completion: $0) }) {
            case .retry, .retryWithDelay:
                if let token = authentication.credential?.token {
                    target.credential = token
                    target.secretValues.append(token)
                    hasRenewedToken = true
                    return .renewed
                }
            case .doNotRetryWithError(let error):
                return .renewalFailed(AccessTokenRenewalError(error))
            case .doNotRetry, nil:
                break
            }
        }
        guard let delay = retry.retryDelay(after: result, retryCount: retries, method: target.method) else {
            return .finish
        }
        retries += 1
        return .retry(after: delay)
    }

    /// Whether an answer with `head` will be sent again (renewed or retried), so its body is not
    /// the result's (a streamed body is not written out).
    package func willSendAgain(after head: HTTPResponseHead) -> Bool {
        let answer = Response(statusCode: head.statusCode, data: Data(), response: head)
        if let authentication, !hasRenewedToken, let error = InterceptedRequest.failure(of: .success(answer)),
            authentication.authenticator.didRequest(
                Self.request(of: .success(answer), target: target), with: head, failDueToAuthenticationError: error)
        {
            return true
        }
        return retry.retryDelay(after: .success(answer), retryCount: retries, method: target.method) != nil
    }

    /// The most retries, as the "retrying" note counts them.
    package var mostRetries: Int { retry.mostRetries }

    /// The status of an answer, whether it passed validation or not.
    package static func statusCode(of result: Result<Response, MoyaError>) -> Int? {
        switch result {
        case .success(let response): response.statusCode
        case .failure(let error): error.response?.statusCode
        }
    }

    /// The request an answer was to, as well as it is known.
    static func request(of result: Result<Response, MoyaError>, target: DynamicTarget) -> URLRequest {
        let response: Response?
        switch result {
        case .success(let answered): response = answered
        case .failure(let error): response = error.response
        }
        if let request = response?.request { return request }
        return (try? target.endpoint.urlRequest()) ?? URLRequest(url: target.baseURL)
    }

    /// The decision of an interceptor that answers before it returns, as the CLI's do (its
    /// `RetryPolicy` and `AccessTokenAuthenticator` run synchronously); `nil` if it did not.
    static func answerAtOnce(_ ask: (@escaping @Sendable (RetryResult) -> Void) -> Void) -> RetryResult? {
        let answer = Answer()
        ask { answer.set($0) }
        return answer.value
    }
}

/// What an interceptor answered, set once from its completion.
private final class Answer: Sendable {
    private let state = Mutex<RetryResult?>(nil)

    var value: RetryResult? { state.withLock { $0 } }

    func set(_ result: RetryResult) { state.withLock { $0 = result } }
}
