/// What every connection's handler reads: immutable after start.
struct ServeShared: Sendable {
    var responder: ServeResponder
    var requestLog: RequestLog
    var limits: ServeLimits
    /// The request bodies held by all connections, bounded by `limits.maximumHeldBodies`.
    var bodyBudget: BodyBudget
    /// `--delay`, in seconds, before each sample response.
    var delay: Double
    /// CORS as answered (`nil`: `--no-cors`).
    var cors: CORSPolicy?
    /// `--proxy`: the live API.
    var forwarder: (any ServeForwarder)?
    /// Writes one line (without its line break) to the log.
    var log: @Sendable (String) -> Void
}
