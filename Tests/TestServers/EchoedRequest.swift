import Foundation

/// What the echo routes (`/get`, `/anything`, …) answer, decoded.
public struct EchoedRequest: Decodable, Sendable {
    /// A multipart part the server parsed.
    public struct Part: Decodable, Sendable {
        /// The form field name.
        public let name: String?
        /// The file name, if the part had one.
        public let filename: String?
        /// The part's Content-Type, if it had one.
        public let contentType: String?
        /// The content length.
        public let size: Int
        /// The content as text, when it is UTF-8.
        public let text: String?
        /// The SHA-256 of the content, in hex.
        public let sha256: String?

        enum CodingKeys: String, CodingKey {
            case name, filename, size, text, sha256
            case contentType = "content_type"
        }
    }

    /// The method.
    public let method: String
    /// The full URL as the server saw it.
    public let url: String
    /// The path.
    public let path: String
    /// The query items, in order, as `[name, value]`.
    public let args: [[String]]
    /// The header fields, in order, as `[name, value]`.
    public let headers: [[String]]
    /// The body length.
    public let bodySize: Int
    /// Whether the body came chunked.
    public let chunked: Bool
    /// Which accepted connection carried the request, counting from 1.
    public let connection: Int
    /// The body in base64 (bodies up to 8 MiB).
    public let bodyBase64: String?
    /// The body as text, when it is UTF-8 (bodies up to 8 MiB).
    public let bodyText: String?
    /// The SHA-256 of the body, in hex (bodies up to 8 MiB).
    public let bodySHA256: String?
    /// The multipart parts, when the body was multipart.
    public let parts: [Part]?

    enum CodingKeys: String, CodingKey {
        case method, url, path, args, headers, chunked, connection, parts
        case bodySize = "body_size"
        case bodyBase64 = "body_base64"
        case bodyText = "body_text"
        case bodySHA256 = "body_sha256"
    }

    /// Decodes an echo response body.
    public init(from data: Data) throws {
        self = try JSONDecoder().decode(EchoedRequest.self, from: data)
    }

    /// The values of every header named `name` (case-insensitive), in order.
    public func headerValues(_ name: String) -> [String] {
        headers.filter { $0.count == 2 && $0[0].lowercased() == name.lowercased() }.map { $0[1] }
    }
}
