import Foundation

/// The routes, after httpbin.org:
///
/// | route | answer |
/// | --- | --- |
/// | `/get`, `/anything[/…]`, `/post`, `/put`, `/patch`, `/delete` | the request echoed as JSON (`EchoedRequest`) |
/// | `/status/N[?body=TEXT]` | status N, body TEXT or empty (3xx: `Location: /get`) |
/// | `/delay/MS` | waits MS milliseconds, then echoes |
/// | `/redirect/N` | 302 chain of N hops ending at `/get` |
/// | `/redirect-to?url=U&status=302` | redirects to U (`status_code=` works too) |
/// | `/bytes/N` | N `TestBytes`, Content-Length, streamed |
/// | `/stream-bytes/N` | N `TestBytes`, chunked |
/// | `/truncated/N` | announces N bytes, sends half, closes |
/// | `/headers` | `{"headers": [[name, value], …]}` |
/// | `/long-link/N` | `[]` with a `Link` field line of N bytes (a next link padded) |
/// | `/response-headers?Name=v&Name=w` | those response fields, in order |
/// | `/basic-auth/USER/PASS`, `/bearer[/TOKEN]` | 200 when the credentials match (any bearer token, or TOKEN), else 401 |
/// | `/flaky/NAME?failures=N[&status=S][&header=Name:value]` | the first N requests to this very URL answer S (503) with those headers, then the request echoed |
/// | `/json` | a fixed JSON document (`HTTPTestServer.jsonDocument`) |
/// | `/httpbin-get` | the request as httpbin.org's `/get` answers (args and headers as objects), with `items` and `json` |
/// | `/drop` | closes the connection without answering |
/// | `/slow-body` | headers and 10 of 1000 bytes, then nothing until the client leaves |
/// | `/trickle/GATE?…`, `/gated-upload/GATE`, `/gate/GATE`, `/endless/NAME` | a body in two parts with a gate between, an upload read only once a gate opens, a gate opened, a body without end (`HTTPTestServer+Trickle`) |
/// | `/sha256` | `HEX SIZE`: the request body's SHA-256 and length, digested as it arrives (any size, little memory) |
/// | `/drip?…`, `/ranged/N?…` | a body dripped over seconds, a resource served by ranges (`HTTPTestServer+Transfers`) |
/// | `/gzip` | `/json`'s document, `Content-Encoding: gzip` |
/// | `/gzip-zeros/N` | N zero bytes gzip-compressed (a "gzip bomb" for large N) |
/// | `/oauth/token`, `/oauth/protected` | an OAuth 2.0 token endpoint and a route it guards (`OAuthTestAuthority`) |
/// | `/pages/…`, `/items[/ID]` | paging and a create/get/delete store (`HTTPTestServer+Paging`) |
/// | `/digest-auth/auth/USER/PASS/MD5|SHA-256[/stale]` | HTTP Digest authentication (`HTTPTestServer+Digest`) |
/// | `/cookies[/set|delete|require…]` | cookies echoed, set, deleted, required (`HTTPTestServer+Cookies`) |
/// | `/etag/TAG[?cache-control=…&vary=…]` | 304 when If-None-Match names "TAG", else 200 with that ETag (`HTTPTestServer+ETag`) |
/// | `/hmac-signed[/…]` | 200 when `X-Signature` is the HMAC of method, path, `X-Timestamp`, body (`HTTPTestServer+Signed`) |
extension HTTPTestServer {
    /// The body of `/json`.
    public static let jsonDocument =
        #"{"slideshow":{"author":"Yours Truly","date":"date of publication","slides":[{"title":"Wake up to WonderWidgets!","type":"all"},{"items":["Why WonderWidgets are great","Who buys WonderWidgets"],"title":"Overview","type":"all"}],"title":"Sample Slide Show"}}"#

    /// Answers `request`; returns false when the connection must close.
    func respond(to request: ReceivedRequest, on connection: ServerConnection, keepAlive: Bool) -> Bool {
        let segments = request.path.split(separator: "/").map(String.init)
        let first = segments.first ?? ""
        let number = segments.count > 1 ? Int(segments[1]) : nil
        let reply = { (status: Int, headers: [(String, String)], body: Data) -> Bool in
            self.write(status: status, headers: headers, body: body, for: request, on: connection, keepAlive: keepAlive)
        }
        let echo = {
            reply(200, [("Content-Type", "application/json")], EchoJSON.render(request, baseURL: self.baseURL))
        }

        switch first {
        case "get", "post", "put", "patch", "delete":
            let allowed = first == "get" ? ["GET", "HEAD"] : [first.uppercased()]
            return allowed.contains(request.method) ? echo() : reply(405, [], Data())
        case "anything":
            return echo()
        case "status":
            guard let status = number, (200...999).contains(status) else { return reply(400, [], Data()) }
            var headers: [(String, String)] = []
            if [301, 302, 303, 307, 308].contains(status) { headers.append(("Location", "/get")) }
            if status == 401 { headers.append(("WWW-Authenticate", #"Basic realm="test""#)) }
            // `?header=Name:value` adds a response header (e.g. Retry-After on a 503).
            for item in request.queryItems where item.name == "header" {
                if let colon = item.value.firstIndex(of: ":") {
                    headers.append(
                        (String(item.value[..<colon]), String(item.value[item.value.index(after: colon)...])))
                }
            }
            let body = request.queryItems.first { $0.name == "body" }.map { Data($0.value.utf8) } ?? Data()
            return reply(status, headers, body)
        case "flaky":
            // The first `failures` requests to this very URL fail (the one being answered counts).
            let query = request.queryItems
            let failures = query.first { $0.name == "failures" }.flatMap { Int($0.value) } ?? 1
            let status = query.first { $0.name == "status" }.flatMap { Int($0.value) } ?? 503
            let seen = receivedRequests.filter { $0.target == request.target }.count
            guard seen <= failures else { return echo() }
            var headers: [(String, String)] = []
            for item in query where item.name == "header" {
                if let colon = item.value.firstIndex(of: ":") {
                    headers.append(
                        (String(item.value[..<colon]), String(item.value[item.value.index(after: colon)...])))
                }
            }
            return reply(status, headers, Data())
        case "delay":
            guard let milliseconds = number, milliseconds >= 0 else { return reply(400, [], Data()) }
            guard sleep(seconds: Double(milliseconds) / 1000) else { return false }
            return echo()
        case "redirect":
            guard let hops = number, hops > 0 else { return reply(400, [], Data()) }
            let location = hops == 1 ? "/get" : "/redirect/\(hops - 1)"
            return reply(302, [("Location", location)], Data("redirecting to \(location)".utf8))
        case "redirect-to":
            let query = request.queryItems
            guard let target = query.first(where: { $0.name == "url" })?.value else { return reply(400, [], Data()) }
            let status =
                query.first { $0.name == "status" || $0.name == "status_code" }.flatMap { Int($0.value) } ?? 302
            return reply(status, [("Location", target)], Data("redirecting to \(target)".utf8))
        case "bytes", "stream-bytes", "truncated":
            guard let count = number, count >= 0 else { return reply(400, [], Data()) }
            return streamTestBytes(
                count: count, chunked: first == "stream-bytes", truncated: first == "truncated",
                for: request, on: connection, keepAlive: keepAlive)
        case "headers":
            return reply(200, [("Content-Type", "application/json")], EchoJSON.render(headersOf: request))
        case "long-link":
            // A `Link` field line of N bytes in all ("Link: " and CRLF included), then `[]`.
            guard let length = number, length >= 43 else { return reply(400, [], Data()) }
            let link = "</pages/link?page=2&pad=" + String(repeating: "a", count: length - 43) + ">; rel=next"
            return reply(200, [("Content-Type", "application/json"), ("Link", link)], Data("[]".utf8))
        case "response-headers":
            let fields = request.queryItems.map { ($0.name, $0.value) }
            return reply(200, [("Content-Type", "application/json")] + fields, EchoJSON.render(pairs: fields))
        case "basic-auth":
            guard segments.count == 3 else { return reply(400, [], Data()) }
            let expected = "Basic " + Data("\(segments[1]):\(segments[2])".utf8).base64EncodedString()
            guard request.value(of: "Authorization") == expected else {
                return reply(401, [("WWW-Authenticate", #"Basic realm="Fake Realm""#)], Data())
            }
            return reply(
                200, [("Content-Type", "application/json")],
                Data(#"{"authenticated":true,"user":\#(EchoJSON.quote(segments[1]))}"#.utf8))
        case "bearer":
            guard let authorization = request.value(of: "Authorization"), authorization.hasPrefix("Bearer ") else {
                return reply(401, [("WWW-Authenticate", "Bearer")], Data())
            }
            let token = String(authorization.dropFirst("Bearer ".count))
            // `/bearer/TOKEN` takes that token only.
            if segments.count > 1 && token != segments[1] {
                return reply(401, [("WWW-Authenticate", #"Bearer error="invalid_token""#)], Data())
            }
            return reply(
                200, [("Content-Type", "application/json")],
                Data(#"{"authenticated":true,"token":\#(EchoJSON.quote(token))}"#.utf8))
        case "json":
            return reply(200, [("Content-Type", "application/json")], Data(Self.jsonDocument.utf8))
        case "httpbin-get":
            return reply(
                200, [("Content-Type", "application/json"), ("X-Served-By", "loopback")],
                EchoJSON.renderAsHTTPBin(request, baseURL: baseURL))
        case "gzip":
            return reply(
                200, [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                Self.gzip(Data(Self.jsonDocument.utf8)))
        case "gzip-zeros":
            guard let count = number, count >= 0 else { return reply(400, [], Data()) }
            return reply(
                200, [("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip")],
                Self.gzip(Data(count: count)))
        case "oauth":
            return respondOAuth(to: request, segments: segments, reply: reply)
        case "pages", "items": return respondPaging(to: request, segments: segments, reply: reply)
        case "digest-auth": return respondDigest(to: request, segments: segments, reply: reply)
        case "hmac-signed": return respondSigned(to: request, reply: reply)
        case "etag": return respondETag(to: request, segments: segments, reply: reply)
        case "cookies": return respondCookies(to: request, segments: segments, reply: reply)
        case "drop":
            // `/drop/MS`: after that many milliseconds, so that callers can join the request first.
            if let milliseconds = number, milliseconds > 0 { _ = sleep(seconds: Double(milliseconds) / 1000) }
            return false
        case "trickle", "gated-upload", "gate", "endless":
            return respondGated(to: request, segments: segments, on: connection, reply: reply)
        case "reply": return respondReply(to: request, reply: reply)
        case "sha256":
            // `/sha256`: the body's SHA-256 and size, computed as it arrived (`StreamingDigest`).
            let answer = "\(request.bodySHA256 ?? "-") \(request.bodyLength)\n"
            return reply(200, [("Content-Type", "text/plain")], Data(answer.utf8))
        case "drip", "ranged":
            return respondTransfer(to: request, segments: segments, on: connection, reply: reply)
        case "slow-body":
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\n"
            guard connection.send(Array(head.utf8) + [UInt8](repeating: 0x2A, count: 10)) else { return false }
            _ = connection.waitForHangUp { self.isStopped }
            return false
        default:
            return reply(404, [], Data())
        }
    }

    /// `data` compressed by gzip(1) (Debian's essential gzip package; no zlib binding needed).
    static func gzip(_ data: Data) -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c", "-n"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        guard (try? process.run()) != nil else { return Data() }
        let writer = Thread {
            input.fileHandleForWriting.write(data)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return compressed
    }

    private func write(
        status: Int, headers: [(String, String)], body: Data, for request: ReceivedRequest,
        on connection: ServerConnection, keepAlive: Bool
    ) -> Bool {
        var head = "HTTP/1.1 \(status) \(Self.reason(for: status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let hasNoBody = (100...199).contains(status) || status == 204 || status == 304
        if !hasNoBody { head += "Content-Length: \(body.count)\r\n" }
        head += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        var bytes = Array(head.utf8)
        if request.method != "HEAD" && !hasNoBody { bytes += body }
        return connection.send(bytes)
    }

    private func streamTestBytes(
        count: Int, chunked: Bool, truncated: Bool, for request: ReceivedRequest,
        on connection: ServerConnection, keepAlive: Bool
    ) -> Bool {
        var head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
        head += chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: \(count)\r\n"
        head += keepAlive && !truncated ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        guard connection.send(Array(head.utf8)) else { return false }
        if request.method == "HEAD" { return keepAlive }

        let limit = truncated ? count / 2 : count
        let pieceSize = chunked ? 8 * 1024 : 256 * 1024
        var offset = 0
        while offset < limit {
            if isStopped { return false }
            let length = min(pieceSize, limit - offset)
            let sent = TestBytes.withBytes(offset: offset, count: length) { piece -> Bool in
                guard chunked else { return connection.send(piece) }
                return connection.send(Array("\(String(length, radix: 16))\r\n".utf8))
                    && connection.send(piece) && connection.send([13, 10])
            }
            guard sent else { return false }
            offset += length
        }
        if truncated { return false }
        if chunked { return connection.send(Array("0\r\n\r\n".utf8)) && keepAlive }
        return keepAlive
    }

    static func reason(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}
