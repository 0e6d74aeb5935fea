import MoyaKit
import Paging

/// `--retry N`: which failures are worth sending again and after how long. Shared by `call` and `check`.
///
/// Timeouts, failed connections, 408, 429 and 5xx (500, 502, 503, 504) are retried with
/// exponential backoff (0.5 s, 1 s, 2 s... at most 30 s), or after `Retry-After` seconds when the
/// server says so (at most 120 s). Only idempotent methods, unless `--retry-all`.
struct RetryPolicy: Sendable {
    /// `--retry-all`: also retry POST and PATCH.
    var retriesAllMethods: Bool

    static let idempotentMethods: Set<String> = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]

    /// How long to wait before attempt `attempt + 1`, or `nil` when `result` is not worth retrying.
    func delay(after result: Result<Response, MoyaError>, attempt: Int, method: String) -> Double? {
        guard retriesAllMethods || Self.idempotentMethods.contains(method) else { return nil }
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

    static func retryableStatus(_ status: Int) -> Bool {
        [408, 429, 500, 502, 503, 504].contains(status)
    }

    /// `Retry-After` in seconds or as an HTTP date (capped at 120 s).
    static func retryAfter(_ response: Response) -> Double? {
        guard let value = response.response?.headers[.retryAfter], let seconds = RetryAfter.seconds(value) else {
            return nil
        }
        return min(seconds, 120)
    }

    /// The wait a rate-limited answer asks for: 429 or 503 with `Retry-After` (capped at 120 s);
    /// `nil` for any other result.
    static func rateLimitDelay(after result: Result<Response, MoyaError>) -> Double? {
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
