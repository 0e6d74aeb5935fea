import Foundation

/// Routes for transfers that last as long as a test wants, ordered by gates rather than timed:
/// a test (or the pseudo-terminal driver, over HTTP) opens a gate once it has seen what it waits
/// for, and the route goes on.
///
/// | route | answer |
/// | --- | --- |
/// | `/trickle/GATE?first=HEX&rest=HEX&length=L&type=T` | the head and the bytes `first`, then, once GATE opens, the bytes `rest`; the connection then closes. `L`: `exact` (default; Content-Length of both parts), `none` (no Content-Length: the body ends when the connection does) or a number sent as Content-Length whatever the body. `T`: the Content-Type (default `text/plain`) |
/// | `/trickle/GATE?…&wait=MS` | the same, but `rest` goes after MS milliseconds instead of a gate |
/// | `/gated-upload/GATE` | reads the request body only once GATE opens (an upload larger than the socket buffers stalls until then); answers `received N bytes` |
/// | `/gate/GATE` | opens GATE; 204 |
/// | `/endless/NAME?type=T` | the head (Content-Type T, default `application/octet-stream`, no Content-Length), then a body that never ends: 16 KiB every 10 ms until the client leaves, when the gate `endless-closed-NAME` opens |
extension HTTPTestServer {
    func respondGated(
        to request: ReceivedRequest, segments: [String], on connection: ServerConnection,
        reply: (Int, [(String, String)], Data) -> Bool
    ) -> Bool {
        guard segments.count == 2 else { return reply(404, [], Data()) }
        let gate = segments[1]
        switch segments[0] {
        case "gate":
            openGate(gate)
            return reply(204, [], Data())
        case "endless":
            return endless(request, name: gate, on: connection)
        case "gated-upload":
            return reply(200, [("Content-Type", "text/plain")], Data("received \(request.bodyLength) bytes\n".utf8))
        default:
            return trickle(request, gate: gate, on: connection)
        }
    }

    /// Holds the body of a `/gated-upload/GATE` request unread until GATE opens.
    func holdUpload(target: String) {
        let segments = target.split(separator: "/")
        guard segments.count == 2, segments[0] == "gated-upload" else { return }
        _ = waitForGate(String(segments[1]))
    }

    private func trickle(_ request: ReceivedRequest, gate: String, on connection: ServerConnection) -> Bool {
        let query = Dictionary(request.queryItems.map { ($0.name, $0.value) }) { first, _ in first }
        let first = Self.bytes(hex: query["first"] ?? "")
        let rest = Self.bytes(hex: query["rest"] ?? "")
        var head = "HTTP/1.1 200 OK\r\nContent-Type: \(query["type"] ?? "text/plain")\r\n"
        switch query["length"] ?? "exact" {
        case "exact": head += "Content-Length: \(first.count + rest.count)\r\n"
        case "none": break
        case let declared: head += "Content-Length: \(declared)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        guard connection.send(Array(head.utf8) + first) else { return false }
        if let wait = query["wait"].flatMap(Int.init) {
            guard sleep(seconds: Double(wait) / 1000) else { return false }
        } else {
            guard waitForGate(gate) else { return false }
        }
        _ = connection.send(rest)
        return false
    }

    private func endless(_ request: ReceivedRequest, name: String, on connection: ServerConnection) -> Bool {
        let type = request.queryItems.first { $0.name == "type" }?.value ?? "application/octet-stream"
        let head = "HTTP/1.1 200 OK\r\nContent-Type: \(type)\r\nConnection: close\r\n\r\n"
        var alive = connection.send(Array(head.utf8))
        let piece = [UInt8](repeating: 0x2A, count: 16 << 10)
        while alive && !isStopped {
            alive = connection.send(piece) && sleep(seconds: 0.01)
        }
        if !isStopped { openGate("endless-closed-" + name) }
        return false
    }

    /// `hex` (two digits a byte) as bytes; what does not parse is left out.
    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap { index in
            UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16)
        }
    }
}
