/// The bounds that keep one client from holding the server.
package struct ServeLimits: Sendable {
    /// The request head (request line and headers) larger than this is answered 431.
    package var maximumHeaderSize = 16 * 1024
    /// A body larger than this is answered 413: by its Content-Length before it is read, or
    /// once it has grown past the bound.
    package var maximumBodySize = 8 * 1024 * 1024
    /// The bytes of request bodies held at once across all connections: a body that would take
    /// the total past this is answered 503 with `Retry-After`, and its connection closed.
    package var maximumHeldBodies = 64 * 1024 * 1024
    /// A connection that sends no byte for this long, between requests, is closed.
    package var idleTimeout: Double = 60
    /// A request head not complete this long after its first byte is answered 408 and its
    /// connection closed: a client dripping a header line now and then (never idle long enough
    /// for `idleTimeout`) cannot hold a connection.
    package var headDeadline: Double = 20
    /// The connections open at once: a client beyond this is answered 503 (`Retry-After`) and
    /// closed at once, and the connections already open keep being served.
    package var maximumConnections = 1024
    /// The longest a `timeout` sample holds a request.
    package var maximumHold: Double = 30

    package init() {}
}
