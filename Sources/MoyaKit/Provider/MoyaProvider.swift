import CurlTransport
import Dispatch

/// Called with the result of a request.
public typealias Completion = @Sendable (_ result: Result<Response, MoyaError>) -> Void

/// Called as a request progresses.
public typealias ProgressBlock = @Sendable (_ progress: ProgressResponse) -> Void

/// Sends the requests of one target type; every request goes through a provider.
///
/// The pipeline, in order: `endpointClosure` → `requestClosure` → `plugins.prepare` → `plugins.adapt` →
/// `interceptor.adapt` → `plugins.willSend` → stub or network → validation → `plugins.didReceive` →
/// (`interceptor.retry`: after a wait, back to `plugins.prepare`) → `plugins.process` → completion.
public final class MoyaProvider<Target: TargetType>: Sendable {
    /// Maps a target to an endpoint.
    public typealias EndpointClosure = @Sendable (Target) -> Endpoint
    /// Receives the request to send, or why there is none.
    public typealias RequestResultClosure = @Sendable (Result<URLRequest, MoyaError>) -> Void
    /// Turns an endpoint into a request, possibly asynchronously (to sign it, say).
    public typealias RequestClosure = @Sendable (Endpoint, @escaping RequestResultClosure) -> Void
    /// Decides whether and how a target is stubbed.
    public typealias StubClosure = @Sendable (Target) -> StubBehavior

    /// Maps a target to an endpoint.
    public let endpointClosure: EndpointClosure
    /// Turns an endpoint into a request.
    public let requestClosure: RequestClosure
    /// Decides whether and how a target is stubbed.
    public let stubClosure: StubClosure
    /// Sends the requests that are not stubbed.
    public let session: Session
    /// Plugins, called in order.
    public let plugins: [any PluginType]
    /// Adapts each request before every time it is sent and decides whether a failed one is sent
    /// again (what Alamofire's `Session(interceptor:)` gives a Moya provider): a `RetryPolicy`, an
    /// `AuthenticationInterceptor`, or several in an `Interceptor`. Stubbed requests never see it.
    ///
    /// The provider runs the loop: it adapts, sends, asks `retry` after each failed answer (see
    /// `InterceptedRequest`), waits the delay asked (cancelling the request cancels the wait), and
    /// sends again, until the retrier says no. Each attempt is made afresh from the request
    /// closure's request: the plugins' `prepare` and `adapt` (a signature, a request id), the
    /// interceptor's `adapt`, `willSend`; `didReceive` hears each attempt's answer, `process` and
    /// the completion the last one only. A request whose body is streamed from a pipe
    /// (`URLRequest.streamedFilePaths`) is never sent again; with a response body streamed to a
    /// consumer (`ResponseBodyHandling.stream`), the consumer gets each attempt's answer.
    /// A request may bring an interceptor of its own (`request(_:…interceptor:completion:)`),
    /// which comes after this one.
    public let interceptor: (any RequestInterceptor)?
    /// Whether identical requests in flight (as sent, after the plugins) share one exchange and one result.
    public let trackInflights: Bool
    /// Where completions run when a request names no queue; `nil` runs them on the thread that
    /// finished the exchange (MoyaKit assumes no main run loop). With a queue, a network
    /// response is also assembled, validated and handed to the plugins' `didReceive` there (as
    /// Moya does on its callback queue), not on the thread that drives every transfer.
    public let callbackQueue: DispatchQueue?

    /// The exchanges in flight, with `trackInflights` only: without, no registry is made, so a
    /// call never instantiates the registry's dictionary type (whose `Hashable` key, looked up
    /// at run time, cost a stubbed call 7% of its instructions).
    let inflights: InflightRegistry?

    /// Creates a provider.
    public init(
        endpointClosure: @escaping EndpointClosure = MoyaProvider.defaultEndpointMapping,
        requestClosure: @escaping RequestClosure = MoyaProvider.defaultRequestMapping,
        stubClosure: @escaping StubClosure = MoyaProvider.neverStub,
        callbackQueue: DispatchQueue? = nil,
        session: Session = .default,
        interceptor: (any RequestInterceptor)? = nil,
        plugins: [any PluginType] = [],
        trackInflights: Bool = false
    ) {
        self.interceptor = interceptor
        self.endpointClosure = endpointClosure
        self.requestClosure = requestClosure
        self.stubClosure = stubClosure
        self.callbackQueue = callbackQueue
        self.session = session
        self.plugins = plugins
        self.trackInflights = trackInflights
        inflights = trackInflights ? InflightRegistry() : nil
    }

    /// The endpoint of `target`, from `endpointClosure`.
    public func endpoint(_ target: Target) -> Endpoint {
        endpointClosure(target)
    }

    /// The endpoints in flight (with `trackInflights`) and how many callers wait on each. A caller
    /// counts once its request is made (request closure, then plugins): callers share an exchange
    /// only when that request — method, URL, every header, body — is the same.
    public var inflightRequests: [Endpoint: Int] {
        inflights?.snapshot ?? [:]
    }

    /// Sends `target` and calls `completion` with the result.
    ///
    /// - Parameters:
    ///   - callbackQueue: Where `progress` and `completion` run; defaults to the provider's.
    ///   - progress: Called as bytes are transferred, and once more with the response.
    ///   - interceptor: This request's own interceptor, after the provider's (Alamofire's per-request
    ///     interceptor); with `trackInflights`, that of the caller who started the shared exchange.
    /// - Returns: A token whose `cancel()` cancels this request (for this caller only, when
    ///   `trackInflights` shares it with others); the completion then gets a `MoyaError.underlying`
    ///   holding `TransportError(kind: .cancelled)`.
    @discardableResult
    public func request(
        _ target: Target, callbackQueue: DispatchQueue? = nil, progress: ProgressBlock? = nil,
        interceptor: (any RequestInterceptor)? = nil, completion: @escaping Completion
    ) -> any Cancellable {
        requestNormal(
            target, callbackQueue: callbackQueue ?? self.callbackQueue, progress: progress, body: .collectAll,
            interceptor: interceptor, completion: completion)
    }

    /// Sends `target`, its response body handled as `body` says: kept up to a limit, dropped, or
    /// streamed to a consumer as it arrives (a stub's sample body too), so a body of any size
    /// needs no more memory than a piece of it.
    ///
    /// A streamed request never shares an exchange with others (`trackInflights`): its body has
    /// one reader.
    /// `interceptor`: this request's own, after the provider's.
    @discardableResult
    public func request(
        _ target: Target, body: ResponseBodyHandling, callbackQueue: DispatchQueue? = nil,
        progress: ProgressBlock? = nil, interceptor: (any RequestInterceptor)? = nil,
        completion: @escaping Completion
    ) -> any Cancellable {
        requestNormal(
            target, callbackQueue: callbackQueue ?? self.callbackQueue, progress: progress, body: body,
            interceptor: interceptor, completion: completion)
    }
}
