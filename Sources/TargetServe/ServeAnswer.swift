/// What the server does with a request.
enum ServeAnswer: Sendable {
    /// An HTTP response.
    case response(ServeResponse)
    /// A `timeout` sample: no answer; the connection is closed after `seconds` unless the client
    /// goes first.
    case hold(seconds: Double)
    /// A connection error sample: the connection is closed without an answer, reset (RST) when
    /// `reset`.
    case close(reset: Bool)
    /// `--proxy`: the live API answers (`ServeForwarder`).
    case forward(ForwardedRequest)
}

/// A response to send: status, headers (safe to write: no CR, LF or NUL), body.
struct ServeResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// The same, ready to write (the fixed answers of cases without values).
    var prepared: PreparedResponse?
    /// What the server's log says beside the status, when the client is told less (a path on
    /// this machine, `ServeResponder.clientReason`).
    var logReason: String?

    init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
