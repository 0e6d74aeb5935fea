import Foundation

/// One request as the test server received it.
public struct ReceivedRequest: Sendable, Hashable {
    /// A header field as it arrived: name spelling and order kept.
    public struct Field: Sendable, Hashable {
        /// The name, as sent.
        public let name: String
        /// The value, surrounding blanks removed.
        public let value: String
    }

    /// The method, e.g. `"POST"`.
    public let method: String
    /// The request target as sent, e.g. `"/anything?a=1"`.
    public let target: String
    /// The protocol, e.g. `"HTTP/1.1"`.
    public let version: String
    /// The header fields, in order, repeated names kept.
    public let headers: [Field]
    /// The request line and header block, byte for byte, final blank line included.
    public let rawHead: Data
    /// The body, de-chunked; only its first `HTTPTestServer.recordedBodyLimit` bytes.
    public let body: Data
    /// The length of the whole body.
    public let bodyLength: Int
    /// Whether the body came in chunked transfer encoding.
    public let isChunked: Bool
    /// Which accepted connection carried the request, counting from 1.
    public let connectionNumber: Int
    /// The SHA-256 of the whole body, hex, for `/sha256` (computed as it arrives, never held).
    public var bodySHA256: String? = nil

    /// The path part of the target (of an absolute-form target too, as a proxy receives it).
    public var path: String {
        var origin = Substring(target)
        if origin.hasPrefix("http://") {
            let rest = origin.dropFirst("http://".count)
            origin = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        }
        return String(origin.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// The query items of the target, in order, percent-decoded.
    public var queryItems: [(name: String, value: String)] {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return [] }
        return parts[1].split(separator: "&").map { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            return (decode(pair[0]), pair.count > 1 ? decode(pair[1]) : "")
        }
    }

    /// The values of every field named `name` (case-insensitive), in order.
    public func values(of name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The first value of the field named `name` (case-insensitive).
    public func value(of name: String) -> String? {
        values(of: name).first
    }
}
