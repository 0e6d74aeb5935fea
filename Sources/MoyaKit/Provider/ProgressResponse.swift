/// Progress of a request, and its response once complete.
public struct ProgressResponse: Sendable {
    /// The response, once the request completed.
    public let response: Response?
    /// The bytes transferred so far, when known.
    public let progressObject: TransferProgress?

    /// Creates a progress value.
    public init(progress: TransferProgress? = nil, response: Response? = nil) {
        self.progressObject = progress
        self.response = response
    }

    /// The fraction done: 1 once complete, 0 while the total is unknown.
    public var progress: Double {
        if completed { return 1 }
        return progressObject?.fractionCompleted ?? 0
    }

    /// Whether the request completed.
    public var completed: Bool { response != nil }
}
