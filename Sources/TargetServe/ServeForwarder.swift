/// Where `serve --proxy` sends what the mock does not answer: the live API, through the one
/// sender (`moya-cli serve` gives it). Called off the event loops; answers once, on any thread.
package protocol ServeForwarder: Sendable {
    /// Sends `request` to the live API and calls `completion` once with its answer (a 502 when
    /// it cannot be had).
    func forward(_ request: ForwardedRequest, completion: @escaping @Sendable (ForwardedAnswer) -> Void)
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

/// The live answer, as the client gets it: status, headers less hop-by-hop ones, body.
package struct ForwardedAnswer: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    /// What the log says beside the status (`proxied`, `proxied, recorded`, why it failed).
    package var note: String

    package init(status: Int, headers: [(name: String, value: String)], body: [UInt8], note: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.note = note
    }

    /// Headers of a live answer the mock writes itself (framing) or that no longer hold (the
    /// transport decoded the body), and hop-by-hop ones.
    package static let notPassedBack: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "te", "trailer", "transfer-encoding",
        "upgrade", "content-length", "content-encoding"
    ]
}
