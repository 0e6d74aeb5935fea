import NIOCore
import NIOHTTP1

/// A response as the encoder takes it: status, headers with the framing (`Content-Length`), body
/// in a buffer. The answers of cases without values are prepared once at start and shared by every
/// request (the buffer is copied on write, never here).
struct PreparedResponse: Sendable {
    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    /// `nil` for a status that has no body (1xx, 204, 304).
    var body: ByteBuffer?

    init(_ response: ServeResponse) {
        status = HTTPResponseStatus(statusCode: response.status)
        headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        let hasBody = !(100..<200).contains(response.status) && response.status != 204 && response.status != 304
        if hasBody {
            headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
            body = ByteBuffer(bytes: response.body)
        }
    }
}
