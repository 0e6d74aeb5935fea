#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// A user name and password for HTTP authentication (what `URLCredential` is to Moya).
public struct Credential: Sendable, Hashable {
    /// How a credential is sent.
    public enum Scheme: Sendable, Hashable {
        /// `Authorization: Basic`, up front.
        case basic
        /// In answer to the server's `Digest` challenge (RFC 7616, MD5 or SHA-256, `qop=auth`):
        /// one more round trip, and the password itself is never sent.
        case digest
    }

    /// The user name.
    public var user: String
    /// The password.
    public var password: String
    /// How it is sent.
    public var scheme: Scheme

    /// Creates a credential.
    public init(user: String, password: String, scheme: Scheme = .basic) {
        self.user = user
        self.password = password
        self.scheme = scheme
    }

    /// `Basic <base64(user:password)>`.
    public var basicAuthorizationValue: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }
}

/// Sends credentials with requests: basic ones up front (unlike Moya, which answers the server's
/// challenge through `URLCredential`; a request that already has `Authorization` is left alone),
/// digest ones in answer to the server's `Digest` challenge, as `URLCredential` does.
public struct CredentialsPlugin: PluginType {
    /// Returns the credential for a target, or `nil` for none.
    public typealias CredentialClosure = @Sendable (any TargetType) -> Credential?

    /// Returns the credential for a target.
    public let credentialsClosure: CredentialClosure

    /// Creates the plugin.
    public init(credentialsClosure: @escaping CredentialClosure) {
        self.credentialsClosure = credentialsClosure
    }

    /// Sets `Authorization: Basic ...`, or the credential a `Digest` challenge is answered with,
    /// unless the request has an `Authorization` header.
    public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        guard request.value(forHTTPHeaderField: "Authorization") == nil, let credential = credentialsClosure(target)
        else {
            return request
        }
        var request = request
        switch credential.scheme {
        case .basic:
            request.setValue(credential.basicAuthorizationValue, forHTTPHeaderField: "Authorization")
        case .digest:
            request.digestCredential = DigestCredential(user: credential.user, password: credential.password)
        }
        return request
    }
}
