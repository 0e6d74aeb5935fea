#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// The answer a stubbed request gets.
public enum EndpointSampleResponse: Sendable {
    /// A response with this status code and body.
    case networkResponse(Int, Data)
    /// A response with this head (status, headers, URL) and body.
    case response(HTTPResponseHead, Data)
    /// A failure to get any response, e.g. `TransportError(kind: .timedOut, ...)`.
    case networkError(any Error)
}
