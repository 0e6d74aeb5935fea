import MoyaKit

/// Marks the headers a `DynamicTarget` knows to carry secrets (built from `${secret:...}`, or named
/// in `sensitiveHeaders:`) on its request, so the transport keeps them from other origins.
public struct SensitiveHeadersPlugin: PluginType {
    /// Creates the plugin.
    public init() {}

    public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        guard let target = (target as? MultiTarget)?.target as? DynamicTarget ?? target as? DynamicTarget,
            !target.sensitiveHeaderNames.isEmpty
        else { return request }
        var marked = request
        marked.sensitiveHeaderNames.formUnion(target.sensitiveHeaderNames)
        return marked
    }
}
