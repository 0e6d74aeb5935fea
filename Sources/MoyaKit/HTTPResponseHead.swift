/// The status line and headers of a received response (what `HTTPURLResponse` is to Moya).
public struct HTTPResponseHead: Sendable, Hashable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The response header fields, in the order received.
    public var headers: HTTPFields
    /// The URL that answered, after any redirects.
    public var url: URL?
    /// The protocol version, e.g. `"HTTP/1.1"` or `"HTTP/2"`.
    public var httpVersion: String

    /// Creates a response head.
    public init(statusCode: Int, headers: HTTPFields = HTTPFields(), url: URL? = nil, httpVersion: String = "HTTP/1.1") {
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
        self.httpVersion = httpVersion
    }
}

/// How far an upload or download has come.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes transferred so far.
    public var completedBytes: Int64
    /// Bytes expected in all, when known.
    public var totalBytes: Int64?

    /// Creates a progress value.
    public init(completedBytes: Int64, totalBytes: Int64?) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// The fraction done, between 0 and 1, when the total is known.
    public var fractionCompleted: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }
}

/// Where the time of a request went, in seconds from its start.
public struct Timing: Sendable, Hashable {
    /// Name resolution done.
    public var nameLookup: TimeInterval = 0
    /// TCP connection established.
    public var connect: TimeInterval = 0
    /// TLS handshake done.
    public var tlsHandshake: TimeInterval = 0
    /// First response byte received.
    public var firstByte: TimeInterval = 0
    /// Whole request.
    public var total: TimeInterval = 0

    /// Creates a timing.
    public init(nameLookup: TimeInterval = 0, connect: TimeInterval = 0, tlsHandshake: TimeInterval = 0, firstByte: TimeInterval = 0, total: TimeInterval = 0) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.firstByte = firstByte
        self.total = total
    }
}
