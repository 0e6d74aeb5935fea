/// A change of network activity.
public enum NetworkActivityChangeType: Sendable, Hashable {
    /// A request started.
    case began
    /// A request ended (also when it failed or was cancelled).
    case ended
}

/// Reports when requests start and end, e.g. to show a spinner.
public struct NetworkActivityPlugin: PluginType {
    /// Receives each change.
    public typealias NetworkActivityClosure =
        @Sendable (_ change: NetworkActivityChangeType, _ target: any TargetType) -> Void

    /// Receives each change.
    public let networkActivityClosure: NetworkActivityClosure

    /// Creates the plugin.
    public init(networkActivityClosure: @escaping NetworkActivityClosure) {
        self.networkActivityClosure = networkActivityClosure
    }

    /// Reports `.began`.
    public func willSend(_ request: any RequestType, target: any TargetType) {
        networkActivityClosure(.began, target)
    }

    /// Reports `.ended`.
    public func didReceive(_ result: Result<Response, MoyaError>, target: any TargetType) {
        networkActivityClosure(.ended, target)
    }
}
