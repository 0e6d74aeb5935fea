import CurlTransport
import MoyaKit
import TargetSpec

/// The run's access-token source (`oauth2` and `command` auth) as MoyaKit's `Authenticator`: a
/// request's token refused with 401 is replaced once through an `AuthenticationInterceptor`
/// (`SendingState`), so the rule "a new token once after a 401, then the answer is the result"
/// is MoyaKit's.
///
/// The token goes where the target's file puts it (a header, the query, a cookie), so `apply`
/// leaves the request alone: the sender puts the new token in the target (`SendingState.target`),
/// whose requests carry it and whose redactor hides it.
package struct AccessTokenAuthenticator: Authenticator {
    /// A token; a token is refreshed only when refused.
    package struct Credential: AuthenticationCredential {
        package var token: String
        package var requiresRefresh: Bool { false }

        package init(token: String) {
            self.token = token
        }
    }

    /// Where tokens come from.
    package let source: any AccessTokenSource
    /// The token asked for.
    package let request: AccessTokenRequest

    package init(source: any AccessTokenSource, request: AccessTokenRequest) {
        self.source = source
        self.request = request
    }

    package func apply(_ credential: Credential, to urlRequest: inout URLRequest) {}

    package func refresh(
        _ credential: Credential, for session: Session,
        completion: @escaping @Sendable (Result<Credential, any Error>) -> Void
    ) {
        do throws(AccessTokenError) {
            completion(.success(Credential(token: try source.accessToken(for: request, replacing: credential.token))))
        } catch {
            completion(.failure(error))
        }
    }

    /// One state sends one request: it was sent with the token the interceptor holds.
    package func isRequest(_ urlRequest: URLRequest, authenticatedWith credential: Credential) -> Bool {
        true
    }
}
