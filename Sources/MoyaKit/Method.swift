import HTTPTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// The HTTP method of a request: `.get`, `.post`, ... including `.trace` and `.connect`.
/// Other methods are made with `Method(rawValue: "PROPFIND")`.
public typealias Method = HTTPRequest.Method

extension HTTPRequest.Method {
    /// Whether a `multipart/form-data` body is usual with this method (as in Moya).
    public var supportsMultipart: Bool {
        switch self {
        case .post, .put, .patch, .connect: return true
        default: return false
        }
    }
}
