import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Owns the connections and settings requests are sent with (what Alamofire's `Session` is to Moya).
public final class Session: Sendable {
    /// The session used when none is given.
    public static let `default` = Session()

    /// The settings of this session.
    public let configuration: SessionConfiguration
    /// Receives each transfer's trace (`curl -v`'s view: request heads, response headers,
    /// libcurl's notes), or `nil` for none.
    public let trace: (@Sendable (TransferTrace) -> Void)?

    /// Creates a session.
    public init(
        configuration: SessionConfiguration = SessionConfiguration(), trace: (@Sendable (TransferTrace) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.trace = trace
    }
}

/// What the transport hands back for a completed exchange.
package struct TransportResponse: Sendable {
    package var head: HTTPResponseHead
    package var body: Data
    /// The whole body's size (more than `body.count` when it was streamed or discarded).
    package var bodyLength: Int
    package var downloadedFile: URL?
    package var timing: Timing
}

extension Session {
    /// Sends `request`.
    ///
    /// The body comes from `httpBody`, `bodyFileURL` (streamed) or `multipartParts`. When
    /// `downloadTo` is set, the body is streamed to a temporary file next to it and renamed on
    /// success only. `completion` is called exactly once, `.cancelled` after `cancel()`, on the
    /// thread driving the transport (its own, or one waiting in `RequestLatch.wait`) — or right
    /// away, on the calling thread, when the request cannot even start (no URL, an unreadable
    /// upload file, an existing destination, libcurl missing). With a `completionQueue`, the
    /// response is assembled and `completion` called there instead of on the driving thread.
    package func perform(
        _ request: URLRequest,
        downloadTo: URL?,
        overwrite: Bool,
        createsFolders: Bool = false,
        bodyHandling: ResponseBodyHandling = .collectAll,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completionQueue: DispatchQueue? = nil,
        completion: @escaping @Sendable (Result<TransportResponse, TransportError>) -> Void
    ) -> any Cancellable {
        do {
            let loop = try TransportLoop.shared.get()
            let transfer = try Transfer(
                request: request, configuration: configuration, downloadTo: downloadTo, overwrite: overwrite,
                createsFolders: createsFolders, bodyHandling: bodyHandling, loop: loop, trace: trace,
                progress: progress,
                completionQueue: completionQueue, completion: completion)
            try loop.start(transfer)
            return transfer
        } catch {
            completion(.failure(error))
            return UnstartedRequest()
        }
    }
}
