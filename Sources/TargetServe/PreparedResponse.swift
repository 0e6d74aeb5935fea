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

    /// The head of an answer whose body is written as it comes (a live answer, `--proxy`): its
    /// status and headers, the request's CORS lines with the exposed headers, `Date` unless the
    /// answer has one, `Transfer-Encoding: chunked` when `chunked`, `Connection: close` when
    /// the connection ends after it.
    static func streamedHead(
        status: Int, headers: [(name: String, value: String)], chunked: Bool, closes: Bool, version: HTTPVersion,
        cors: String?, allocator: ByteBufferAllocator
    ) -> ByteBuffer {
        let phrase = HTTPResponseStatus(statusCode: status).reasonPhrase
        var buffer = allocator.buffer(capacity: 256)
        buffer.writeString("HTTP/1.1 \(status) \(phrase)\r\n")
        var hasDate = false
        for header in headers {
            buffer.writeString("\(header.name): \(header.value)\r\n")
            if header.name.lowercased() == "date" { hasDate = true }
        }
        if let cors {
            buffer.writeString(cors)
            if let names = CORSPolicy.exposedNames(of: headers) {
                buffer.writeString("Access-Control-Expose-Headers: \(names)\r\n")
            }
        }
        if !hasDate {
            buffer.writeStaticString("Date: ")
            buffer.writeString(DateHeader.now)
            buffer.writeStaticString("\r\n")
        }
        if chunked { buffer.writeStaticString("Transfer-Encoding: chunked\r\n") }
        if closes {
            buffer.writeStaticString("Connection: close\r\n")
        } else if version.minor == 0 {
            buffer.writeStaticString("Connection: keep-alive\r\n")
        }
        buffer.writeStaticString("\r\n")
        return buffer
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
