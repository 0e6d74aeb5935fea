import OrderedJSON
import TargetModel
import TextSafety

/// Makes the cases of a Postman collection, one request at a time, and the auth schemes they use.
struct PostmanCaseBuilder {
    struct Parsed {
        var name: String
        var at: String
        var method: String
        /// `{{baseUrl}}` or `https://host:port`, as written.
        var origin: String
        /// The path segments, as written (`:id` a path variable).
        var segments: [String]
        var pathVariables: [String: String]
        var query: [(name: String, value: String)]
        var item: JSONValue
        var auth: JSONValue?
    }

    let apiName: String
    let variables: PostmanVariables
    private(set) var schemes: [(name: String, members: [YAMLText.Entry])] = []
    var defaultAuth: String?
    private(set) var secrets: [(variable: String, why: String)] = []
    private(set) var notes: [String] = []
    /// Literal credentials the collection holds (not written): `<redacted>` in samples.
    private(set) var redactions: [String] = []
    /// Example bodies too deep or too large for the target file, for files beside it.
    private(set) var sampleFiles: [(path: String, bytes: [UInt8])] = []

    init(apiName: String, variables: PostmanVariables) {
        self.apiName = apiName
        self.variables = variables
    }

    /// The name of the scheme for `auth` (made on first use), `none` for `noauth`, `nil` when unsupported.
    mutating func scheme(for auth: JSONValue, at path: String) throws(RequestImportError) -> String? {
        switch try PostmanAuth.map(
            auth, at: path, variables: variables, apiName: apiName, secrets: &secrets, literals: &redactions)
        {
        case .none: return "none"
        case .unsupported(let what):
            notes.append("\(what) at \(path) is not mapped: cases using it send no credentials")
            return nil
        case .scheme(let type, let members):
            let rendered = YAMLText.render(members, header: [])
            if let known = schemes.first(where: { YAMLText.render($0.members, header: []) == rendered }) {
                return known.name
            }
            let name = PostmanImporter.uniqueName(type, taken: Set(schemes.map(\.name)))
            schemes.append((name, members))
            return name
        }
    }

    func parse(_ flattened: PostmanImporter.Flattened) throws(RequestImportError) -> Parsed {
        let item = flattened.item
        let at = flattened.path
        guard let title = item["name"]?.stringValue else { throw RequestImportError("not a string (at \(at).name)") }
        let request = item["request"] ?? .null
        // v2.x allows a request given as its URL alone.
        let url = request.stringValue.map(JSONValue.string) ?? request["url"] ?? .string("")
        let method = (request["method"]?.stringValue ?? "GET").uppercased()
        if let problem = MethodSemantics.problem(with: method) {
            throw RequestImportError("\(problem.prefix(200)) (at \(at).request.method)")
        }
        var raw: String
        var query: [(String, String)]? = nil
        var pathVariables: [String: String] = [:]
        if let text = url.stringValue {
            raw = text
        } else if url.objectValue != nil {
            raw = url["raw"]?.stringValue ?? ""
            if let list = url["query"]?.arrayValue {
                query = []
                for (offset, pair) in list.enumerated() where pair["disabled"]?.boolValue != true {
                    guard let key = pair["key"]?.stringValue else {
                        throw RequestImportError("not a string (at \(at).request.url.query[\(offset)].key)")
                    }
                    query?.append((key, pair["value"]?.stringValue ?? ""))
                }
            }
            for pair in url["variable"]?.arrayValue ?? [] {
                if let key = pair["key"]?.stringValue { pathVariables[key] = pair["value"]?.stringValue }
            }
            if raw.isEmpty {
                let host = (url["host"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ".")
                let segments = (url["path"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: "/")
                let scheme = url["protocol"]?.stringValue.map { $0 + "://" } ?? ""
                let port = url["port"]?.stringValue.map { ":" + $0 } ?? ""
                raw = scheme + host + port + "/" + segments
            }
        } else {
            throw RequestImportError("the URL is neither a string nor an object (at \(at).request.url)")
        }
        guard !raw.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw RequestImportError("the URL holds control characters (at \(at).request.url)")
        }
        if let hash = raw.firstIndex(of: "#") { raw = String(raw[..<hash]) }
        var rest = Substring(raw)
        var rawQuery: Substring?
        if let question = rest.firstIndex(of: "?") {
            rawQuery = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        let originEnd: Substring.Index
        if let scheme = rest.firstRange(of: "://") {
            originEnd = rest[scheme.upperBound...].firstIndex(of: "/") ?? rest.endIndex
        } else {
            originEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        }
        var origin = String(rest[..<originEnd])
        guard !origin.contains(" ") else {
            throw RequestImportError("the URL's host holds a space (at \(at).request.url)")
        }
        if PostmanTemplate.references(in: origin).isEmpty {
            if !origin.contains("://") { origin = "https://" + origin }
            do throws(RequestImportError) {
                origin = try RequestURL(origin).origin
            } catch {
                throw RequestImportError(error.message + " (at \(at).request.url)")
            }
        }
        // Postman sends a space in the path percent-encoded.
        let segments = rest[originEnd...].split(separator: "/", omittingEmptySubsequences: true).map {
            String($0).replacing(" ", with: "%20")
        }
        if query == nil {
            query = (rawQuery ?? "").split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (
                    CurlRequestBuilder.percentDecoded(String(parts[0]), plusIsSpace: true),
                    CurlRequestBuilder.percentDecoded(parts.count > 1 ? String(parts[1]) : "", plusIsSpace: true)
                )
            }
        }
        let ownAuth = request["auth"].flatMap { $0.isNull ? Optional<JSONValue>.none : $0 }
        return Parsed(
            name: PostmanImporter.caseName(folders: flattened.folders, name: title), at: at, method: method,
            origin: origin, segments: segments, pathVariables: pathVariables, query: query ?? [], item: item,
            auth: ownAuth ?? flattened.auth)
    }

    /// The case's members, in the order a target file lists them.
    mutating func members(_ parsed: Parsed, apiOrigin: String, caseName: String) throws(RequestImportError) -> (
        members: [YAMLText.Entry], notes: [String]
    ) {
        var template = PostmanTemplate(variables: variables)
        var notes: [String] = []
        let at = parsed.at
        let request = parsed.item["request"] ?? .null
        var members: [YAMLText.Entry] = []
        if let description = Self.description(request["description"] ?? parsed.item["description"]) {
            members.append(YAMLText.Entry("description", .string(description)))
        }
        if parsed.origin != apiOrigin {
            members.append(YAMLText.Entry("baseURL", .string(variables.baseURL(parsed.origin))))
        }
        members.append(YAMLText.Entry("method", .string(parsed.method)))
        var path = ""
        for segment in parsed.segments {
            if segment.hasPrefix(":"), segment.count > 1 {
                let name = String(segment.dropFirst())
                path += "/{\(template.value(named: name, default: parsed.pathVariables[name]))}"
            } else {
                path += "/" + template.placeholding(segment)
            }
        }
        members.append(YAMLText.Entry("path", .string(path.isEmpty ? "/" : path)))
        var headers: [YAMLText.Entry] = []
        var contentType: String?
        for (offset, header) in Self.headers(request["header"]).enumerated() {
            let hat = "\(at).request.header[\(offset)]"
            // Postman's editor leaves an empty last row.
            if header.name.isEmpty && header.value.isEmpty { continue }
            guard !header.name.isEmpty, header.name.utf8.allSatisfy(CurlRequestBuilder.isTokenByte) else {
                throw RequestImportError(
                    "the header name '\(header.name.prefix(100))' is not a header name (at \(hat))")
            }
            guard !header.value.utf8.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) else {
                throw RequestImportError("the header \(header.name)'s value holds control characters (at \(hat))")
            }
            if HARImporter.leftOutHeaders.contains(header.name.lowercased()) { continue }
            if header.name.lowercased() == "content-type" { contentType = header.value }
            let sensitive = CredentialNames.looksSecret(header.name) || header.name.lowercased() == "authorization"
            var value = template.referencing(header.value)
            if sensitive {
                let pieces = PostmanTemplate.pieces(header.value)
                if !pieces.contains(where: { if case .variable = $0 { true } else { false } }) {
                    let variable =
                        "MOYA_\(PostmanVariables.identifier(apiName).uppercased())_\(PostmanVariables.identifier(header.name).uppercased())"
                    value = "${secret:\(variable):-}"
                    redactions.append(header.value)
                    if let space = header.value.firstIndex(of: " ") {
                        redactions.append(String(header.value[header.value.index(after: space)...]))
                    }
                    secrets.append((variable, "the header \(header.name) (a literal in the collection, not written)"))
                } else {
                    value = pieces.map { piece in
                        switch piece {
                        case .text(let text): NewCase.literal(text)
                        case .variable(let name): "${secret:\(PostmanVariables.identifier(name)):-}"
                        }
                    }.joined()
                }
            }
            if let index = headers.firstIndex(where: { $0.key.lowercased() == header.name.lowercased() }),
                case .string(let earlier) = headers[index].value
            {
                // One entry per name: repeated headers are sent as one, joined, as HTTP allows.
                headers[index].value = .string(earlier + ", " + value)
            } else {
                headers.append(YAMLText.Entry(header.name, .string(value)))
            }
        }
        if contentType == nil, !["GET", "HEAD", "TRACE"].contains(parsed.method),
            let type = Self.rawContentType(request["body"])
        {
            // Postman sends a raw body with the type its language implies.
            headers.append(YAMLText.Entry("Content-Type", .string(type)))
        }
        if !headers.isEmpty { members.append(YAMLText.Entry("headers", .map(headers))) }
        if let auth = parsed.auth {
            // An auth that does not map sends nothing, not the collection's default.
            let scheme = try scheme(for: auth, at: at + ".request.auth") ?? "none"
            if scheme != defaultAuth, scheme != "none" || defaultAuth != nil {
                members.append(YAMLText.Entry("auth", .string(scheme)))
            }
        }
        var task = try PostmanBody.task(
            request["body"], at: at + ".request.body", method: parsed.method, contentType: contentType,
            template: &template, notes: &notes)
        let query = parsed.query.filter { !($0.name.isEmpty && $0.value.isEmpty) }
        if !query.isEmpty {
            let (pairs, repeats) = template.parameters(query)
            if task.isEmpty {
                task = [YAMLText.Entry("parameters", .map(pairs)), YAMLText.Entry("encoding", .string("url"))]
                if !["GET", "HEAD", "DELETE"].contains(parsed.method) {
                    task.append(YAMLText.Entry("destination", .string("queryString")))
                }
                if repeats { task.append(YAMLText.Entry("arrayEncoding", .string("noBrackets"))) }
            } else if repeats {
                throw RequestImportError(
                    "the query repeats a name next to a body; a case with a body sends one value per query parameter (at \(at).request.url)"
                )
            } else {
                task.append(YAMLText.Entry("query", .map(pairs)))
            }
        }
        if !task.isEmpty { members.append(YAMLText.Entry("task", .map(task))) }
        var samples = try self.samples(
            parsed.item["response"], at: at + ".response", caseName: caseName, notes: &notes, files: &sampleFiles)
        // The default sample (the first) is a success, so `check` and `--stub` pass; an error
        // example (a 401) is a named sample. With only errors saved, an empty 200 comes first.
        let successes = samples.filter { SampleBody.isSuccess(status: $0.status) }
        if !samples.isEmpty, successes.isEmpty {
            notes.append(
                "every saved example is an error: the default sample is an empty 200, the examples are named samples")
            samples.insert(
                (SampleBody.sampleName(status: 200), 200, .map([YAMLText.Entry("status", .int(200))])), at: 0)
        } else {
            samples = successes + samples.filter { !SampleBody.isSuccess(status: $0.status) }
        }
        if samples.count == 1 {
            members.append(YAMLText.Entry("sample", samples[0].sample))
        } else if samples.count > 1 {
            var taken = Set<String>()
            var named: [YAMLText.Entry] = []
            for sample in samples {
                let name = PostmanImporter.uniqueName(sample.name, taken: taken)
                taken.insert(name)
                named.append(YAMLText.Entry(name, sample.sample))
            }
            members.append(YAMLText.Entry("samples", .map(named)))
        }
        if !template.values.isEmpty {
            members.insert(
                YAMLText.Entry("values", .list(template.values.map(\.entry))),
                at: members.first?.key == "description" ? 1 : 0)
            if let examples = Self.offlineExamples(template.values.map(\.entry)) {
                members.append(YAMLText.Entry("examples", .list([.list(examples)])))
            }
        }
        return (members, notes + template.notes)
    }

    /// The arguments `check` uses when a value has no default (a credential, a variable the
    /// collection does not define): each value's default, else the stand-in `example`, so the
    /// file's offline `check` covers the case; `nil` when every value has a default or one is a
    /// file (given when calling).
    static func offlineExamples(_ values: [YAMLText]) -> [YAMLText]? {
        var examples: [YAMLText] = []
        var lacksDefault = false
        for value in values {
            guard case .map(let entries) = value, let entry = entries.first, case .map(let members) = entry.value else {
                return nil
            }
            if members.contains(where: { if $0.key == "type", case .string("file") = $0.value { true } else { false } })
            {
                return nil
            }
            if let given = members.first(where: { $0.key == "default" })?.value {
                examples.append(given)
            } else {
                lacksDefault = true
                examples.append(.string("example"))
            }
        }
        return lacksDefault ? examples : nil
    }

    /// The saved example responses as samples, redacted as `request --save-as` does.
    func samples(
        _ list: JSONValue?, at path: String, caseName: String, notes: inout [String],
        files: inout [(path: String, bytes: [UInt8])]
    ) throws(RequestImportError) -> [(name: String, status: Int, sample: YAMLText)] {
        let count = list?.arrayValue?.count ?? 0
        var made: [(String, Int, YAMLText)] = []
        let redacted = (variables.collection + variables.environment).filter(\.isSecret).map(\.value) + redactions
        for (offset, response) in (list?.arrayValue ?? []).enumerated() {
            let at = "\(path)[\(offset)]"
            let status = response["code"]?.intValue ?? 200
            guard (100...599).contains(status) else {
                notes.append("the example at \(at) has the status \(status), not an HTTP one: no sample")
                continue
            }
            let type = Self.headers(response["header"]).last { $0.name.lowercased() == "content-type" }?.value
            if let type, type.utf8.contains(where: { $0 < 0x20 }) {
                throw RequestImportError("the example's type holds control characters (at \(at).header)")
            }
            var newCase = NewCase(method: "GET", path: "/")
            newCase.sample = NewCase.Sample(
                status: status, contentType: type, body: Array((response["body"]?.stringValue ?? "").utf8))
            newCase.secretValues = redacted
            let rendered: RenderedCase
            do throws(TargetFileEditError) {
                rendered = try newCase.render(
                    apiName: apiName,
                    sampleFileStem: SampleBody.fileStem(
                        api: apiName, caseName: caseName, sampleName: count > 1 ? "\(offset + 1)" : nil))
            } catch {
                throw RequestImportError(error.message + " (at \(at))")
            }
            if let omission = rendered.sampleOmission { notes.append(omission) }
            if let file = rendered.sampleFile { files.append(file) }
            guard let sample = rendered.members.first(where: { $0.key == "sample" })?.value else { continue }
            let name = PostmanImporter.caseName(folders: [], name: response["name"]?.stringValue ?? "example")
            made.append((name, status, sample))
        }
        return made
    }

    /// `header` as v2.1 writes it (a list of `{key, value, disabled}`) or v2.0's `Name: value` lines.
    static func headers(_ value: JSONValue?) -> [(name: String, value: String)] {
        if let text = value?.stringValue {
            return text.split(whereSeparator: \.isNewline).compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (
                    trimmed(line[..<colon]), trimmed(line[line.index(after: colon)...])
                )
            }
        }
        return (value?.arrayValue ?? []).compactMap { entry -> (name: String, value: String)? in
            guard entry["disabled"]?.boolValue != true, let name = entry["key"]?.stringValue else { return nil }
            return (name, entry["value"]?.stringValue ?? "")
        }
    }

    static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// The Content-Type Postman gives a raw body without one (not for a GET, which sends none).
    static func rawContentType(_ body: JSONValue?) -> String? {
        guard let body, body["mode"]?.stringValue == "raw", body["disabled"]?.boolValue != true else { return nil }
        switch body["options"]?["raw"]?["language"]?.stringValue ?? "text" {
        case "json": return "application/json"
        case "xml": return "application/xml"
        case "html": return "text/html"
        case "javascript": return "application/javascript"
        default: return "text/plain"
        }
    }

    /// A description: a string, or v2.1's `{content}`, as one line (its first paragraph, as
    /// every importer writes one: ``TextSafety/OneLineText``).
    static func description(_ value: JSONValue?) -> String? {
        guard let text = value?.stringValue ?? value?["content"]?.stringValue else { return nil }
        let line = OneLineText.firstParagraph(text)
        return line.isEmpty ? nil : line
    }
}
