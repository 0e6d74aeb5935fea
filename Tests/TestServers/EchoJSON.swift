import ContentDigest
import Foundation
import MoyaKit

/// Renders the JSON the echo routes answer with; decode it with `EchoedRequest`.
///
/// Written by hand rather than with JSONSerialization so that keys and header order are stable.
enum EchoJSON {
    /// Bodies up to this size are fingerprinted (SHA-256 is slow in debug builds).
    static let fingerprintLimit = 8 * 1024 * 1024

    static func render(_ request: ReceivedRequest, baseURL: URL) -> Data {
        let isBodyComplete = request.body.count == request.bodyLength
        var members: [String] = [
            "\"method\":\(quote(request.method))",
            "\"url\":\(quote(baseURL.absoluteString + request.target))",
            "\"path\":\(quote(request.path))",
            "\"args\":\(pairs(request.queryItems.map { ($0.name, $0.value) }))",
            "\"headers\":\(pairs(request.headers.map { ($0.name, $0.value) }))",
            "\"body_size\":\(request.bodyLength)",
            "\"chunked\":\(request.isChunked)",
            "\"connection\":\(request.connectionNumber)"
        ]
        if isBodyComplete && request.bodyLength <= fingerprintLimit {
            members.append("\"body_base64\":\(quote(request.body.base64EncodedString()))")
            members.append("\"body_text\":\(String(data: request.body, encoding: .utf8).map(quote) ?? "null")")
            members.append("\"body_sha256\":\(quote(SHA256.hexDigest(of: request.body)))")
        }
        if isBodyComplete,
            let parts = MultipartParser.parts(of: request.body, contentType: request.value(of: "Content-Type"))
        {
            members.append("\"parts\":[" + parts.map(render).joined(separator: ",") + "]")
        }
        return Data(("{" + members.joined(separator: ",") + "}").utf8)
    }

    /// httpbin.org's `/get`: `args` and `headers` as objects (the last of a repeated name wins),
    /// `url`, `origin`, and two fixed members to filter and count: `items` and `json`.
    static func renderAsHTTPBin(_ request: ReceivedRequest, baseURL: URL) -> Data {
        func object(_ list: [(String, String)]) -> String {
            var seen: [String: String] = [:]
            var order: [String] = []
            for (name, value) in list {
                if seen[name] == nil { order.append(name) }
                seen[name] = value
            }
            return "{" + order.map { "\(quote($0)):\(quote(seen[$0] ?? ""))" }.joined(separator: ",") + "}"
        }
        let members = [
            "\"args\":\(object(request.queryItems.map { ($0.name, $0.value) }))",
            "\"headers\":\(object(request.headers.map { ($0.name, $0.value) }))",
            "\"origin\":\"127.0.0.1\"",
            "\"url\":\(quote(baseURL.absoluteString + request.target))",
            "\"items\":[{\"name\":\"pen\",\"price\":5},{\"name\":\"lamp\",\"price\":25},{\"name\":\"desk\",\"price\":120}]",
            "\"json\":{\"count\":3,\"tags\":[],\"ratio\":0.5,\"ok\":true,\"none\":null}"
        ]
        return Data(("{" + members.joined(separator: ",") + "}").utf8)
    }

    static func render(headersOf request: ReceivedRequest) -> Data {
        Data("{\"headers\":\(pairs(request.headers.map { ($0.name, $0.value) }))}".utf8)
    }

    static func render(pairs list: [(String, String)]) -> Data {
        Data(pairs(list).utf8)
    }

    private static func render(_ part: ParsedPart) -> String {
        var members = [
            "\"name\":\(part.name.map(quote) ?? "null")",
            "\"filename\":\(part.fileName.map(quote) ?? "null")",
            "\"content_type\":\(part.contentType.map(quote) ?? "null")",
            "\"size\":\(part.content.count)",
            "\"text\":\(String(data: part.content, encoding: .utf8).map(quote) ?? "null")"
        ]
        if part.content.count <= fingerprintLimit {
            members.append("\"sha256\":\(quote(SHA256.hexDigest(of: part.content)))")
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    private static func pairs(_ list: [(String, String)]) -> String {
        "[" + list.map { "[\(quote($0.0)),\(quote($0.1))]" }.joined(separator: ",") + "]"
    }

    /// `text` as a JSON string literal.
    static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let digits = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
