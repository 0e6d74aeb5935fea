import MoyaKit

/// A request as the router reads it: method, path segments and query items decoded, headers and
/// body as received.
struct ServeRequest: Sendable {
    var method: String
    /// The path as sent (without the query), for the log.
    var rawPath: String
    /// The query as sent (after `?`), for the log.
    var rawQuery: String?
    /// Percent-decoded, empty segments dropped; `nil` when an escape is broken.
    var pathSegments: [String]?
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
        let target = uri.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        rawPath = String(parts.first ?? "")
        rawQuery = parts.count > 1 ? String(parts[1]) : nil
        var segments: [String] = []
        var broken = false
        for segment in rawPath.split(separator: "/") {
            guard segment.utf8.contains(UInt8(ascii: "%")) else {
                segments.append(String(segment))
                continue
            }
            guard let decoded = PercentEncoding.decoded(String(segment)) else {
                broken = true
                break
            }
            segments.append(decoded)
        }
        pathSegments = broken ? nil : segments
        queryItems = rawQuery.map { Self.formItems(Substring($0)) } ?? []
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
