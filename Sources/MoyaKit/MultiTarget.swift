#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// A target wrapping any other, so one `MoyaProvider<MultiTarget>` can send requests of many APIs.
public enum MultiTarget: TargetType {
    /// The wrapped target.
    case target(any TargetType)

    /// Wraps `target`.
    public init(_ target: any TargetType) {
        self = .target(target)
    }

    /// The wrapped target.
    public var target: any TargetType {
        switch self {
        case .target(let target): return target
        }
    }

    /// The wrapped target's path.
    public var path: String { target.path }
    /// The wrapped target's base URL.
    public var baseURL: URL { target.baseURL }
    /// The wrapped target's method.
    public var method: Method { target.method }
    /// The wrapped target's sample data.
    public var sampleData: Data { target.sampleData }
    /// The wrapped target's task.
    public var task: Task { target.task }
    /// The wrapped target's validation.
    public var validationType: ValidationType { target.validationType }
    /// The wrapped target's headers.
    public var headers: [String: String]? { target.headers }
}

extension MultiTarget: AccessTokenAuthorizable {
    /// The wrapped target's authorization type, if it is `AccessTokenAuthorizable`.
    public var authorizationType: AuthorizationType? {
        target.accessTokenAuthorizable?.authorizationType
    }

    /// Itself, when the wrapped target is authorizable.
    public var accessTokenAuthorizable: (any AccessTokenAuthorizable)? {
        target.accessTokenAuthorizable == nil ? nil : self
    }
}
