import HTTPTypes
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The status line and headers of a received response (what `HTTPURLResponse` is to Moya).
public struct HTTPResponseHead: Sendable, Hashable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The response header fields, in the order received.
    public var headers: HTTPFields {
        get { fields.read().headers }
        set { fields = HeaderFields(headers: newValue, httpVersion: httpVersion) }
    }
    /// The URL that answered, after any redirects.
    public var url: URL?
    /// The protocol version, e.g. `"HTTP/1.1"` or `"HTTP/2"`.
    public var httpVersion: String {
        get { fields.read().httpVersion }
        set { fields = HeaderFields(headers: headers, httpVersion: newValue) }
    }

    /// The header block and the protocol version, read from the raw lines when first asked for.
    private var fields: HeaderFields

    /// Creates a response head.
    public init(statusCode: Int, headers: HTTPFields = HTTPFields(), url: URL? = nil, httpVersion: String = "HTTP/1.1")
    {
        self.statusCode = statusCode
        self.url = url
        fields = HeaderFields(headers: headers, httpVersion: httpVersion)
    }

    /// A head whose fields are read from libcurl's header lines only if someone asks for them:
    /// reading a line into an `HTTPField` validates its name and value, about 2,500 instructions
    /// a field, which a sweep's check (status and body only) paid for every response's ten or so
    /// fields (a seventh of its work off the transport's thread). The answer is the one reading
    /// them at once gives: the same lines, through the same collector.
    init(statusCode: Int, headerLines: RawHeaderLines, url: URL?) {
        self.statusCode = statusCode
        self.url = url
        fields = HeaderFields(lines: headerLines)
    }

    public static func == (lhs: HTTPResponseHead, rhs: HTTPResponseHead) -> Bool {
        lhs.statusCode == rhs.statusCode && lhs.url == rhs.url && lhs.httpVersion == rhs.httpVersion
            && lhs.headers == rhs.headers
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(statusCode)
        hasher.combine(url)
        hasher.combine(httpVersion)
        hasher.combine(headers)
    }

    /// Fields given, or raw lines read once, on first use, by whichever thread asks first; a
    /// head is a value, so a copy shares the box and the reading.
    private final class HeaderFields: Sendable {
        /// Never changed once the transfer has ended.
        private let lines: RawHeaderLines?
        private let parsed: Mutex<(headers: HTTPFields, httpVersion: String)?>

        init(headers: HTTPFields, httpVersion: String) {
            lines = nil
            parsed = Mutex((headers, httpVersion))
        }

        init(lines: RawHeaderLines) {
            self.lines = lines
            parsed = Mutex(nil)
        }

        func read() -> (headers: HTTPFields, httpVersion: String) {
            parsed.withLock { parsed in
                if let parsed { return parsed }
                let collector = lines?.collected ?? ResponseHeaderCollector()
                let fields = (collector.finishedFields, collector.httpVersion ?? "HTTP/1.1")
                parsed = fields
                return fields
            }
        }
    }
}

/// How far an upload or download has come.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes transferred so far.
    public var completedBytes: Int64
    /// Bytes expected in all, when known.
    public var totalBytes: Int64?
    /// Whether the bytes are the request body going up (else the response body coming down).
    public var isUpload: Bool

    /// Creates a progress value.
    public init(completedBytes: Int64, totalBytes: Int64?, isUpload: Bool = false) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
        self.isUpload = isUpload
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
    /// The rest of what libcurl counted (curl's `-w` variables): sizes, speeds, the peer.
    public var metrics = TransferMetrics()

    /// Creates a timing.
    public init(
        nameLookup: TimeInterval = 0, connect: TimeInterval = 0, tlsHandshake: TimeInterval = 0,
        firstByte: TimeInterval = 0, total: TimeInterval = 0, metrics: TransferMetrics = TransferMetrics()
    ) {
        self.metrics = metrics
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.firstByte = firstByte
        self.total = total
    }
}
