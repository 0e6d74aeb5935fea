import OrderedJSON
import TargetModel

extension AdHocRequest {
    /// The request `METHOD` and `items` make, sent to `path` with `query` first (from
    /// `AdHocPath.split`).
    ///
    /// - Parameters:
    ///   - sendsForm: `--form`: `name=value` fields are form fields instead of JSON strings.
    ///   - rawBody: `--json`/`--data`, which no body item may join.
    ///   - fileBaseDirectory: what a relative `field@path` is relative to (the current folder).
    /// - Throws: `AdHocRequestError` naming the method or the item at fault.
    package init(
        method: String, path: String, query: [Pair], items: [String], sendsForm: Bool = false,
        rawBody: RawBody? = nil, auth: Auth = .inherited, fileBaseDirectory: String
    ) throws(AdHocRequestError) {
        guard TargetFileValidator.isToken(method) else {
            throw AdHocRequestError(
                "METHOD '\(AdHocPath.displayed(method))' is not an HTTP method (a token: letters, digits and !#$%&'*+-.^_`|~)"
            )
        }
        // Upper case as HTTPie and xh send `get`; a token is ASCII.
        self.init(method: method.uppercased(), path: path, query: query, auth: auth)
        var fields: [(item: String, parsed: RequestItem)] = []
        for text in items {
            let item = try RequestItem(parsing: text)
            switch item {
            case .query(let name, let value): sent.query.append(Pair(name: name, value: value))
            case .header(let name, let value): changeHeader(name, to: value)
            case .field, .jsonField, .file: fields.append((text, item))
            }
        }
        if let first = fields.first {
            guard rawBody == nil else {
                throw AdHocRequestError(
                    item: first.item, "sends a body, and so does --json or --data; give one of them")
            }
            try refuseBody(sentBy: "'\(AdHocPath.displayed(first.item))'")
            sent.body = try Self.body(of: fields, sendsForm: sendsForm, fileBaseDirectory: fileBaseDirectory)
        } else if let rawBody {
            try refuseBody(sentBy: rawBody.isJSON ? "--json" : "--data")
            self.rawBody = rawBody
        }
    }

    /// GET, HEAD and TRACE carry no body, as a target file's validator says of a case.
    private func refuseBody(sentBy what: String) throws(AdHocRequestError) {
        guard MethodSemantics.carriesNoBody(method) else { return }
        throw AdHocRequestError("a \(method) request cannot carry a body; \(what) sends one; use POST, PUT or PATCH")
    }

    /// The body `fields` make: multipart when one is a file, else form fields (`--form`) or JSON.
    private static func body(
        of fields: [(item: String, parsed: RequestItem)], sendsForm: Bool,
        fileBaseDirectory: String
    ) throws(AdHocRequestError) -> NewCase.Body {
        let isMultipart = fields.contains { if case .file = $0.parsed { true } else { false } }
        var parts: [Part] = []
        var pairs: [Pair] = []
        var members: [(name: String, value: JSONValue)] = []
        for (item, parsed) in fields {
            switch parsed {
            case .field(let name, let value):
                parts.append(Part(name: name, content: .text(value)))
                pairs.append(Pair(name: name, value: value))
                members.append((name, .string(value)))
            case .jsonField(let name, let value):
                guard !isMultipart && !sendsForm else {
                    throw AdHocRequestError(
                        item: item,
                        "is raw JSON, which a \(isMultipart ? "multipart" : "--form") body cannot hold; give NAME=VALUE"
                    )
                }
                members.append((name, value))
            case .file(let name, let path):
                let absolute = RelativeFile.resolve(path, against: fileBaseDirectory)
                do {
                    try RegularFile.check(absolute)
                } catch {
                    throw AdHocRequestError("request item '\(AdHocPath.displayed(item))': \(error.description)")
                }
                parts.append(Part(name: name, content: .file(fileName: nil, mimeType: nil), path: absolute))
            case .query, .header:
                continue  // not body items (see `init`)
            }
        }
        return isMultipart ? .multipart(parts) : sendsForm ? .form(pairs) : .json(.object(members))
    }
}
