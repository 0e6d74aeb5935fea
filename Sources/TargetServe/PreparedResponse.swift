import NIOCore
import NIOHTTP1

/// A response as it goes on the wire: the status line and headers encoded once (the fixed answers
/// of cases without values once at start, shared by every request), the `Date` and `Connection`
/// headers added per request, written with the body as one buffer.
struct PreparedResponse: Sendable {
    /// The status line and headers, `Content-Length` included, each line ended by CRLF.
    private var head: ByteBuffer
    /// `nil` for a status that has no body (1xx, 204, 304).
    private var body: ByteBuffer?
    /// The sample sets its own `Date`.
    private var hasDate = false
    /// `Access-Control-Expose-Headers` naming the headers a page's script may read, with CRLF;
    /// written when the answer carries CORS headers.
    private var exposeLine: String?

    /// `response`, whose headers are safe to write (`ServeResponder.safeHeader`), framing ones
    /// left out.
    init(_ response: ServeResponse) {
        let status = HTTPResponseStatus(statusCode: response.status)
        var head = ByteBuffer()
        head.writeString("HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n")
        for header in response.headers {
            head.writeString("\(header.name): \(header.value)\r\n")
            if header.name.lowercased() == "date" { hasDate = true }
        }
        if !(100..<200).contains(response.status), response.status != 204, response.status != 304 {
            head.writeString("Content-Length: \(response.body.count)\r\n")
            body = ByteBuffer(bytes: response.body)
        }
        self.head = head
        exposeLine = CORSPolicy.exposedNames(of: response.headers).map { "Access-Control-Expose-Headers: \($0)\r\n" }
    }

    /// The bytes to send: for HEAD without the body; `Connection: close` when the connection
    /// ends after it, `Connection: keep-alive` when an HTTP/1.0 client asked to keep it; `cors`,
    /// the request's CORS lines (`CORSPolicy.lines(origin:)`), with the exposed headers after them.
    func encoded(
        isHead: Bool, keepAlive: Bool, version: HTTPVersion, cors: String? = nil, allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: head.readableBytes + 64 + (body?.readableBytes ?? 0))
        buffer.writeImmutableBuffer(head)
        if let cors {
            buffer.writeString(cors)
            if let exposeLine { buffer.writeString(exposeLine) }
        }
        if !hasDate {
            buffer.writeStaticString("Date: ")
            buffer.writeString(DateHeader.now)
            buffer.writeStaticString("\r\n")
        }
        if !keepAlive {
            buffer.writeStaticString("Connection: close\r\n")
        } else if version.minor == 0 {
            buffer.writeStaticString("Connection: keep-alive\r\n")
        }
        buffer.writeStaticString("\r\n")
        if !isHead, let body { buffer.writeImmutableBuffer(body) }
        return buffer
    }
}
