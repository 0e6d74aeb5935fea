import MoyaKit

/// Sends `User-Agent: moya-cli/VERSION` unless the target file sets one; `-H 'User-Agent: …'`
/// (applied after) replaces it and `-H 'User-Agent:'` removes it. Some APIs, GitHub's among
/// them, refuse requests without one.
struct DefaultUserAgentPlugin: PluginType {
    static let value = "moya-cli/\(MoyaCommand.version)"

    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        guard request.value(forHTTPHeaderField: "User-Agent") == nil else { return request }
        var request = request
        request.setValue(Self.value, forHTTPHeaderField: "User-Agent")
        return request
    }
}
