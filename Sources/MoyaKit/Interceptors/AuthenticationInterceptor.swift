import CurlTransport
import Dispatch
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A credential an `Authenticator` applies to requests (Alamofire's `AuthenticationCredential`).
public protocol AuthenticationCredential: Sendable {
    /// Whether the credential must be refreshed before it is used (it has expired, say).
    var requiresRefresh: Bool { get }
}

/// Applies a credential to requests and obtains a new one (Alamofire's `Authenticator`): an OAuth
/// token, a token a command prints, a signed session.
public protocol Authenticator: Sendable {
    /// The credential.
    associatedtype Credential: AuthenticationCredential

    /// Puts `credential` on `urlRequest` (an `Authorization` header, say).
    func apply(_ credential: Credential, to urlRequest: inout URLRequest)

    /// Obtains a credential in place of `credential`, refused or expired, and hands it (or why
    /// none came) to `completion`, at once or later from any thread.
    func refresh(
        _ credential: Credential, for session: Session,
        completion: @escaping @Sendable (Result<Credential, any Error>) -> Void)

    /// Whether the answer `response` to `urlRequest` says its credential was refused; by default,
    /// a 401.
    func didRequest(
        _ urlRequest: URLRequest, with response: HTTPResponseHead, failDueToAuthenticationError error: any Error
    ) -> Bool

    /// Whether `urlRequest` was sent with `credential` (not an older one another request replaced).
    func isRequest(_ urlRequest: URLRequest, authenticatedWith credential: Credential) -> Bool
}

extension Authenticator {
    /// A 401 refuses the credential.
    public func didRequest(
        _ urlRequest: URLRequest, with response: HTTPResponseHead, failDueToAuthenticationError error: any Error
    ) -> Bool {
        response.statusCode == 401
    }
}

/// Why an `AuthenticationInterceptor` could not authenticate a request.
public enum AuthenticationError: Error, Sendable, Equatable {
    /// The interceptor has no credential to apply.
    case missingCredential
    /// The credential was refreshed more often than `RefreshWindow` allows.
    case excessiveRefresh
}

/// Puts a credential on every request and, when a request is refused for it (a 401), obtains a new
/// one and sends that request once more with it (Alamofire's `AuthenticationInterceptor`).
///
/// Each request is sent again with a new credential at most once: a second refusal is its result,
/// as moya-cli answers a 401 with a new token once. A credential that `requiresRefresh` is
/// refreshed before it is applied. A failed refresh ends the request with
/// `MoyaError.underlying(error, response)`, `error` the authenticator's. Requests refused with a
/// credential that another request already replaced are sent again with the new one, without a
/// refresh, and requests that need a refresh while one is under way wait for it. `refreshWindow`
/// bounds how often the credential may be refreshed at all. (The interceptor remembers the
/// identity of each request it sent again, 8 bytes each, for the life of the interceptor.)
public final class AuthenticationInterceptor<AuthenticatorType: Authenticator>: RequestInterceptor {
    /// The credential type.
    public typealias Credential = AuthenticatorType.Credential

    /// At most `maximumAttempts` refreshes within `interval` seconds; more fail with
    /// `AuthenticationError.excessiveRefresh`.
    public struct RefreshWindow: Sendable {
        /// The window, in seconds.
        public let interval: TimeInterval
        /// The most refreshes within it.
        public let maximumAttempts: Int

        /// Creates a window; by default Alamofire's, five refreshes in 30 s.
        public init(interval: TimeInterval = 30, maximumAttempts: Int = 5) {
            self.interval = interval
            self.maximumAttempts = maximumAttempts
        }
    }

    /// What to do with a refused request.
    private enum Decision { case stop, sendAgain, refresh(Credential) }

    private struct State {
        var credential: Credential?
        /// The requests sent again with a refreshed credential (each gets one).
        var refreshedRequests: Set<UInt64> = []
        /// When each refresh of the window started (monotonic seconds).
        var refreshTimestamps: [Double] = []
        /// Whether a refresh is under way, and who waits for it.
        var isRefreshing = false
        var waiting: [@Sendable (Result<Credential, any Error>) -> Void] = []
    }

    /// The authenticator.
    public let authenticator: AuthenticatorType
    /// The refresh window.
    public let refreshWindow: RefreshWindow
    private let state: Mutex<State>

    /// Creates the interceptor with `credential` (set it later when it is not known yet).
    public init(
        authenticator: AuthenticatorType, credential: Credential? = nil, refreshWindow: RefreshWindow = RefreshWindow()
    ) {
        self.authenticator = authenticator
        self.refreshWindow = refreshWindow
        state = Mutex(State(credential: credential))
    }

    /// The credential applied to requests, a refreshed one once there is one.
    public var credential: Credential? {
        get { state.withLock { $0.credential } }
        set { state.withLock { $0.credential = newValue } }
    }

    public func adapt(
        _ urlRequest: URLRequest, for session: Session,
        completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void
    ) {
        guard let credential else { return completion(.failure(AuthenticationError.missingCredential)) }
        guard credential.requiresRefresh else {
            var adapted = urlRequest
            authenticator.apply(credential, to: &adapted)
            return completion(.success(adapted))
        }
        refresh(credential, for: session) { [authenticator] result in
            switch result {
            case .success(let refreshed):
                var adapted = urlRequest
                authenticator.apply(refreshed, to: &adapted)
                completion(.success(adapted))
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    public func retry(
        _ request: InterceptedRequest, for session: Session, dueTo error: any Error,
        completion: @escaping @Sendable (RetryResult) -> Void
    ) {
        guard let head = request.response?.response,
            authenticator.didRequest(request.request, with: head, failDueToAuthenticationError: error)
        else { return completion(.doNotRetry) }
        let decision = state.withLock { state -> Decision in
            // Refused again after its one new credential: the refusal is the result.
            guard !state.refreshedRequests.contains(request.id), let credential = state.credential else {
                return .stop
            }
            state.refreshedRequests.insert(request.id)
            if !authenticator.isRequest(request.request, authenticatedWith: credential) { return .sendAgain }
            return .refresh(credential)
        }
        switch decision {
        case .stop:
            completion(.doNotRetry)
        case .sendAgain:
            completion(.retry)
        case .refresh(let credential):
            refresh(credential, for: session) { result in
                switch result {
                case .success: completion(.retry)
                case .failure(let error): completion(.doNotRetryWithError(error))
                }
            }
        }
    }

    /// Refreshes `credential`, within the window, and keeps the new one; requests that need a
    /// refresh while one is under way wait for it instead of starting another.
    private func refresh(
        _ credential: Credential, for session: Session,
        completion: @escaping @Sendable (Result<Credential, any Error>) -> Void
    ) {
        let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        let starts = state.withLock { state -> Bool? in
            if state.isRefreshing {
                state.waiting.append(completion)
                return false
            }
            state.refreshTimestamps.removeAll { now - $0 > refreshWindow.interval }
            guard state.refreshTimestamps.count < refreshWindow.maximumAttempts else { return nil }
            state.refreshTimestamps.append(now)
            state.isRefreshing = true
            state.waiting = [completion]
            return true
        }
        guard let starts else { return completion(.failure(AuthenticationError.excessiveRefresh)) }
        guard starts else { return }
        authenticator.refresh(credential, for: session) { [self] result in
            let waiting = state.withLock { state in
                if case .success(let refreshed) = result { state.credential = refreshed }
                state.isRefreshing = false
                defer { state.waiting = [] }
                return state.waiting
            }
            for waiter in waiting { waiter(result) }
        }
    }
}
