import FoundationEssentials
import MoyaKit

/// Applies `--query` edits and a `--json`/`--data` body to the request as the case built it
/// (before `-H`, so `-H 'Content-Type: …'` still has the last word).
struct RequestOverridePlugin: PluginType {
    var queryEdits: [String]
    var body: OverrideBody?

    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        var request = request
        if !queryEdits.isEmpty, let url = request.url {
            request.url = Self.applying(queryEdits, to: url)
        }
        if let body {
            switch body.contents {
            case .bytes(let data):
                request.httpBody = data
                request.bodyFileURL = nil
            case .file(let url, _):
                request.httpBody = nil
                request.bodyFileURL = url
                // libcurl labels a body from memory as a form, but not one it streams other than
                // by POST: the label is set here, so the request is the same whatever its size.
                if request.httpMethod != "POST", request.value(forHTTPHeaderField: "Content-Type") == nil,
                    body.contentType == nil
                {
                    request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
                }
            }
            request.multipartParts = nil
            if let contentType = body.contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        }
        return request
    }

    /// `url` with each edit applied in order. The first `NAME=VALUE` for a name replaces every
    /// `NAME` the case sent (where the first was, or at the end); each later one for that name is
    /// added after it, so `tag=a`, `tag=b` sends `tag=a&tag=b` as curl's URL and xh's `tag==a
    /// tag==b` do. `NAME` removes every `NAME`, and a `NAME=VALUE` after it starts again. Names
    /// match as decoded (`tag%5B%5D` is `tag[]`); names and values are percent-encoded as a
    /// query component.
    static func applying(_ edits: [String], to url: URL) -> URL {
        let text = url.absoluteString
        let fragmentStart = text.firstIndex(of: "#") ?? text.endIndex
        let beforeFragment = text[..<fragmentStart]
        let queryStart = beforeFragment.firstIndex(of: "?")
        let base = queryStart.map { String(beforeFragment[..<$0]) } ?? String(beforeFragment)
        var pairs: [String] =
            queryStart.map { beforeFragment[beforeFragment.index(after: $0)...] }
            .map { $0.split(separator: "&").map(String.init) } ?? []
        // Names this command line has set since the case's (or a removal): later values add.
        var setHere: Set<String> = []
        for edit in edits {
            let (name, value) =
                edit.firstIndex(of: "=").map { (String(edit[..<$0]), String(edit[edit.index(after: $0)...])) }
                ?? (edit, nil)
            guard let value else {
                pairs.removeAll { Self.name(of: $0) == name }
                setHere.remove(name)
                continue
            }
            let pair = PercentEncoding.escapeQueryComponent(name) + "=" + PercentEncoding.escapeQueryComponent(value)
            if setHere.contains(name), let last = pairs.lastIndex(where: { Self.name(of: $0) == name }) {
                pairs.insert(pair, at: last + 1)
                continue
            }
            let position = pairs.firstIndex { Self.name(of: $0) == name }
            pairs.removeAll { Self.name(of: $0) == name }
            pairs.insert(pair, at: min(position ?? pairs.count, pairs.count))
            setHere.insert(name)
        }
        let rebuilt = base + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&")) + text[fragmentStart...]
        return URL(string: rebuilt) ?? url
    }

    /// A pair's name, decoded (as written when it does not decode).
    private static func name(of pair: String) -> String {
        let encoded = String(pair.prefix { $0 != "=" })
        return PercentEncoding.decoded(encoded) ?? encoded
    }
}
