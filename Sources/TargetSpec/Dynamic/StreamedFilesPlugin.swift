import MoyaKit

/// Marks the files a `DynamicTarget`'s user named as streams (`-`, a FIFO, `/dev/stdin`) on its
/// request, so the transport reads them as they come and sends them chunked.
public struct StreamedFilesPlugin: PluginType {
    /// Creates the plugin.
    public init() {}

    public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        guard let target = (target as? MultiTarget)?.target as? DynamicTarget ?? target as? DynamicTarget,
            !target.streamedFilePaths.isEmpty
        else { return request }
        var marked = request
        marked.streamedFilePaths.formUnion(target.streamedFilePaths)
        return marked
    }
}
