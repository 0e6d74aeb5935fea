import Foundation

extension HTTPTestServer {
    /// `/reply?status=N&type=T&body=TEXT&hex=BYTES&repeat=K&header=Name:value`: answers what the
    /// query says, so a test can be served any body — escapes, invalid UTF-8 (`hex=ff00`), a huge
    /// one (`repeat`: the body K times) — and any status and headers.
    func respondReply(
        to request: ReceivedRequest, reply: (Int, [(String, String)], Data) -> Bool
    ) -> Bool {
        var status = 200
        var headers: [(String, String)] = []
        var body = Data()
        var times = 1
        for item in request.queryItems {
            switch item.name {
            case "status": status = Int(item.value) ?? 200
            case "type": headers.append(("Content-Type", item.value))
            case "body": body += Data(item.value.utf8)
            case "hex":
                var bytes: [UInt8] = []
                var index = item.value.startIndex
                while let next = item.value.index(index, offsetBy: 2, limitedBy: item.value.endIndex) {
                    guard index < next, let byte = UInt8(item.value[index..<next], radix: 16) else { break }
                    bytes.append(byte)
                    index = next
                }
                body += Data(bytes)
            case "repeat": times = max(1, min(Int(item.value) ?? 1, 4_000_000))
            case "header":
                if let colon = item.value.firstIndex(of: ":") {
                    headers.append(
                        (String(item.value[..<colon]), String(item.value[item.value.index(after: colon)...])))
                }
            default: break
            }
        }
        var whole = Data(capacity: body.count * times)
        for _ in 0..<times { whole += body }
        return reply(status, headers, whole)
    }
}
