import Synchronization

extension MoyaProvider {
    /// Sends `target` and returns its response. Cancelling the calling task cancels the request;
    /// a task already cancelled sends nothing. Either way the error is a `MoyaError` whose
    /// `isCancellation` is true.
    /// - Throws: `MoyaError`.
    public func request(_ target: Target) async throws -> Response {
        let box = CancellationBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, any Error>) in
                // The handler runs before this when the task was cancelled already: don't even start.
                guard !box.isCancelled else {
                    continuation.resume(throwing: MoyaError.cancellation)
                    return
                }
                box.hold(request(target) { result in continuation.resume(with: result) })
            }
        } onCancel: {
            box.cancel()
        }
    }

    /// Sends `target`, yielding progress and, last, a value holding the response.
    /// Ending the iteration early cancels the request.
    public func requestWithProgress(_ target: Target) -> AsyncThrowingStream<ProgressResponse, any Error> {
        AsyncThrowingStream { continuation in
            let token = request(
                target,
                progress: { progress in
                    // The completed value is yielded below, with the processed result.
                    if !progress.completed { continuation.yield(progress) }
                }
            ) { result in
                switch result {
                case .success(let response):
                    continuation.yield(ProgressResponse(response: response))
                    continuation.finish()
                case .failure(let error):
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { termination in
                if case .cancelled = termination { token.cancel() }
            }
        }
    }
}

/// Holds a request's token for a task-cancellation handler that may run before the token exists.
final class CancellationBox: Sendable {
    private struct State {
        var token: (any Cancellable)?
        var isCancelled = false
    }
    private let state = Mutex(State())

    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    func hold(_ token: any Cancellable) {
        let cancelNow = state.withLock { state -> Bool in
            state.token = token
            return state.isCancelled
        }
        if cancelNow { token.cancel() }
    }

    func cancel() {
        let token = state.withLock { state -> (any Cancellable)? in
            state.isCancelled = true
            return state.token
        }
        token?.cancel()
    }
}
