import CurlTransport
import MoyaKit
import TargetSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sending one request, as a state machine: each answer goes to `step(after:)`, which says
/// whether to send again (a retry after a wait, or once with a new token after a 401) or stop.
/// `call` drives it on a latch and `check` from callbacks: the decision is made here, once.
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
    private var mayRenewToken: Bool
    private let retry: RetryPolicy
    private let accessTokens: (any AccessTokenSource)?

    /// Starts sending `target`; a 401 is answered with a new token from `accessTokens` once.
    package init(target: DynamicTarget, retry: RetryPolicy, accessTokens: (any AccessTokenSource)?) {
        self.target = target
        // A body streamed from a pipe is gone once sent: sending it again would send only its
        // rest, so such a request is never retried nor sent again with a new token.
        let sendsStream = !target.streamedFilePaths.isEmpty
        self.retry = sendsStream ? .none : retry
        self.accessTokens = accessTokens
        mayRenewToken = !sendsStream && accessTokens != nil && target.accessTokenRequest != nil
    }

    /// Records `result` and says what to do next.
    package mutating func step(after result: Result<Response, MoyaError>) -> Step {
        attempts += 1
        if mayRenewToken, let accessTokens, Self.statusCode(of: result) == 401 {
            mayRenewToken = false
            do {
                if let renewed = try Self.renewing(target, source: accessTokens) {
                    target = renewed
                    hasRenewedToken = true
                    return .renewed
                }
            } catch {
                return .renewalFailed(AccessTokenRenewalError(error))
            }
        }
        guard let delay = retry.delay(after: result, retries: retries, method: target.method.rawValue) else {
            return .finish
        }
        retries += 1
        return .retry(after: delay)
    }

    /// Whether an answer with `head` will be sent again (renewed or retried), so its body is not
    /// the result's (a streamed body is not written out).
    package func willSendAgain(after head: HTTPResponseHead) -> Bool {
        if mayRenewToken && head.statusCode == 401 { return true }
        let answer = Response(statusCode: head.statusCode, data: Data(), response: head)
        return retry.delay(after: .success(answer), retries: retries, method: target.method.rawValue) != nil
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

    /// `target` with a new token in place of the one its API refused with 401, or `nil` when it
    /// has no token to renew. Throws when no new token can be obtained.
    static func renewing(_ target: DynamicTarget, source: any AccessTokenSource) throws(AccessTokenError)
        -> DynamicTarget?
    {
        guard let request = target.accessTokenRequest, let rejected = target.credential else { return nil }
        let token = try source.accessToken(for: request, replacing: rejected)
        var renewed = target
        renewed.credential = token
        renewed.secretValues.append(token)
        return renewed
    }
}
