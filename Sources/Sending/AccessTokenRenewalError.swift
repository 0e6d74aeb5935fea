import TargetSpec

/// A request's token was refused with 401, and no new one could be obtained: the request's
/// result (`call` exits with the credentials status, `check` fails the item).
package struct AccessTokenRenewalError: Error, Sendable, CustomStringConvertible {
    /// Why no token came (never a secret).
    package var message: String

    /// Creates the error for `error`, the token source's.
    package init(_ error: AccessTokenError) {
        message = error.message
    }

    /// Creates the error for what the token source's `Authenticator` failed with.
    package init(_ error: any Error) {
        message = (error as? AccessTokenError)?.message ?? "\(error)"
    }

    package var description: String {
        "the API refused the token with HTTP 401, and no new one could be obtained: " + message
    }
}
