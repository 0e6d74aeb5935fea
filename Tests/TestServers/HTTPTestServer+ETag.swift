import Foundation

extension HTTPTestServer {
    /// `/etag/TAG[?cache-control=…&vary=…]`, after httpbin.org's: 304 Not Modified (no body) when
    /// `If-None-Match` names `"TAG"` (or is `*`), else 200 `{"etag":"TAG"}` with `ETag: "TAG"`,
    /// `Last-Modified`, and the `Cache-Control` and `Vary` given; with `vary`, the body also has
    /// the request's value of each field it names (`"accept":"text/csv"`), so variants differ.
    func respondETag(
        to request: ReceivedRequest, segments: [String], reply: (Int, [(String, String)], Data) -> Bool
    ) -> Bool {
        guard segments.count == 2 else { return reply(400, [], Data()) }
        let tag = "\"" + segments[1] + "\""
        var headers = [("ETag", tag), ("Last-Modified", "Sat, 01 Jan 2000 00:00:00 GMT")]
        var varied = ""
        for item in request.queryItems {
            switch item.name {
            case "cache-control": headers.append(("Cache-Control", item.value))
            case "vary":
                headers.append(("Vary", item.value))
                for name in item.value.split(separator: ",") {
                    let name = name.trimmingCharacters(in: .whitespaces).lowercased()
                    varied += #","\#(name)":"\#(request.value(of: name) ?? "")""#
                }
            default: break
            }
        }
        if let condition = request.value(of: "If-None-Match"),
            condition == "*"
                || condition.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag })
        {
            return reply(304, headers, Data())
        }
        return reply(
            200, headers + [("Content-Type", "application/json")], Data(#"{"etag":"\#(segments[1])"\#(varied)}"#.utf8))
    }
}
