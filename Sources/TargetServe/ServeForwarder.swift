import Synchronization

/// Where `serve --proxy` sends what the mock does not answer: the live API, through the one
/// sender (`moya-cli serve` gives it). Called on an event loop: it must not wait there.
package protocol ServeForwarder: Sendable {
    /// Sends `request` to the live API and hands its answer to `stream` as it comes: the head,
    /// the body's pieces, the end — or `.failed` alone when no answer came (the client gets 502).
    func forward(_ request: ForwardedRequest, to stream: ForwardedStream)
}

/// A piece of a live answer.
package enum ForwardedPart: Sendable {
    /// The status and headers (less hop-by-hop and framing ones: `ForwardedAnswer.notPassedBack`).
    case head(status: Int, headers: [(name: String, value: String)])
    case body([UInt8])
    /// The answer is over: `complete` when the whole body came; `note` is what the log says
    /// beside the status (`proxied`, `proxied, recorded`, why the body broke off).
    case end(note: String, complete: Bool)
    /// No answer came: the client gets 502, the log `note`.
    case failed(note: String)
}

/// A live answer on its way to the client: its pieces handed over from any thread, in order, and
/// written by the connection's event loop as they come, so a large or slow body is never held
/// whole. What waits to be written is bounded: past `maximumPending` bytes (a client that does not
/// read), or once the client has gone, `send` says no and the sender aborts the transfer.
package final class ForwardedStream: Sendable {
    package static let maximumPending = 8 * 1024 * 1024
    private let pending = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)
    private let deliver: @Sendable (ForwardedPart, ForwardedStream) -> Void

    init(deliver: @escaping @Sendable (ForwardedPart, ForwardedStream) -> Void) {
        self.deliver = deliver
    }

    /// Hands `part` over; `false` (and nothing handed over) when the transfer should stop.
    @discardableResult
    package func send(_ part: ForwardedPart) -> Bool {
        if case .body(let bytes) = part {
            guard !cancelled.load(ordering: .relaxed) else { return false }
            let waiting = pending.add(bytes.count, ordering: .relaxed).newValue
            guard waiting <= Self.maximumPending else { return false }
        }
        deliver(part, self)
        return true
    }

    /// `count` bytes of the body were written to the client.
    func written(_ count: Int) {
        pending.subtract(count, ordering: .relaxed)
    }

    /// The client is gone: the rest is not wanted.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }
}

/// A request the mock forwards: as the client sent it, less the hop-by-hop headers, `Prefer` and
/// `Accept-Encoding` (the transport asks for what it decodes); the sender applies the API's auth
/// over the client's credential.
package struct ForwardedRequest: Sendable {
    package var method: String
    /// The path as sent, percent-escapes kept (under the mock's base URL path).
    package var path: String
    /// The query as sent, after `?`.
    package var query: String?
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    /// The declared case the request matched (`Prefer: proxy`): `API` and `case`; `nil` for a
    /// request no case answers.
    package var declaredCase: (api: String, caseName: String)?

    /// The headers a proxy does not pass on (RFC 9110 7.6.1), and those the mock's sender sets.
    static let notForwarded: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade", "host", "content-length", "accept-encoding", "prefer"
    ]
}

/// The headers of live answers.
package enum ForwardedAnswer {
    /// Headers of a live answer the mock writes itself (framing) or that no longer hold (the
    /// transport decoded the body), and hop-by-hop ones.
    package static let notPassedBack: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "te", "trailer", "transfer-encoding",
        "upgrade", "content-length", "content-encoding"
    ]
}
