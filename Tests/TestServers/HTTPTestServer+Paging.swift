import Foundation

/// Routes for paging and chains (hooked into `respond(to:on:keepAlive:)`):
///
/// | route | answer |
/// | --- | --- |
/// | `/pages/link?page=N` | 3 pages of 2 items `{"id": …}`; page 1 links to `?page=2` (relative), page 2 to page 3 (absolute), with `rel="last"` in a second `Link` field; `&cookie=V` sets the cookie `pager=V` (`Path=/pages`) |
/// | `/pages/loop?page=N` | page 2 links back to page 1 |
/// | `/pages/evil?page=N` | page 1 links to another host (`http://localhost:PORT`) |
/// | `/pages/body?page=N` | `{"results": […], "next": URL or null}`, 2 pages |
/// | `/pages/cursor?cursor=C` | `{"data": […], "meta": {"next_cursor": …}}`: no cursor, `c2`, `c3`, then none; the cursor is read from the first parameter named `cursor`, or as `?name=` says (`?name=$skiptoken&$skiptoken=C`) |
/// | `/pages/limited?page=N` | 3 pages; page 2 answers 429 `Retry-After: 0` and page 3 503 with a past HTTP date the first time |
/// | `/pages/fail?page=N` | page 2 answers 500 |
/// | `/pages/endless?page=N` | every page links to the next, forever |
/// | `/pages/html` | a page that is not JSON |
/// | `POST /items` | 201 `{"id": "item-N", "name": …}` (N counts the POSTs), `Location: /items/item-N` |
/// | `GET /items/ID` | 200 `{"id": ID}` while ID was created and not deleted, else 404 |
/// | `DELETE /items/ID` | 204 while ID exists, else 404 |
extension HTTPTestServer {
    /// Answers a paging or items route; `reply` writes the response.
    func respondPaging(to request: ReceivedRequest, segments: [String], reply: (Int, [(String, String)], Data) -> Bool)
        -> Bool
    {
        let json = [("Content-Type", "application/json")]
        let page = request.queryItems.first { $0.name == "page" }.flatMap { Int($0.value) } ?? 1
        let base = "http://127.0.0.1:\(port)"
        func items(_ page: Int) -> String { "[{\"id\":\((page - 1) * 2 + 1)},{\"id\":\((page - 1) * 2 + 2)}]" }
        if segments.first == "items" { return respondItems(to: request, segments: segments, reply: reply) }
        switch segments.count > 1 ? segments[1] : "" {
        case "link":
            var headers = json
            if page == 1 { headers.append(("Link", #"<?page=2>; rel="next""#)) }
            // `?cookie=V` on the first page: a session cookie later pages should carry.
            if let cookie = request.queryItems.first(where: { $0.name == "cookie" })?.value {
                headers.append(("Set-Cookie", "pager=\(cookie); Path=/pages"))
            }
            if page == 2 {
                headers.append(
                    ("Link", "<\(base)/pages/link?page=1>; rel=\"prev\", <\(base)/pages/link?page=3>; rel=\"next\""))
            }
            headers.append(("Link", "<\(base)/pages/link?page=3>; rel=\"last\""))
            return reply(200, headers, Data(items(page).utf8))
        case "loop":
            let next = page == 1 ? "/pages/loop?page=2" : "/pages/loop?page=1"
            return reply(200, json + [("Link", "<\(next)>; rel=next")], Data(items(page).utf8))
        case "evil":
            return reply(
                200, json + [("Link", "<http://localhost:\(port)/pages/link?page=2>; rel=next")], Data(items(page).utf8)
            )
        case "body":
            let next = page < 2 ? "\"\(base)/pages/body?page=\(page + 1)\"" : "null"
            return reply(200, json, Data("{\"results\":\(items(page)),\"next\":\(next)}".utf8))
        case "cursor":
            let name = request.queryItems.first { $0.name == "name" }?.value ?? "cursor"
            let cursor = request.queryItems.first { $0.name == name }?.value
            let number = cursor.flatMap { Int($0.dropFirst()) } ?? 1
            let next = number < 3 ? "\"c\(number + 1)\"" : "null"
            return reply(200, json, Data("{\"data\":\(items(number)),\"meta\":{\"next_cursor\":\(next)}}".utf8))
        case "limited":
            let earlier = receivedRequests.filter { $0.target == request.target }.count
            if earlier == 1 && page == 2 { return reply(429, [("Retry-After", "0")], Data()) }
            if earlier == 1 && page == 3 {
                return reply(503, [("Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT")], Data())
            }
            let next = page < 3 ? [("Link", "</pages/limited?page=\(page + 1)>; rel=next")] : []
            return reply(200, json + next, Data(items(page).utf8))
        case "endless":
            return reply(200, json + [("Link", "</pages/endless?page=\(page + 1)>; rel=next")], Data(items(page).utf8))
        case "html":
            return reply(200, [("Content-Type", "text/html")], Data("<html>\u{1B}[31mred</html>".utf8))
        case "fail":
            if page == 2 { return reply(500, json, Data(#"{"message":"boom"}"#.utf8)) }
            return reply(200, json + [("Link", "</pages/fail?page=\(page + 1)>; rel=next")], Data(items(page).utf8))
        default:
            return reply(404, [], Data())
        }
    }

    /// `/items`: a store made of the requests received so far (created by POSTs, removed by DELETEs).
    private func respondItems(
        to request: ReceivedRequest, segments: [String], reply: (Int, [(String, String)], Data) -> Bool
    ) -> Bool {
        let history = receivedRequests
        if segments.count == 1 {
            guard request.method == "POST" else { return reply(405, [], Data()) }
            let number = history.filter { $0.method == "POST" && $0.path == "/items" }.count
            let name =
                (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any])?["name"] as? String ?? ""
            let body = try? JSONSerialization.data(withJSONObject: ["id": "item-\(number)", "name": name])
            return reply(
                201, [("Content-Type", "application/json"), ("Location", "/items/item-\(number)")], body ?? Data())
        }
        let id = segments[1]
        let created = history.filter { $0.method == "POST" && $0.path == "/items" }.count
        let deletedBefore = history.dropLast().contains { $0.method == "DELETE" && $0.path == "/items/\(id)" }
        let exists =
            id.hasPrefix("item-") && (Int(id.dropFirst(5)).map { $0 >= 1 && $0 <= created } ?? false) && !deletedBefore
        switch request.method {
        case "GET":
            return exists
                ? reply(200, [("Content-Type", "application/json")], Data("{\"id\":\"\(id)\"}".utf8))
                : reply(404, [], Data())
        case "DELETE":
            return reply(exists ? 204 : 404, [], Data())
        default:
            return reply(405, [], Data())
        }
    }
}
