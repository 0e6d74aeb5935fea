/// Protocol to define the opaque type returned from a request.
public protocol Cancellable: Sendable {
    /// A Boolean value stating whether a request is cancelled.
    var isCancelled: Bool { get }

    /// Cancels the represented request.
    func cancel()
}
