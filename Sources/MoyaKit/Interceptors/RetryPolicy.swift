import CurlTransport

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which failed requests are sent again, and after how long (Alamofire's `RetryPolicy`): the rule
/// moya-cli's `--retry` and `--retry-all` are, given to a provider as its interceptor.
///
/// A request is retried, up to `retryLimit` times, when its method is in `retryableHTTPMethods`
/// (or `retriesAllMethods`) and it failed with a status in `retryableHTTPStatusCodes` (408, 429,
/// 500, 502, 503, 504) or a transport error in `retryableURLErrorCodes` (a timeout, a failed
/// connection or name lookup, a lost connection). It waits `exponentialBackoffScale ×
/// exponentialBackoffBase^retryCount` seconds (0.5 s, 1 s, 2 s…), at most `maximumBackoff` (30 s),
/// or, when the answer carries `Retry-After` (seconds or an HTTP date), what it asks, at most
/// `maximumRetryAfter` (120 s). Beyond `retryLimit`, a rate-limited answer (429 or 503 with
/// `Retry-After`) is retried up to `rateLimitRetries` times, whatever the method.
///
/// ```swift
/// let provider = MoyaProvider<GitHub>(interceptor: RetryPolicy(retryLimit: 3))
/// ```
public struct RetryPolicy: RequestInterceptor {
    /// How many times a request is retried by default.
    public static let defaultRetryLimit = 2
    /// The base of the exponential backoff.
    public static let defaultExponentialBackoffBase = 2
    /// The scale of the exponential backoff, in seconds.
    public static let defaultExponentialBackoffScale: TimeInterval = 0.5
    /// The longest backoff, in seconds.
    public static let defaultMaximumBackoff: TimeInterval = 30
    /// The longest wait a `Retry-After` may ask, in seconds.
    public static let maximumRetryAfter: TimeInterval = 120
    /// The idempotent methods (RFC 9110, 9.2.2), and QUERY: sending one twice does what once does.
    public static let defaultRetryableHTTPMethods: Set<Method> = [
        .delete, .get, .head, .options, .put, .trace, Method(rawValue: "QUERY")!
    ]
    /// Request timeout, too many requests, and the server errors that may pass.
    public static let defaultRetryableHTTPStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// The transport failures that may pass: a timeout, a failed name lookup or connection, a
    /// connection lost.
    public static let defaultRetryableURLErrorCodes: Set<TransportError.Kind> = [
        .timedOut, .cannotConnect, .connectionLost, .cannotResolveHost
    ]

    /// How many times a request is retried (`--retry`).
    public var retryLimit: Int
    /// The base of the exponential backoff.
    public var exponentialBackoffBase: Int
    /// The scale of the exponential backoff, in seconds.
    public var exponentialBackoffScale: TimeInterval
    /// The longest backoff, in seconds.
    public var maximumBackoff: TimeInterval
    /// The methods whose requests are retried.
    public var retryableHTTPMethods: Set<Method>
    /// Whether requests of every method are retried, a POST too (`--retry-all`).
    public var retriesAllMethods: Bool
    /// The statuses retried.
    public var retryableHTTPStatusCodes: Set<Int>
    /// The transport failures retried (Alamofire's name; MoyaKit's transport reports
    /// `TransportError.Kind`, not `URLError.Code`).
    public var retryableURLErrorCodes: Set<TransportError.Kind>
    /// How often a rate-limited answer (429 or 503 with `Retry-After`) is retried even beyond
    /// `retryLimit`, whatever the method: a pager waits as the server asks rather than losing the
    /// pages after it.
    public var rateLimitRetries: Int

    /// Creates a policy; by default, Alamofire's: two retries of idempotent requests.
    public init(
        retryLimit: Int = RetryPolicy.defaultRetryLimit,
        exponentialBackoffBase: Int = RetryPolicy.defaultExponentialBackoffBase,
        exponentialBackoffScale: TimeInterval = RetryPolicy.defaultExponentialBackoffScale,
        maximumBackoff: TimeInterval = RetryPolicy.defaultMaximumBackoff,
        retryableHTTPMethods: Set<Method> = RetryPolicy.defaultRetryableHTTPMethods,
        retriesAllMethods: Bool = false,
        retryableHTTPStatusCodes: Set<Int> = RetryPolicy.defaultRetryableHTTPStatusCodes,
        retryableURLErrorCodes: Set<TransportError.Kind> = RetryPolicy.defaultRetryableURLErrorCodes,
        rateLimitRetries: Int = 0
    ) {
        self.retryLimit = retryLimit
        self.exponentialBackoffBase = exponentialBackoffBase
        self.exponentialBackoffScale = exponentialBackoffScale
        self.maximumBackoff = maximumBackoff
        self.retryableHTTPMethods = retryableHTTPMethods
        self.retriesAllMethods = retriesAllMethods
        self.retryableHTTPStatusCodes = retryableHTTPStatusCodes
        self.retryableURLErrorCodes = retryableURLErrorCodes
        self.rateLimitRetries = rateLimitRetries
    }

    /// The most retries a request may get (`retryLimit` or `rateLimitRetries`).
    public var mostRetries: Int { max(retryLimit, rateLimitRetries) }

    public func retry(
        _ request: InterceptedRequest, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        let method = request.request.httpMethod.flatMap { Method(rawValue: $0) } ?? request.target.method
        guard let delay = retryDelay(after: request.result, retryCount: request.retryCount, method: method) else {
            return completion(.doNotRetry)
        }
        completion(.retryWithDelay(delay))
    }

    /// How long to wait before retry `retryCount + 1` of a `method` request answered `result`, or
    /// `nil` when it is not retried: the decision `retry(_:for:dueTo:completion:)` hands on.
    public func retryDelay(after result: Result<Response, MoyaError>, retryCount: Int, method: Method)
        -> TimeInterval?
    {
        if retryCount < retryLimit, let delay = backoffDelay(after: result, retryCount: retryCount, method: method) {
            return delay
        }
        guard retryCount < rateLimitRetries else { return nil }
        return Self.rateLimitDelay(after: result)
    }

    /// The wait before retry `retryCount + 1` when `result` is worth retrying within `retryLimit`:
    /// `Retry-After`'s, else the backoff; `nil` when it is not.
    public func backoffDelay(after result: Result<Response, MoyaError>, retryCount: Int, method: Method)
        -> TimeInterval?
    {
        guard retriesAllMethods || retryableHTTPMethods.contains(method) else { return nil }
        var factor = 1.0
        for _ in 0..<min(retryCount, 64) { factor *= Double(exponentialBackoffBase) }
        let backoff = min(maximumBackoff, exponentialBackoffScale * factor)
        switch result {
        case .success(let response):
            return retryableHTTPStatusCodes.contains(response.statusCode) ? Self.retryAfter(response) ?? backoff : nil
        case .failure(let error):
            if let response = error.response, case .statusCode = error {
                return retryableHTTPStatusCodes.contains(response.statusCode)
                    ? Self.retryAfter(response) ?? backoff : nil
            }
            guard let transport = error.transportError else { return nil }
            return retryableURLErrorCodes.contains(transport.kind) ? backoff : nil
        }
    }

    /// `Retry-After` in seconds, from a number or an HTTP date, at most `maximumRetryAfter`.
    public static func retryAfter(_ response: Response) -> TimeInterval? {
        guard let value = response.response?.headers[.retryAfter], let seconds = RetryAfter.seconds(value) else {
            return nil
        }
        return min(seconds, maximumRetryAfter)
    }

    /// The wait a rate-limited answer asks for: 429 or 503 with `Retry-After` (at most
    /// `maximumRetryAfter`); `nil` for any other result.
    public static func rateLimitDelay(after result: Result<Response, MoyaError>) -> TimeInterval? {
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

/// Retries only requests whose connection was lost (Alamofire's `ConnectionLostRetryPolicy`): a
/// `RetryPolicy` with no status and one transport failure, `.connectionLost`.
public struct ConnectionLostRetryPolicy: RequestInterceptor {
    /// The policy it applies.
    public let policy: RetryPolicy

    /// Creates the policy.
    public init(
        retryLimit: Int = RetryPolicy.defaultRetryLimit,
        exponentialBackoffBase: Int = RetryPolicy.defaultExponentialBackoffBase,
        exponentialBackoffScale: TimeInterval = RetryPolicy.defaultExponentialBackoffScale,
        retryableHTTPMethods: Set<Method> = RetryPolicy.defaultRetryableHTTPMethods
    ) {
        policy = RetryPolicy(
            retryLimit: retryLimit, exponentialBackoffBase: exponentialBackoffBase,
            exponentialBackoffScale: exponentialBackoffScale, retryableHTTPMethods: retryableHTTPMethods,
            retryableHTTPStatusCodes: [], retryableURLErrorCodes: [.connectionLost])
    }

    public func retry(
        _ request: InterceptedRequest, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        policy.retry(request, for: session, dueTo: error, completion: completion)
    }
}
