#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// A user name and password for HTTP basic authentication (what `URLCredential` is to Moya).
public struct Credential: Sendable, Hashable {
    /// The user name.
    public var user: String
    /// The password.
    public var password: String

    /// Creates a credential.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// `Basic <base64(user:password)>`.
    public var basicAuthorizationValue: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }
}

/// Sends basic-authentication credentials with requests. Unlike Moya, which answers the server's
/// challenge through `URLCredential`, the header is set up front (there is no challenge round
/// trip with libcurl); a request that already has `Authorization` is left alone.
public struct CredentialsPlugin: PluginType {
    /// Returns the credential for a target, or `nil` for none.
    public typealias CredentialClosure = @Sendable (any TargetType) -> Credential?

    /// Returns the credential for a target.
    public let credentialsClosure: CredentialClosure

    /// Creates the plugin.
    public init(credentialsClosure: @escaping CredentialClosure) {
        self.credentialsClosure = credentialsClosure
    }

    /// Sets `Authorization: Basic ...` unless the request has an `Authorization` header.
    public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        guard request.value(forHTTPHeaderField: "Authorization") == nil, let credential = credentialsClosure(target)
        else {
            return request
        }
        var request = request
        request.setValue(credential.basicAuthorizationValue, forHTTPHeaderField: "Authorization")
        return request
    }
}
