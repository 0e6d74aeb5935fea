#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// The specification of one API request: where it goes, how, and what it sends.
///
/// Conform an enum to describe an API, one case per request, as in Moya:
/// `enum GitHub: TargetType { case zen, userProfile(String) }`.
public protocol TargetType: Sendable {
    /// The base URL of the API.
    var baseURL: URL { get }

    /// The path appended to `baseURL`. It is taken as already percent-encoded: escapes such as
    /// `%20` are kept, and only characters a URL path cannot hold are escaped.
    var path: String { get }

    /// The HTTP method.
    var method: Method { get }

    /// The body of the stubbed response. Default: empty.
    var sampleData: Data { get }

    /// What the request sends (body, parameters, upload) or whether it downloads.
    var task: Task { get }

    /// Which status codes count as success. Default: `.none` (every code does).
    var validationType: ValidationType { get }

    /// The header fields sent with the request.
    var headers: [String: String]? { get }

    /// The target as `AccessTokenAuthorizable`, if it is one (what `AccessTokenPlugin` asks).
    /// Default: the runtime's answer to `as?`, which in a large static binary scans every
    /// protocol-conformance record the first time (a sixth of a stubbed call); a target type
    /// that is authorizable answers `self` without it.
    var accessTokenAuthorizable: (any AccessTokenAuthorizable)? { get }
}

extension TargetType {
    /// No validation: every status code is a success.
    public var validationType: ValidationType { .none }

    /// An empty sample response body.
    public var sampleData: Data { Data() }

    /// `self as? any AccessTokenAuthorizable`.
    public var accessTokenAuthorizable: (any AccessTokenAuthorizable)? { self as? any AccessTokenAuthorizable }
}
