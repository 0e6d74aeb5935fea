#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// Whether and how a request is answered from its sample response instead of the network.
public enum StubBehavior: Sendable, Hashable {
    /// Send the request.
    case never
    /// Answer at once.
    case immediate
    /// Answer after `seconds`; cancelling answers at once with a cancellation error.
    case delayed(seconds: TimeInterval)
}
