import CurlTransport
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request as an interceptor sees it after an answer: what Alamofire's `Request` is to its
/// `RequestRetrier`.
///
/// A provider with an interceptor (`MoyaProvider(interceptor:)`) asks it after every answer that
/// failed: a transport error, a status the target's validation refused, and any status of 400 or
/// more even when the validation accepts it (a target validated with `.none` sees a 503 as a
/// success, and a `RetryPolicy` still retries it).
public struct InterceptedRequest: Sendable {
    /// The request's identity, the same over all its retries (Alamofire's `Request.id`).
    public let id: UInt64
    /// The target sent.
    public let target: any TargetType
    /// The request as last sent: after the plugins and the interceptor's `adapt`.
    public let request: URLRequest
    /// The answer to it.
    public let result: Result<Response, MoyaError>
    /// How many times the request was sent again so far (0 after the first answer).
    public let retryCount: Int

    /// Creates the request an interceptor is asked about (a provider makes these; tests may too).
    public init(
        id: UInt64, target: any TargetType, request: URLRequest, result: Result<Response, MoyaError>, retryCount: Int
    ) {
        self.id = id
        self.target = target
        self.request = request
        self.result = result
        self.retryCount = retryCount
    }

    /// The response, whether it passed validation or not; `nil` when no answer came.
    public var response: Response? {
        switch result {
        case .success(let response): response
        case .failure(let error): error.response
        }
    }

    /// The answer's status; `nil` when no answer came.
    public var statusCode: Int? { response?.statusCode }

    /// The error a retrier is told of after `result`, or `nil` when it is not asked: the failure
    /// (not a cancellation), or `.statusCode(response)` for an answer of 400 or more that the
    /// target's validation accepted.
    public static func failure(of result: Result<Response, MoyaError>) -> MoyaError? {
        switch result {
        case .success(let response): response.statusCode >= 400 ? .statusCode(response) : nil
        case .failure(let error): error.transportError?.kind == .cancelled ? nil : error
        }
    }

    private static let lastID = Atomic<UInt64>(0)

    /// A new identity for a request (`id`), for one a program asks an interceptor about itself.
    public static func makeID() -> UInt64 {
        lastID.wrappingAdd(1, ordering: .relaxed).newValue
    }
}

/// What a `RequestRetrier` decided (Alamofire's `RetryResult`).
public enum RetryResult: Sendable {
    /// Send the request again at once.
    case retry
    /// Send the request again after this many seconds.
    case retryWithDelay(TimeInterval)
    /// Do not send it again: the answer is the result.
    case doNotRetry
    /// Do not send it again: the result is a failure with this error
    /// (`MoyaError.underlying(error, response)`; a `MoyaError` as it is).
    case doNotRetryWithError(any Error)

    /// Whether the request is sent again.
    public var retryRequired: Bool {
        switch self {
        case .retry, .retryWithDelay: true
        case .doNotRetry, .doNotRetryWithError: false
        }
    }

    /// The wait before the request is sent again, if any.
    public var delay: TimeInterval? {
        if case .retryWithDelay(let delay) = self { return delay }
        return nil
    }

    /// The error that ends the request, if any.
    public var error: (any Error)? {
        if case .doNotRetryWithError(let error) = self { return error }
        return nil
    }
}

/// Changes a request before each time it is sent, or fails it (Alamofire's `RequestAdapter`).
///
/// Called for every attempt, the first and each retry, after the plugins' `prepare` and `adapt`
/// (which make each attempt's request afresh) and before the plugins' `willSend`; never for a
/// stubbed request. `completion`
/// may be called at once (MoyaKit's usual, synchronous world) or later from any thread; a failure
/// ends the request with `MoyaError.underlying(error, nil)` (a `MoyaError` as it is), before anything
/// is sent.
public protocol RequestAdapter: Sendable {
    /// Hands `completion` the request to send instead of `urlRequest`, or why it cannot be sent.
    func adapt(
        _ urlRequest: URLRequest, for session: Session,
        completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void)
}

/// Decides whether a failed request is sent again (Alamofire's `RequestRetrier`).
///
/// Asked after each failed answer (see `InterceptedRequest`), never for a stubbed request, a
/// cancelled one, or one whose body was streamed from a pipe (`URLRequest.streamedFilePaths`: what
/// was read is gone). `completion` may be called at once or later from any thread.
public protocol RequestRetrier: Sendable {
    /// Hands `completion` the decision for `request`, which failed with `error` (a `MoyaError`:
    /// `.statusCode(response)` for a refused status, `.underlying(TransportError, nil)` for a
    /// transport failure).
    func retry(
        _ request: InterceptedRequest, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void)
}

/// Adapts requests and retries them (Alamofire's `RequestInterceptor`); each part has a
/// pass-through default, so a type implements only what it needs.
public protocol RequestInterceptor: RequestAdapter, RequestRetrier {}

extension RequestInterceptor {
    /// Leaves the request as it is.
    public func adapt(
        _ urlRequest: URLRequest, for session: Session,
        completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void
    ) {
        completion(.success(urlRequest))
    }

    /// Never retries.
    public func retry(
        _ request: InterceptedRequest, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        completion(.doNotRetry)
    }
}

/// Adapters and retriers composed into one interceptor (Alamofire's `Interceptor`).
///
/// The adapters run in order, each on the request the one before made; the first failure ends the
/// request. The retriers are asked in order until one says anything but `.doNotRetry`: the first
/// to retry (or to fail with an error) decides.
public final class Interceptor: RequestInterceptor {
    /// The adapters, in order.
    public let adapters: [any RequestAdapter]
    /// The retriers, in order.
    public let retriers: [any RequestRetrier]

    /// Creates an interceptor from one adapter and one retrier.
    public convenience init(adapter: any RequestAdapter, retrier: any RequestRetrier) {
        self.init(adapters: [adapter], retriers: [retrier])
    }

    /// Creates an interceptor from adapters, retriers, and interceptors (each both, after them).
    public init(
        adapters: [any RequestAdapter] = [], retriers: [any RequestRetrier] = [],
        interceptors: [any RequestInterceptor] = []
    ) {
        self.adapters = adapters + interceptors.map { $0 as any RequestAdapter }
        self.retriers = retriers + interceptors.map { $0 as any RequestRetrier }
    }

    public func adapt(
        _ urlRequest: URLRequest, for session: Session,
        completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void
    ) {
        Self.adapt(urlRequest, with: adapters[...], for: session, completion: completion)
    }

    private static func adapt(
        _ urlRequest: URLRequest, with adapters: ArraySlice<any RequestAdapter>, for session: Session,
        completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void
    ) {
        guard let adapter = adapters.first else { return completion(.success(urlRequest)) }
        let rest = adapters.dropFirst()
        adapter.adapt(urlRequest, for: session) { result in
            switch result {
            case .success(let adapted): adapt(adapted, with: rest, for: session, completion: completion)
            case .failure: completion(result)
            }
        }
    }

    public func retry(
        _ request: InterceptedRequest, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        Self.retry(request, with: retriers[...], for: session, dueTo: error, completion: completion)
    }

    private static func retry(
        _ request: InterceptedRequest, with retriers: ArraySlice<any RequestRetrier>, for session: Session,
        dueTo error: any Error, completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        guard let retrier = retriers.first else { return completion(.doNotRetry) }
        let rest = retriers.dropFirst()
        retrier.retry(request, for: session, dueTo: error) { result in
            if case .doNotRetry = result {
                retry(request, with: rest, for: session, dueTo: error, completion: completion)
            } else {
                completion(result)
            }
        }
    }
}

/// An adapter made of a closure (Alamofire's `Adapter`).
public struct Adapter: RequestInterceptor {
    /// The closure.
    public let adaptHandler:
        @Sendable (URLRequest, Session, @escaping @Sendable (Result<URLRequest, any Error>) -> Void) -> Void

    /// Creates the adapter.
    public init(
        _ adaptHandler:
            @escaping @Sendable (
                URLRequest, Session, @escaping @Sendable (Result<URLRequest, any Error>) -> Void
            ) -> Void
    ) {
        self.adaptHandler = adaptHandler
    }

    public func adapt(
        _ urlRequest: URLRequest, for session: Session,
        completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void
    ) {
        adaptHandler(urlRequest, session, completion)
    }
}

/// A retrier made of a closure (Alamofire's `Retrier`).
public struct Retrier: RequestInterceptor {
    /// The closure.
    public let retryHandler:
        @Sendable (InterceptedRequest, Session, any Error, @escaping @Sendable (RetryResult) -> Void) -> Void

    /// Creates the retrier.
    public init(
        _ retryHandler:
            @escaping @Sendable (
                InterceptedRequest, Session, any Error, @escaping @Sendable (RetryResult) -> Void
            ) -> Void
    ) {
        self.retryHandler = retryHandler
    }

    public func retry(
        _ request: InterceptedRequest, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        retryHandler(request, session, error, completion)
    }
}
