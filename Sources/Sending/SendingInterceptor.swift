import CurlTransport
import MoyaKit
import Synchronization
import TargetSpec

/// One request's `SendingState` handed to MoyaKit as its interceptor
/// (`provider.request(target, …, interceptor:)`): the provider runs the retries (it waits, and
/// sends again through every plugin, so a retry gets a fresh signature, request id or range),
/// and the state decides them with MoyaKit's `RetryPolicy` and `AuthenticationInterceptor`.
///
/// A new token after a 401 is not sent by the provider: the token goes into the target, whose
/// requests and redactors the caller rebuilds (`call` remakes its provider, so `-v` hides the new
/// token too). The provider returns the 401, and `settle(after:)` says `.renewed`: the caller sends
/// `target` again with the same interceptor, whose counts go on.
package final class SendingInterceptor: RequestInterceptor {
    private struct Locked {
        var state: SendingState
        /// Whether the retrier saw the last answer (the provider asks only about failures).
        var answered = false
        /// Whether the next `adapt` is a retry's.
        var retrying = false
        /// The last answer the retrier saw: the result of a request cancelled while it waited to
        /// send it again.
        var lastAnswer: Result<Response, MoyaError>?
        /// A renewal the retrier decided, for the caller.
        var pending: SendingState.Step?
    }

    private let locked: Mutex<Locked>
    /// Called before the provider waits to send again: the answer, the wait, the retries so far
    /// (this one included) and the most there may be (`call`'s "retrying" note).
    private let onRetry: (@Sendable (Result<Response, MoyaError>, Double, Int, Int) -> Void)?
    /// Called before each retry is sent (`check`'s rate limiter).
    private let beforeRetry: (@Sendable () -> Void)?

    /// Hands `state`'s decisions to the provider.
    package init(
        _ state: SendingState, onRetry: (@Sendable (Result<Response, MoyaError>, Double, Int, Int) -> Void)? = nil,
        beforeRetry: (@Sendable () -> Void)? = nil
    ) {
        locked = Mutex(Locked(state: state))
        self.onRetry = onRetry
        self.beforeRetry = beforeRetry
    }

    /// The target to send: the one given, or it with a new token.
    package var target: DynamicTarget { locked.withLock { $0.state.target } }
    /// Whether `target` holds a token obtained after a 401.
    package var hasRenewedToken: Bool { locked.withLock { $0.state.hasRenewedToken } }
    /// Requests answered so far.
    package var attempts: Int { locked.withLock { $0.state.attempts } }

    /// Whether an answer with `head` will be sent again (renewed or retried), so its body is not
    /// the result's.
    package func willSendAgain(after head: HTTPResponseHead) -> Bool {
        locked.withLock { $0.state.willSendAgain(after: head) }
    }

    package func adapt(
        _ urlRequest: URLRequest, for session: Session,
        completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void
    ) {
        let isRetry = locked.withLock { locked in
            defer { locked.retrying = false }
            locked.answered = false
            return locked.retrying
        }
        if isRetry { beforeRetry?() }
        completion(.success(urlRequest))
    }

    package func retry(
        _ request: InterceptedRequest, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        let (step, retries, mostRetries) = locked.withLock { locked in
            locked.answered = true
            locked.lastAnswer = request.result
            let step = locked.state.step(after: request.result)
            switch step {
            case .retry: locked.retrying = true
            case .renewed, .renewalFailed: locked.pending = step
            case .finish: break
            }
            return (step, locked.state.retries, locked.state.mostRetries)
        }
        guard case .retry(let delay) = step else { return completion(.doNotRetry) }
        onRetry?(request.result, delay, retries, mostRetries)
        completion(.retryWithDelay(delay))
    }

    /// What to do once the provider completed with `result`: `.finish` (the result is `answer`),
    /// `.renewed` (send `target` again), or `.renewalFailed`. An answer the retrier was not asked
    /// about (a success, a stub) is recorded here. A request cancelled while it waited to be sent
    /// again ends with the answer it waited after.
    package func settle(after result: Result<Response, MoyaError>) -> (
        step: SendingState.Step, answer: Result<Response, MoyaError>
    ) {
        locked.withLock { locked in
            defer {
                locked.pending = nil
                locked.answered = false
                locked.retrying = false
            }
            if !locked.answered {
                // Only the retrier's failures are retried; anything else here is the result.
                switch locked.state.step(after: result) {
                case .renewed: return (.renewed, result)
                case .renewalFailed(let error): return (.renewalFailed(error), result)
                case .finish, .retry: return (.finish, result)
                }
            }
            if let pending = locked.pending { return (pending, result) }
            if result.isCancellation, let last = locked.lastAnswer, locked.retrying { return (.finish, last) }
            return (.finish, result)
        }
    }
}

extension Result where Success == Response, Failure == MoyaError {
    /// Whether this is the failure of a cancelled request.
    var isCancellation: Bool {
        if case .failure(let error) = self { return error.transportError?.kind == .cancelled }
        return false
    }
}
