import MoyaKit
import Paging
import TargetModel

/// `--retry N`: which failures are worth sending again and after how long, for every request
/// (`call`, `check`, `call --all`'s pages).
///
/// Timeouts, failed connections, 408, 429 and 5xx (500, 502, 503, 504) are retried with
/// exponential backoff (0.5 s, 1 s, 2 s... at most 30 s), or after `Retry-After` seconds when the
/// server says so (at most 120 s). Only idempotent methods, unless `--retry-all`. Beyond `--retry`,
/// a rate-limited answer (429 or 503 with `Retry-After`) is retried up to `rateLimitRetries` times.
package struct RetryPolicy: Sendable {
    /// `--retry`: how many times a failed request is sent again.
    package var maximumRetries: Int
    /// `--retry-all`: also retry POST and PATCH.
    package var retriesAllMethods: Bool
    /// How often a rate-limited answer is retried even beyond `maximumRetries`: paging waits as the
    /// server asks rather than losing the pages after it.
    package var rateLimitRetries: Int

    /// Never retries (a stubbed request).
    package static let none = RetryPolicy(maximumRetries: 0)

    /// Creates a policy.
    package init(maximumRetries: Int, retriesAllMethods: Bool = false, rateLimitRetries: Int = 0) {
        self.maximumRetries = maximumRetries
        self.retriesAllMethods = retriesAllMethods
        self.rateLimitRetries = rateLimitRetries
    }

    /// The most retries a request may get, as the "retrying" note counts them.
    package var mostRetries: Int { max(maximumRetries, rateLimitRetries) }

    /// How long to wait before retry `retries + 1` of a `method` request after `result`, or `nil`
    /// when it is not retried.
    package func delay(after result: Result<Response, MoyaError>, retries: Int, method: String) -> Double? {
        if retries < maximumRetries, let delay = backoffDelay(after: result, attempt: retries, method: method) {
            return delay
        }
        guard retries < rateLimitRetries else { return nil }
        return Self.rateLimitDelay(after: result)
    }

    /// How long to wait before attempt `attempt + 1`, or `nil` when `result` is not worth retrying.
    package func backoffDelay(after result: Result<Response, MoyaError>, attempt: Int, method: String) -> Double? {
        guard retriesAllMethods || MethodSemantics.isIdempotent(method) else { return nil }
        let backoff = min(30, 0.5 * Double(1 << min(attempt, 10)))
        switch result {
        case .success(let response):
            return Self.retryableStatus(response.statusCode) ? Self.retryAfter(response) ?? backoff : nil
        case .failure(let error):
            if let response = error.response, case .statusCode = error {
                return Self.retryableStatus(response.statusCode) ? Self.retryAfter(response) ?? backoff : nil
            }
            guard let transport = error.transportError else { return nil }
            switch transport.kind {
            case .timedOut, .cannotConnect, .connectionLost, .cannotResolveHost: return backoff
            default: return nil
            }
        }
    }

    package static func retryableStatus(_ status: Int) -> Bool {
        [408, 429, 500, 502, 503, 504].contains(status)
    }

    /// `Retry-After` in seconds or as an HTTP date (capped at 120 s).
    package static func retryAfter(_ response: Response) -> Double? {
        guard let value = response.response?.headers[.retryAfter], let seconds = RetryAfter.seconds(value) else {
            return nil
        }
        return min(seconds, 120)
    }

    /// The wait a rate-limited answer asks for: 429 or 503 with `Retry-After` (capped at 120 s);
    /// `nil` for any other result.
    package static func rateLimitDelay(after result: Result<Response, MoyaError>) -> Double? {
        let response: Response
        switch result {
        case .success(let answered): response = answered
        case .failure(let error):
            guard let answered = error.response else { return nil }
            response = answered
        }
        guard response.statusCode == 429 || response.statusCode == 503 else { return nil }
        return retryAfter(response)
    }
}
