import HTTPTypes
import MoyaKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sends `User-Agent: moya-cli/VERSION` unless the target file sets one; `-H 'User-Agent: …'`
/// (applied after) replaces it and `-H 'User-Agent:'` removes it. Some APIs, GitHub's among
/// them, refuse requests without one.
struct DefaultUserAgentPlugin: PluginType {
    static let value = "moya-cli/\(MoyaCommand.version)"

    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        // By the field name itself: naming the field by a string validated the name on each request.
        guard !request.headers.contains(where: { $0.name == .userAgent }) else { return request }
        var request = request
        request.headers.append(HTTPField(name: .userAgent, value: Self.value))
        return request
    }
}
