// Moya 15 cannot be built here (it needs Alamofire): this test-only module gives MoyaKit Moya's
// module name, and Moya 15's name for a multipart part, so that `moya-cli generate swift --module
// Moya` output compiles in GeneratedMoyaTests. What it cannot show is in moya-cli-generate(1), MOYA.
@_exported import MoyaKit

/// Moya 15's name for one part of a multipart body.
public typealias MultipartFormData = MoyaKit.MultipartFormBodyPart

extension MoyaKit.Method {
    /// Moya 15's `Method(rawValue:)` (Alamofire's `HTTPMethod`) is not failable, MoyaKit's
    /// (swift-http-types') is: generated code names a method other than the nine as Moya does, and
    /// this makes that compile here. `moya-cli generate` writes only validated method names.
    public init(rawValue name: String, _ moya: Void = ()) {
        guard let method = Self(name) else { preconditionFailure("'\(name)' is not a method name") }
        self = method
    }
}
