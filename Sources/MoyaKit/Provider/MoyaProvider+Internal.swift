import CurlTransport
import Dispatch
import FileIO
import Synchronization

extension MoyaProvider {
    /// Registers the caller with an exchange (shared with `trackInflights`) and starts it if new.
    func requestNormal(
        _ target: Target, callbackQueue: DispatchQueue?, progress: ProgressBlock?, body: ResponseBodyHandling,
        interceptor requestInterceptor: (any RequestInterceptor)? = nil, completion: @escaping Completion
    ) -> any Cancellable {
        // The provider's interceptor, then the request's (as Alamofire composes a session's and a request's).
        let interceptor: (any RequestInterceptor)?
        switch (self.interceptor, requestInterceptor) {
        case (let provider?, let request?): interceptor = Interceptor(interceptors: [provider, request])
        case (let provider?, nil): interceptor = provider
        case (nil, let request): interceptor = request
        }
        let endpoint = self.endpoint(target)
        let plugins = self.plugins
        let deliver: RequestExchange.Deliver = { result, runningOn in
            let work: @Sendable () -> Void = {
                let boxed: any TargetType = target
                let processed = plugins.reduce(result) { $1.process($0, target: boxed) }
                if let progress, case .success(let response) = processed {
                    progress(ProgressResponse(response: response))
                }
                completion(processed)
            }
            // Already on the caller's queue (the transport assembled the response there): at once.
            if let callbackQueue, runningOn === callbackQueue { work() } else { Self.run(on: callbackQueue, work) }
        }
        let progressHandler = Self.progressHandler(progress, callbackQueue: callbackQueue)

        guard let inflights, let sharingKey = body.sharingKey else {
            let exchange = RequestExchange(firstProgress: progressHandler, firstDeliver: deliver, onEnd: { _ in })
            let token = CallerToken(exchange: exchange, id: 0)
            requestClosure(endpoint) { [self] requestResult in
                if exchange.isCancelled {
                    finish(exchange, with: .failure(.cancellation), target: target)
                    return
                }
                switch requestResult {
                case .failure(let error):
                    // As in Moya, no plugin saw a request, so none hears of its failure but `process`.
                    exchange.finish(.failure(error))
                case .success(let request):
                    switch Self.prepared(request, plugins: plugins, target: target) {
                    case .failure(let error):
                        exchange.finish(.failure(error))
                    case .success(let prepared):
                        send(
                            prepared, original: request, exchange: exchange, target: target, endpoint: endpoint,
                            body: body, callbackQueue: callbackQueue, interceptor: interceptor)
                    }
                }
            }
            return token
        }
        // Coalesced on the request as it goes out: callers join only when every header the
        // plugins added (a credential, say) and the body are the same.
        let caller = PendingCaller()
        requestClosure(endpoint) { [self] requestResult in
            switch requestResult {
            case .failure(let error):
                caller.failed { cancelled in deliver(.failure(cancelled ? .cancellation : error), nil) }
            case .success where caller.isCancelled:
                // Cancelled before it had a request: it never starts or joins an exchange.
                caller.failed { _ in deliver(.failure(.cancellation), nil) }
            case .success(let request):
                let prepared: URLRequest
                switch Self.prepared(request, plugins: plugins, target: target) {
                case .failure(let error):
                    caller.failed { cancelled in deliver(.failure(cancelled ? .cancellation : error), nil) }
                    return
                case .success(let request):
                    prepared = request
                }
                let identity = InflightKey(endpoint: endpoint, request: prepared, bodyHandling: sharingKey)
                let joined = inflights.join(identity, progress: progressHandler, deliver: deliver) {
                    RequestExchange(firstProgress: progressHandler, firstDeliver: deliver) { exchange in
                        inflights.remove(exchange, for: identity)
                    }
                }
                if joined.isNew {
                    send(
                        prepared, original: request, exchange: joined.exchange, target: target, endpoint: endpoint,
                        body: body, callbackQueue: callbackQueue, interceptor: interceptor)
                }
                caller.joined(CallerToken(exchange: joined.exchange, id: joined.callerID))
            }
        }
        return caller
    }

    /// The request after every plugin's `prepare`, then every plugin's `adapt`; the first failure.
    static func prepared(_ request: URLRequest, plugins: [any PluginType], target: Target) -> Result<
        URLRequest, MoyaError
    > {
        // The target as the plugins take it, made once: passed as `target`, it was copied into a
        // new existential box for each call of each plugin (eighteen a request, and as many more
        // for `willSend`, `didReceive` and `process`), a tenth of a live sweep's check.
        let boxed: any TargetType = target
        var prepared = plugins.reduce(request) { $1.prepare($0, target: boxed) }
        for plugin in plugins {
            switch plugin.adapt(prepared, target: boxed) {
            case .success(let adapted): prepared = adapted
            case .failure(let error): return .failure(error)
            }
        }
        return .success(prepared)
    }

    /// The request the plugins have prepared, sent: once, or through the interceptor's loop
    /// (adapt, send, retry) when there is one and the request is not stubbed.
    private func send(
        _ prepared: URLRequest, original: URLRequest, exchange: RequestExchange, target: Target, endpoint: Endpoint,
        body: ResponseBodyHandling, callbackQueue: DispatchQueue?, interceptor: (any RequestInterceptor)?
    ) {
        let stub = stubClosure(target)
        guard let interceptor, case .never = stub else {
            sendOnce(
                prepared, stub: stub, exchange: exchange, target: target, endpoint: endpoint, body: body,
                callbackQueue: callbackQueue
            ) { result, queue in
                self.finish(exchange, with: result, target: target, on: queue)
            }
            return
        }
        let attempt = Attempt(
            original: original, id: InterceptedRequest.makeID(), retryCount: 0, interceptor: interceptor,
            exchange: exchange, target: target, endpoint: endpoint, body: body, callbackQueue: callbackQueue)
        send(attempt, prepared: prepared)
    }

    /// One attempt of a request under the interceptor, and what it needs to make the next.
    struct Attempt: Sendable {
        /// The request as the request closure made it, before the plugins.
        let original: URLRequest
        let id: UInt64
        let retryCount: Int
        let interceptor: any RequestInterceptor
        let exchange: RequestExchange
        let target: Target
        let endpoint: Endpoint
        let body: ResponseBodyHandling
        let callbackQueue: DispatchQueue?

        /// The attempt after this one.
        var next: Attempt {
            Attempt(
                original: original, id: id, retryCount: retryCount + 1, interceptor: interceptor, exchange: exchange,
                target: target, endpoint: endpoint, body: body, callbackQueue: callbackQueue)
        }
    }

    /// (plugins' `prepare` and `adapt` again for a retry) → interceptor's `adapt` → willSend →
    /// network, then `ended`. A failure before anything is sent ends the request; the plugins hear
    /// of it only in `process`, as none saw this attempt go out.
    private func send(_ attempt: Attempt, prepared: URLRequest?) {
        let exchange = attempt.exchange
        let target = attempt.target
        if exchange.isCancelled {
            exchange.finish(.failure(.cancellation))
            return
        }
        // Each attempt is prepared afresh (a signature, a request id, a resumed download's range).
        let request: URLRequest
        if let prepared {
            request = prepared
        } else {
            switch Self.prepared(attempt.original, plugins: plugins, target: target) {
            case .failure(let error):
                exchange.finish(.failure(error))
                return
            case .success(let again): request = again
            }
        }
        let call = SynchronousCall()
        attempt.interceptor.adapt(request, for: session) { [self] adapted in
            guard call.answers() else { return }
            switch adapted {
            case .failure(let error):
                exchange.finish(.failure((error as? MoyaError) ?? .underlying(error, nil)))
            case .success(let request):
                sendOnce(
                    request, stub: .never, exchange: exchange, target: target, endpoint: attempt.endpoint,
                    body: attempt.body, callbackQueue: attempt.callbackQueue
                ) { result, queue in
                    self.ended(attempt, sent: request, with: result, on: queue)
                }
            }
        }
    }

    /// Tells the plugins of an attempt's answer, then asks the interceptor whether a failed one is
    /// sent again; the result goes to the callers when it is not.
    private func ended(
        _ attempt: Attempt, sent: URLRequest, with result: Result<Response, MoyaError>, on queue: DispatchQueue?
    ) {
        let exchange = attempt.exchange
        let target = attempt.target
        let boxed: any TargetType = target
        plugins.forEach { $0.didReceive(result, target: boxed) }
        // What was read from a pipe is gone: such a body is never sent again.
        guard !exchange.isCancelled, sent.streamedFilePaths.isEmpty, let error = InterceptedRequest.failure(of: result)
        else {
            exchange.finish(result, on: queue)
            return
        }
        let request = InterceptedRequest(
            id: attempt.id, target: target, request: sent, result: result, retryCount: attempt.retryCount)
        let call = SynchronousCall()
        attempt.interceptor.retry(request, for: session, dueTo: error) { [self] decision in
            // Still on the thread (and queue) of the answer only when the retrier answered at once.
            guard call.answers() else { return }
            let queue = call.hasReturned ? nil : queue
            switch decision {
            case .doNotRetry:
                exchange.finish(result, on: queue)
            case .doNotRetryWithError(let error):
                exchange.finish(.failure((error as? MoyaError) ?? .underlying(error, request.response)), on: queue)
            case .retry, .retryWithDelay:
                // Sent again from a global queue, never from the thread that drives the transfers;
                // the wait is the exchange's to cancel before it starts, so a cancel cannot miss it.
                let next = attempt.next
                let wait = StubTimer { exchange.finish(.failure(.cancellation)) }
                exchange.attach(wait)
                wait.start(delay: decision.delay ?? 0) { self.send(next, prepared: nil) }
            }
        }
        call.returned()
    }

    /// willSend → stub or network; `ended` gets the result and the queue it runs on, if any.
    private func sendOnce(
        _ prepared: URLRequest, stub: StubBehavior, exchange: RequestExchange, target: Target, endpoint: Endpoint,
        body: ResponseBodyHandling, callbackQueue: DispatchQueue?,
        ended: @escaping @Sendable (Result<Response, MoyaError>, DispatchQueue?) -> Void
    ) {
        if exchange.isCancelled {
            finish(exchange, with: .failure(.cancellation), target: target)
            return
        }
        let requestType: any RequestType = PreparedRequest(request: prepared)
        let boxed: any TargetType = target
        plugins.forEach { $0.willSend(requestType, target: boxed) }
        let transfer: any Cancellable
        switch stub {
        case .never:
            transfer = sendOverNetwork(
                prepared, target: target, endpoint: endpoint, body: body, exchange: exchange,
                callbackQueue: callbackQueue, ended: ended)
        case .immediate:
            finish(exchange, with: stubResult(prepared, target: target, endpoint: endpoint, body: body), target: target)
            transfer = FinishedCancellable()
        case .delayed(let seconds):
            transfer = StubTimer(delay: seconds) {
                self.finish(
                    exchange, with: self.stubResult(prepared, target: target, endpoint: endpoint, body: body),
                    target: target)
            } onCancel: {
                self.finish(exchange, with: .failure(.cancellation), target: target)
            }
        }
        exchange.attach(transfer)
    }

    /// With a `callbackQueue` (that of the caller who started the exchange), the response is
    /// assembled, validated and handed to the plugins there, as Moya does on its callback queue,
    /// rather than on the thread that drives every transfer.
    private func sendOverNetwork(
        _ request: URLRequest, target: Target, endpoint: Endpoint, body: ResponseBodyHandling,
        exchange: RequestExchange, callbackQueue: DispatchQueue?,
        ended: @escaping @Sendable (Result<Response, MoyaError>, DispatchQueue?) -> Void
    ) -> any Cancellable {
        // The transport streams into the destination's folder, so it is resolved up front.
        let download = endpoint.task.downloadDestination.map {
            ResolvedDownload($0, head: HTTPResponseHead(statusCode: 0, url: request.url))
        }
        let validationType = target.validationType
        return session.perform(
            request, downloadTo: download?.url, overwrite: download?.overwrite ?? false,
            createsFolders: download?.createsFolders ?? false, bodyHandling: body,
            progress: { exchange.reportProgress($0) }, completionQueue: callbackQueue
        ) { result in
            switch result {
            case .success(let transported):
                let response = Response(
                    statusCode: transported.head.statusCode, data: transported.body, request: request,
                    response: transported.head, timing: transported.timing, bodyLength: transported.bodyLength)
                ended(Self.validate(response, validationType), callbackQueue)
            case .failure(let error):
                ended(.failure(.underlying(error, nil)), callbackQueue)
            }
        }
    }

    /// The sample response, validated like a live one; a download's sample is written to its destination.
    private func stubResult(_ request: URLRequest, target: Target, endpoint: Endpoint, body: ResponseBodyHandling)
        -> Result<Response, MoyaError>
    {
        let sampled: Response
        switch endpoint.sampleResponseClosure() {
        case .networkResponse(let statusCode, let data):
            sampled = Response(statusCode: statusCode, data: data, request: request)
        case .response(let head, let data):
            sampled = Response(statusCode: head.statusCode, data: data, request: request, response: head)
        case .networkError(let error):
            return .failure(.underlying(error, nil))
        }
        let head = sampled.response ?? HTTPResponseHead(statusCode: sampled.statusCode, url: request.url)
        if let destination = endpoint.task.downloadDestination {
            let download = ResolvedDownload(destination, head: head)
            do throws(FileError) {
                let file = try OutputFile(
                    path: download.url.path, overwrite: download.overwrite, createFolders: download.createsFolders)
                do throws(FileError) {
                    try file.write(sampled.data)
                    try file.commit()
                } catch {
                    file.discard()
                    throw error
                }
            } catch {
                return .failure(.underlying(TransportError(error), sampled))
            }
            return Self.validate(sampled, target.validationType)
        }
        // The sample's body goes where a live one would: kept, dropped or streamed.
        var accumulator = ResponseBodyAccumulator(body)
        do throws(TransportError) {
            try accumulator.begin(head)
            try accumulator.append(sampled.data)
        } catch  where error == .bodyEndedByReader {
            // The consumer has all it wants (`--max-events`): a success, as for a live transfer.
        } catch {
            return .failure(.underlying(error, nil))
        }
        let response = Response(
            statusCode: sampled.statusCode, data: accumulator.data, request: request, response: sampled.response,
            bodyLength: accumulator.length)
        return Self.validate(response, target.validationType)
    }

    /// Tells plugins the exchange ended, then hands the result to its callers.
    /// `queue` is the queue this runs on, if any.
    private func finish(
        _ exchange: RequestExchange, with result: Result<Response, MoyaError>, target: Target,
        on queue: DispatchQueue? = nil
    ) {
        let boxed: any TargetType = target
        plugins.forEach { $0.didReceive(result, target: boxed) }
        exchange.finish(result, on: queue)
    }

    private static func progressHandler(_ progress: ProgressBlock?, callbackQueue: DispatchQueue?) -> RequestExchange
        .ProgressHandler?
    {
        guard let progress else { return nil }
        return { transferred in
            run(on: callbackQueue) { progress(ProgressResponse(progress: transferred)) }
        }
    }

    static func validate(_ response: Response, _ validationType: ValidationType) -> Result<Response, MoyaError> {
        guard validationType.accepts(statusCode: response.statusCode) else { return .failure(.statusCode(response)) }
        return .success(response)
    }

    static func run(on queue: DispatchQueue?, _ work: @escaping @Sendable () -> Void) {
        if let queue { queue.async(execute: work) } else { work() }
    }
}

/// What an interceptor's completion may learn of the call it was handed to: whether that call has
/// returned (a completion called before is still on the caller's thread), and whether it was
/// called before (an interceptor that calls its completion twice sends nothing twice).
final class SynchronousCall: Sendable {
    private struct State {
        var hasReturned = false
        var isAnswered = false
    }

    private let state = Mutex(State())

    /// Whether the call returned.
    var hasReturned: Bool { state.withLock { $0.hasReturned } }

    /// The call returned.
    func returned() { state.withLock { $0.hasReturned = true } }

    /// Whether this is the completion's first call.
    func answers() -> Bool {
        state.withLock { state in
            defer { state.isAnswered = true }
            return !state.isAnswered
        }
    }
}
