import Foundation

/// Routes for long and resumed transfers:
///
/// | route | answer |
/// | --- | --- |
/// | `/drip?duration=S&numbytes=N` | as httpbin's: the head (Content-Length N), then N `*` bytes spread evenly over S seconds |
/// | `/ranged/N?etag=E&mode=cut|stall|ignore-range` | N `TestBytes` with `ETag: "E"` (default `v1`) and `Accept-Ranges: bytes`; `Range: bytes=S-` gets a 206 from S (a 416 with `Content-Range: bytes */N` past the end), unless `If-Range` names another ETag or the mode is `ignore-range` (then the whole body, 200). A request without Range: in mode `cut`, the connection closes after half the body; in mode `stall`, half is sent and the route waits for the client to leave |
extension HTTPTestServer {
    func respondTransfer(
        to request: ReceivedRequest, segments: [String], on connection: ServerConnection,
        reply: (Int, [(String, String)], Data) -> Bool
    ) -> Bool {
        let query = Dictionary(request.queryItems.map { ($0.name, $0.value) }) { first, _ in first }
        switch segments.first {
        case "drip":
            let count = query["numbytes"].flatMap(Int.init) ?? 10
            let duration = query["duration"].flatMap(Double.init) ?? 2
            guard count > 0, count <= 10_000, duration >= 0 else { return reply(400, [], Data()) }
            let head =
                "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(count)\r\nConnection: close\r\n\r\n"
            guard connection.send(Array(head.utf8)) else { return false }
            for _ in 0..<count {
                guard sleep(seconds: duration / Double(count)), connection.send([0x2A]) else { return false }
            }
            return false
        default:
            guard segments.count == 2, let size = Int(segments[1]), size > 0 else { return reply(400, [], Data()) }
            return respondRanged(to: request, size: size, query: query, on: connection, reply: reply)
        }
    }

    private func respondRanged(
        to request: ReceivedRequest, size: Int, query: [String: String], on connection: ServerConnection,
        reply: (Int, [(String, String)], Data) -> Bool
    ) -> Bool {
        let etag = "\"\(query["etag"] ?? "v1")\""
        let fields = [
            ("Content-Type", "application/octet-stream"), ("ETag", etag), ("Accept-Ranges", "bytes"),
            ("Last-Modified", "Sun, 06 Dec 2026 12:00:00 GMT")
        ]
        let mode = query["mode"] ?? ""
        if mode != "ignore-range", let range = request.value(of: "Range"), range.hasPrefix("bytes="),
            range.hasSuffix("-"), let start = Int(range.dropFirst("bytes=".count).dropLast())
        {
            let ifRange = request.value(of: "If-Range")
            if ifRange == nil || ifRange == etag {
                guard start < size else {
                    return reply(416, fields + [("Content-Range", "bytes */\(size)")], Data())
                }
                return reply(
                    206, fields + [("Content-Range", "bytes \(start)-\(size - 1)/\(size)")],
                    TestBytes.data(offset: start, count: size - start))
            }
        }
        let hasRange = request.value(of: "Range") != nil
        if !hasRange && (mode == "cut" || mode == "stall") {
            var head = "HTTP/1.1 200 OK\r\n"
            for (name, value) in fields { head += "\(name): \(value)\r\n" }
            head += "Content-Length: \(size)\r\nConnection: close\r\n\r\n"
            guard connection.send(Array(head.utf8) + Array(TestBytes.data(count: size / 2))) else { return false }
            if mode == "stall" { _ = connection.waitForHangUp { self.isStopped } }
            return false
        }
        return reply(200, fields, TestBytes.data(count: size))
    }
}
