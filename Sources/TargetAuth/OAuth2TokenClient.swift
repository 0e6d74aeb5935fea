import CCleanup
import CurlTransport
import Dispatch
import MoyaKit
import Synchronization
import TargetSpec

#if canImport(Glibc)
import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#endif

/// Asks a token endpoint for a token: the client credentials grant (RFC 6749 §4.4) or the
/// refresh token grant (§6), a form POSTed with MoyaKit's transport.
///
/// Redirects are not followed: a redirect could carry the client's credentials to another host,
/// so a 3xx answer is an error. The body read is capped at `TokenResponse.bodyLimit`, and the
/// exchange at the session's timeouts.
package struct OAuth2TokenClient: Sendable {
    /// The transport settings (TLS, proxy, timeouts); redirects are turned off whatever they say.
    package var session: SessionConfiguration
    /// The clock tokens' expiry is counted from.
    package var now: @Sendable () -> Date
    /// Whether the user asked to stop (Ctrl-C): the token request is then cancelled. By default,
    /// a signal received while moya-cli handles signals gracefully (`check`), which would
    /// otherwise wait for the token endpoint's timeout.
    package var isInterrupted: @Sendable () -> Bool

    /// Creates a client.
    package init(
        session: SessionConfiguration = SessionConfiguration(), now: @escaping @Sendable () -> Date = { Date() },
        isInterrupted: @escaping @Sendable () -> Bool = { moya_signals_pending() != 0 }
    ) {
        var session = session
        session.followRedirects = false
        session.timeout = session.timeout > 0 ? min(session.timeout, 60) : 60
        self.session = session
        self.now = now
        self.isInterrupted = isInterrupted
    }

    /// The grants a token endpoint is asked for.
    package enum Grant: Sendable, Hashable {
        case clientCredentials
        case refreshToken(String)
    }

    /// A token for `client` by `grant`.
    package func token(for client: AccessTokenRequest.OAuth2Client, grant: Grant) throws(AccessTokenError)
        -> OAuth2Token
    {
        guard let url = URL(string: client.tokenURL) else {
            throw AccessTokenError(.notAllowed, "tokenURL '\(client.tokenURL)' is not a valid URL")
        }
        var secrets = [client.clientSecret]
        var form: [(String, String)]
        switch grant {
        case .clientCredentials:
            form = [("grant_type", "client_credentials")]
            if !client.scopes.isEmpty { form.append(("scope", client.scopes.joined(separator: " "))) }
        case .refreshToken(let refreshToken):
            secrets.append(refreshToken)
            form = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
            if !client.scopes.isEmpty { form.append(("scope", client.scopes.joined(separator: " "))) }
        }
        var headers = ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"]
        switch client.clientAuthentication {
        case .basic:
            // RFC 6749 §2.3.1: both are form-encoded before they are joined and base64-encoded.
            let pair = Self.formEncoded(client.clientID) + ":" + Self.formEncoded(client.clientSecret)
            headers["Authorization"] = "Basic " + Data(pair.utf8).base64EncodedString()
            secrets.append(Data(pair.utf8).base64EncodedString())
        case .body:
            form += [("client_id", client.clientID), ("client_secret", client.clientSecret)]
        }
        let body = Data(form.map { Self.formEncoded($0.0) + "=" + Self.formEncoded($0.1) }.joined(separator: "&").utf8)
        let redactor = SecretRedactor(secretValues: secrets)
        let endpoint = TokenEndpoint(baseURL: url, body: body, headers: headers)
        let provider = MoyaProvider<TokenEndpoint>(session: Session(configuration: session))
        let outcome = Mutex<Result<Response, MoyaError>?>(nil)
        let issuedAt = now()
        guard !isInterrupted() else { throw AccessTokenError(.transport, "interrupted") }
        let finished = Atomic<Bool>(false)
        RequestLatch.wait { latch in
            let request = provider.request(endpoint, body: .collect(limit: TokenResponse.bodyLimit)) { result in
                outcome.withLock { $0 = result }
                finished.store(true, ordering: .releasing)
                latch.signal()
            }
            // Watches for Ctrl-C meanwhile (the latch has no way to hear of it).
            let isInterrupted = self.isInterrupted
            DispatchQueue.global().async {
                while !finished.load(ordering: .acquiring) {
                    if isInterrupted() {
                        request.cancel()
                        return
                    }
                    usleep(20_000)
                }
            }
        }
        let shown = redactor.redact(client.tokenURL)
        switch outcome.withLock({ $0 }) {
        case .success(let response)?:
            if (300..<400).contains(response.statusCode) {
                throw AccessTokenError(
                    .refused,
                    "the token endpoint \(shown) answered HTTP \(response.statusCode), a redirect; "
                        + "redirects are not followed for token requests (they could carry the client secret elsewhere), "
                        + "so write the final URL in tokenURL")
            }
            return try TokenResponse.token(
                status: response.statusCode, contentType: response.response?.headers[.contentType],
                body: response.data, issuedAt: issuedAt, endpoint: shown, redactor: redactor)
        case .failure(let error)?:
            if let transport = error.transportError {
                if transport.kind == .cancelled { throw AccessTokenError(.transport, "interrupted") }
                if transport.kind == .responseTooLarge {
                    throw AccessTokenError(
                        .refused,
                        "the token endpoint \(shown) answered with a body over \(TokenResponse.bodyLimit / 1024) KiB; "
                            + "that is no token")
                }
                let prefix = transport.kind == .timedOut ? "timed out asking " : "cannot reach "
                throw AccessTokenError(
                    .transport, prefix + "the token endpoint \(shown): " + redactor.redact(transport.message))
            }
            throw AccessTokenError(
                .transport, "cannot ask the token endpoint \(shown): " + redactor.redact(error.description))
        case nil:
            throw AccessTokenError(.transport, "the token request to \(shown) did not complete")
        }
    }

    /// `application/x-www-form-urlencoded`: every byte but the unreserved ones as `%XX`.
    static func formEncoded(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = String(byte, radix: 16, uppercase: true)
                output += "%" + (digits.count == 1 ? "0" : "") + digits
            }
        }
        return output
    }
}

/// The token request as a MoyaKit target.
struct TokenEndpoint: TargetType {
    var baseURL: URL
    var body: Data
    var headers: [String: String]?
    var path: String { "" }
    var method: MoyaKit.Method { .post }
    var task: MoyaKit.Task { .requestData(body) }
}
