import TargetSpec

/// What `request` takes as xh and HTTPie do, before its words are read: `:3000/users` (or
/// `:/users`, `:3000`) is `http://localhost:3000/users`, and a URL without METHOD is sent with
/// GET, or with POST when the request has a body (a body item, `--json`, `--data`).
enum RequestShorthand {
    /// `words` with a localhost shorthand in the URL's place written out.
    static func expandingLocalhost(_ words: [String]) -> [String] {
        var words = words
        for index in words.indices.prefix(2) where isLocalhost(words[index]) {
            let rest = words[index].dropFirst()
            let port = rest.prefix { $0.isASCII && $0.isNumber }
            words[index] = "http://localhost" + (port.isEmpty ? "" : ":" + port) + rest.dropFirst(port.count)
            break
        }
        return words
    }

    /// `words` with the METHOD HTTPie and xh would use put before a URL that has none.
    static func addingDefaultMethod(_ words: [String], hasBodyOption: Bool) -> [String] {
        guard let first = words.first, AdHocPath.isURL(first) else { return words }
        let sendsBody =
            hasBodyOption || words.dropFirst().contains { (try? RequestItem(parsing: $0))?.sendsBody == true }
        return [sendsBody ? "POST" : "GET"] + words
    }

    /// `:PORT`, `:PORT/PATH` or `:/PATH`.
    private static func isLocalhost(_ word: String) -> Bool {
        guard word.hasPrefix(":") else { return false }
        let rest = word.dropFirst()
        let port = rest.prefix { $0.isASCII && $0.isNumber }
        let after = rest.dropFirst(port.count)
        return (after.isEmpty && !port.isEmpty) || after.hasPrefix("/")
    }
}
