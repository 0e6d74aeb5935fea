import Foundation

extension HTTPTestServer {
    /// Cookie routes, after httpbin.org's:
    ///
    /// | route | answer |
    /// | --- | --- |
    /// | `/cookies` | `{"cookies":{"N":"V",…}}` from the request's `Cookie` fields, keys sorted |
    /// | `/cookies/set?N=V&…` | 302 to `/cookies`, with `Set-Cookie: N=V; Path=/` for each |
    /// | `/cookies/delete?N&…` | 302 to `/cookies`, with `Set-Cookie: N=; Max-Age=0; Path=/` for each |
    /// | `/cookies/require/N` | 200 `{"cookie":"V"}` when cookie N was sent, else 401 |
    /// | `/cookies/login` | 302 to `/cookies/require/session` with `Set-Cookie: session=server-s3cr3t; Path=/` |
    /// | `/cookies/flood/N?size=S&hex=H` | 302 to `/cookies/echo`, with N `Set-Cookie: cN=VALUE; Path=/` (VALUE: S `x`s, or the bytes of hex H) |
    /// | `/cookies/login-here` | 200 `{"ok":true}` with `Set-Cookie: session=server-s3cr3t; Path=/` |
    /// | `/cookies/echo[/…]` | as `/cookies`, under any path |
    /// | `/cookies/raw?set=LINE&…&to=URL` | 302 to URL (else 200 `{}`), a `Set-Cookie: LINE` for each `set` |
    func respondCookies(
        to request: ReceivedRequest, segments: [String], reply: (Int, [(String, String)], Data) -> Bool
    ) -> Bool {
        let sent = Self.cookies(of: request)
        switch segments.dropFirst().first {
        case nil, "echo":
            return reply(200, [("Content-Type", "application/json")], Self.json(["cookies": sent]))
        case "set":
            let fields = request.queryItems.map { ("Set-Cookie", "\($0.name)=\($0.value); Path=/") }
            return reply(302, [("Location", "/cookies")] + fields, Data())
        case "delete":
            let fields = request.queryItems.map { ("Set-Cookie", "\($0.name)=; Max-Age=0; Path=/") }
            return reply(302, [("Location", "/cookies")] + fields, Data())
        case "login-here":
            return reply(
                200, [("Content-Type", "application/json"), ("Set-Cookie", "session=server-s3cr3t; Path=/")],
                Data(#"{"ok":true}"#.utf8))
        case "login":
            return reply(
                302, [("Location", "/cookies/require/session"), ("Set-Cookie", "session=server-s3cr3t; Path=/")], Data()
            )
        case "flood":
            let count = segments.count == 3 ? min(Int(segments[2]) ?? 0, 100_000) : 0
            let size = min(request.queryItems.first { $0.name == "size" }.flatMap { Int($0.value) } ?? 1, 1 << 20)
            var value = String(repeating: "x", count: size)
            if let hex = request.queryItems.first(where: { $0.name == "hex" })?.value {
                var bytes: [UInt8] = []
                var index = hex.startIndex
                while let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), index < next,
                    let byte = UInt8(hex[index..<next], radix: 16)
                {
                    bytes.append(byte)
                    index = next
                }
                value = String(decoding: bytes, as: UTF8.self)
            }
            let fields = (0..<count).map { ("Set-Cookie", "c\($0)=\(value); Path=/") }
            return reply(302, [("Location", "/cookies/echo")] + fields, Data())
        case "raw":
            let fields = request.queryItems.filter { $0.name == "set" }.map { ("Set-Cookie", $0.value) }
            guard let target = request.queryItems.first(where: { $0.name == "to" })?.value else {
                return reply(200, [("Content-Type", "application/json")] + fields, Data("{}".utf8))
            }
            return reply(302, [("Location", target)] + fields, Data())
        case "require":
            guard segments.count == 3, let value = sent[segments[2]] else {
                return reply(401, [("Content-Type", "application/json")], Data(#"{"error":"no cookie"}"#.utf8))
            }
            return reply(200, [("Content-Type", "application/json")], Self.json(["cookie": value]))
        default:
            return reply(404, [], Data())
        }
    }

    /// The cookies of `request`'s `Cookie` fields, by name (a later one of a name wins).
    static func cookies(of request: ReceivedRequest) -> [String: String] {
        var cookies: [String: String] = [:]
        for field in request.values(of: "Cookie") {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { continue }
                cookies[name] = parts.count > 1 ? String(parts[1]) : ""
            }
        }
        return cookies
    }

    private static func json(_ object: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
    }
}
