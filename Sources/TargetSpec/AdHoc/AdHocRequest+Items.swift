import FileIO
import OrderedJSON
import TargetModel

#if canImport(Glibc)
import Glibc
#endif

extension AdHocRequest {
    /// The request `METHOD` and `items` make, sent to `path` with `query` first (from
    /// `AdHocPath.split`).
    ///
    /// - Parameters:
    ///   - sendsForm: `--form`: `name=value` fields are form fields instead of JSON strings.
    ///   - rawBody: `--json`/`--data`, which no body item may join.
    ///   - fileBaseDirectory: what a relative `field@path` (or `=@`, `:=@`, `:@`, `==@` file) is
    ///     relative to (the current folder).
    ///   - fileLimit: the most bytes a file embedded by `=@`, `:=@`, `:@` or `==@` may hold.
    /// - Throws: `AdHocRequestError` naming the method or the item at fault.
    package init(
        method: String, path: String, query: [Pair], items: [String], sendsForm: Bool = false,
        rawBody: RawBody? = nil, auth: Auth = .inherited, fileBaseDirectory: String, fileLimit: Int = .max
    ) throws(AdHocRequestError) {
        guard TargetFileValidator.isToken(method) else {
            throw AdHocRequestError(
                "METHOD '\(AdHocPath.displayed(method))' is not an HTTP method (a token: letters, digits and !#$%&'*+-.^_`|~)"
            )
        }
        // Upper case as HTTPie and xh send `get`; a token is ASCII.
        self.init(method: method.uppercased(), path: path, query: query, auth: auth)
        var fields: [(item: String, parsed: RequestItem)] = []
        let files = EmbeddedFiles(baseDirectory: fileBaseDirectory, limit: fileLimit)
        for text in items {
            let item = try RequestItem(parsing: text)
            switch item {
            case .query(let name, let value): sent.query.append(Pair(name: name, value: value))
            case .header(let name, let value): changeHeader(name, to: value)
            case .queryFile(let name, let path):
                sent.query.append(Pair(name: name, value: try files.line(path, item: text)))
            case .headerFile(let name, let path):
                let value = try files.line(path, item: text)
                if HeaderLine.holdsLineBreak(value) {
                    throw AdHocRequestError(
                        item: text, "reads CR, LF or NUL from its file; it would inject a line into the request")
                }
                guard !value.isEmpty else {
                    throw AdHocRequestError(item: text, "reads an empty file; 'Header:' removes a header")
                }
                changeHeader(name, to: value)
            case .field, .jsonField, .file, .fieldFile, .jsonFieldFile: fields.append((text, item))
            }
        }
        if let first = fields.first {
            guard rawBody == nil else {
                throw AdHocRequestError(
                    item: first.item, "sends a body, and so does --json or --data; give one of them")
            }
            try refuseBody(sentBy: "'\(AdHocPath.displayed(first.item))'")
            sent.body = try Self.body(of: fields, sendsForm: sendsForm, files: files)
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

    /// The body `fields` make: multipart when one is a file, else form fields (`--form`) or JSON,
    /// its names read as nested-JSON paths (`NestedJSONBody`).
    private static func body(
        of fields: [(item: String, parsed: RequestItem)], sendsForm: Bool, files: EmbeddedFiles
    ) throws(AdHocRequestError) -> NewCase.Body {
        let isMultipart = fields.contains { if case .file = $0.parsed { true } else { false } }
        var parts: [Part] = []
        var pairs: [Pair] = []
        var json = NestedJSONBody()
        for (item, parsed) in fields {
            switch parsed {
            case .field(let name, let value), .fieldFile(let name, let value):
                let text: String
                if case .fieldFile = parsed { text = try files.text(value, item: item) } else { text = value }
                parts.append(Part(name: name, content: .text(text)))
                pairs.append(Pair(name: name, value: text))
                if !isMultipart && !sendsForm {
                    try json.set(RequestItem.jsonPath(of: item), to: .string(text), item: item)
                }
            case .jsonField, .jsonFieldFile:
                guard !isMultipart && !sendsForm else {
                    throw AdHocRequestError(
                        item: item,
                        "is raw JSON, which a \(isMultipart ? "multipart" : "--form") body cannot hold; give NAME=VALUE"
                    )
                }
                var value = JSONValue.null
                if case .jsonField(_, let given) = parsed { value = given }
                if case .jsonFieldFile(_, let path) = parsed { value = try files.json(path, item: item) }
                try json.set(RequestItem.jsonPath(of: item), to: value, item: item)
            case .file(let name, let path):
                let absolute = try files.checked(path, item: item)
                parts.append(Part(name: name, content: .file(fileName: nil, mimeType: nil), path: absolute))
            case .query, .header, .queryFile, .headerFile:
                continue  // not body items (see `init`)
            }
        }
        return isMultipart ? .multipart(parts) : sendsForm ? .form(pairs) : .json(json.json)
    }
}

/// The files items name (`field@FILE`, `=@`, `:=@`, `:@`, `==@`), relative to the current folder:
/// each must be a readable regular file (a FIFO or device would block), and an embedded one at
/// most `limit` bytes of UTF-8.
struct EmbeddedFiles {
    var baseDirectory: String
    var limit: Int

    /// The absolute path of `path`, a readable regular file.
    func checked(_ path: String, item: String) throws(AdHocRequestError) -> String {
        let absolute = RelativeFile.resolve(path, against: baseDirectory)
        do {
            try RegularFile.check(absolute)
        } catch {
            throw AdHocRequestError("request item '\(AdHocPath.displayed(item))': \(error.description)")
        }
        return absolute
    }

    /// The file's text, whole (`=@`).
    func text(_ path: String, item: String) throws(AdHocRequestError) -> String {
        let absolute = try checked(path, item: item)
        let descriptor = open(absolute, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw AdHocRequestError("request item '\(AdHocPath.displayed(item))': cannot read file '\(absolute)'")
        }
        defer { close(descriptor) }
        let bytes: [UInt8]
        do {
            bytes = try InputFile.readAll(descriptor, limit: limit)
        } catch .tooLarge {
            throw AdHocRequestError(item: item, "embeds a file larger than \(limit) bytes (see --max-body-size)")
        } catch {
            throw AdHocRequestError("request item '\(AdHocPath.displayed(item))': cannot read file '\(absolute)'")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw AdHocRequestError(
                item: item, "embeds a file that is not UTF-8 text; send it as a file part, FIELD@FILE")
        }
        return text
    }

    /// The file's text without its final line breaks (`:@`, `==@`), as HTTPie reads them.
    func line(_ path: String, item: String) throws(AdHocRequestError) -> String {
        var text = try text(path, item: item)
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// The file's JSON (`:=@`).
    func json(_ path: String, item: String) throws(AdHocRequestError) -> JSONValue {
        let text = try text(path, item: item)
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw AdHocRequestError(item: item, "embeds a file that is not JSON (\(error))")
        }
    }
}
