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

    /// `url` with each edit applied in order: `NAME=VALUE` replaces every `NAME` (or adds it at
    /// the end), `NAME` removes them. Names and values are percent-encoded as a query component.
    static func applying(_ edits: [String], to url: URL) -> URL {
        let text = url.absoluteString
        let fragmentStart = text.firstIndex(of: "#") ?? text.endIndex
        let beforeFragment = text[..<fragmentStart]
        let queryStart = beforeFragment.firstIndex(of: "?")
        let base = queryStart.map { String(beforeFragment[..<$0]) } ?? String(beforeFragment)
        var pairs: [String] =
            queryStart.map { beforeFragment[beforeFragment.index(after: $0)...] }
            .map { $0.split(separator: "&").map(String.init) } ?? []
        for edit in edits {
            let (name, value) =
                edit.firstIndex(of: "=").map { (String(edit[..<$0]), String(edit[edit.index(after: $0)...])) }
                ?? (edit, nil)
            let encodedName = PercentEncoding.escapeQueryComponent(name)
            let position = pairs.firstIndex { Self.name(of: $0) == encodedName }
            pairs.removeAll { Self.name(of: $0) == encodedName }
            if let value {
                let pair = encodedName + "=" + PercentEncoding.escapeQueryComponent(value)
                pairs.insert(pair, at: min(position ?? pairs.count, pairs.count))
            }
        }
        let rebuilt = base + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&")) + text[fragmentStart...]
        return URL(string: rebuilt) ?? url
    }

    private static func name(of pair: String) -> String {
        String(pair.prefix { $0 != "=" })
    }
}
