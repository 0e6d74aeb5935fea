import MoyaKit

/// A request as the router reads it: method, path segments and query items decoded, headers and
/// body as received.
struct ServeRequest: Sendable {
    var method: String
    /// The path as sent (without the query), for the log.
    var rawPath: String
    /// The query as sent (after `?`), for the log.
    var rawQuery: String?
    /// Query items in order, decoded (`+` is a space); items whose escapes are broken are dropped.
    var queryItems: [(name: String, value: String)]
    var headers: [(name: String, value: String)]
    /// The headers' names lowercased, once: every case a route holds looks some up.
    private var lowercasedNames: [String]
    var body: [UInt8]

    init(method: String, uri: String, headers: [(name: String, value: String)], body: [UInt8]) {
        self.method = method
        self.headers = headers
        lowercasedNames = headers.map { $0.name.lowercased() }
        self.body = body
        let target = uri.firstIndex(of: "#").map { uri[..<$0] } ?? uri[...]
        if let mark = target.firstIndex(of: "?") {
            rawPath = String(target[..<mark])
            rawQuery = String(target[target.index(after: mark)...])
        } else {
            rawPath = String(target)
            rawQuery = nil
        }
        queryItems = rawQuery.map { Self.formItems(Substring($0)) } ?? []
    }

    /// The path's segments percent-decoded, empty ones dropped; `nil` when an escape is broken.
    /// Worked out when the router asks (a fixed answer is given without it).
    var pathSegments: [String]? {
        var segments: [String] = []
        for segment in rawPath.split(separator: "/") {
            guard segment.utf8.contains(UInt8(ascii: "%")) else {
                segments.append(String(segment))
                continue
            }
            guard let decoded = PercentEncoding.decoded(String(segment)) else { return nil }
            segments.append(decoded)
        }
        return segments
    }

    /// `a=1&b=x+y` as decoded items (a form body is written the same way).
    static func formItems(_ text: Substring) -> [(name: String, value: String)] {
        text.split(separator: "&").compactMap { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring?) -> String? {
                PercentEncoding.decoded(String((text ?? "").map { $0 == "+" ? " " : $0 }))
            }
            guard let name = decode(pair.first), let value = decode(pair.count > 1 ? pair[1] : "") else { return nil }
            return (name, value)
        }
    }

    /// The first value of the header `name` (compared without case).
    func header(_ name: String) -> String? {
        let lowercased = name.lowercased()
        return lowercasedNames.firstIndex(of: lowercased).map { headers[$0].value }
    }
}
