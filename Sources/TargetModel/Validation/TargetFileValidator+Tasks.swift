import PositionedYAML
import TextSafety

/// A case's `task:`: which Moya task it is, its encoding options and its consistency with the method.
extension TargetFileValidator {
    static let bodyKeys = ["data", "dataFile", "json", "parameters", "upload", "multipart", "download"]
    static let encodingOptionKeys: [String: String] = [
        "destination": "url", "arrayEncoding": "url", "boolEncoding": "url", "prettyPrinted": "json",
        "format": "propertyList"
    ]
    static let taskKeys =
        bodyKeys + ["encoding", "query", "destination", "arrayEncoding", "boolEncoding", "prettyPrinted", "format"]
    private static let multipartSourceKeys = ["value", "file", "data"]

    /// What people write for a task from other tools, and what it is here.
    static let taskKeyHints: [String: String] = [
        "form":
            "a form body is 'parameters: {...}' with 'encoding: url' on POST, PUT or PATCH (form-encoded, as Moya's URLEncoding)",
        "body": "a body is 'data' (text), 'json' (a JSON document), 'parameters' (with an encoding) or 'dataFile'",
        "params":
            "parameters are 'parameters: {...}' (with 'encoding: url' they go to the URL on GET, HEAD and DELETE)",
        "queryParameters":
            "URL parameters alone are 'parameters: {...}' with 'encoding: url' (on POST with 'destination: queryString')",
        "file": "a file body is 'dataFile: PATH' (its bytes) or 'upload: PATH' (streamed)",
        "headers": "headers belong to the case ('headers:' next to 'task:'), not to its task"
    ]

    mutating func readTask(_ node: Node, method: String, methodKnown: Bool, caseName: String, values: [ValueSpec] = [])
        -> TaskSpec?
    {
        guard
            let fields = fields(
                node, allowed: Self.taskKeys, context: "in the task in case '\(caseName)'", hints: Self.taskKeyHints)
        else { return nil }
        let bodyPositions = fields.positions(ofKeysIn: Self.bodyKeys)
        let oneOf = "a task has exactly one of data, dataFile, json, parameters, upload, multipart, download"
        guard let firstPosition = bodyPositions.first else {
            if let queryMark = fields.keyMark("query") {
                error(
                    "'query' adds URL parameters to a body; URL parameters alone are 'parameters: {...}' with 'encoding: url' "
                        + "(on GET, HEAD and DELETE they go to the URL; on POST add 'destination: queryString')",
                    at: queryMark)
            } else if case .mapping(let entries, _) = node,
                entries.indices.contains(where: { !Self.taskKeys.contains(entries.keyText(at: $0)) })
            {
                // An unknown key was reported with what to write instead.
            } else {
                error(oneOf + "; remove 'task' for a plain request", at: fields.mark)
            }
            return nil
        }
        let first = (key: fields.entries.key(at: firstPosition), value: fields.entries.value(at: firstPosition))
        let hasParameters = fields.has("parameters")
        let isDownloadWithParameters = bodyPositions.count == 2 && hasParameters && fields.has("download")
        if bodyPositions.count > 1 && !isDownloadWithParameters {
            let bodies = fields.entries(withKeyIn: Self.bodyKeys)
            let found = bodies.map { "'\($0.key.text)'" }.joined(separator: " and ")
            error(oneOf + " (download may add parameters); found \(found)", at: bodies[1].key.mark)
            return nil
        }
        let kind = isDownloadWithParameters ? "download" : first.key.text
        let encoding = readEncoding(fields, hasParameters: hasParameters)

        let request = TemplatePosition(name: "a task", placeholderRole: .request, allowsEnvironment: false)
        let filePath = TemplatePosition(name: "a task", placeholderRole: .filePath, allowsEnvironment: false)
        var query: [JSONTemplate.Member]?
        if let queryNode = fields["query"], let entries = entries(queryNode, expected: "a map of query parameters") {
            query = jsonMembers(entries, role: .request, positionName: "a task")
            if let members = query, sendsLiteralBools(fields, encoding: encoding?.spec, hasParameters: hasParameters) {
                query = members.map { Self.literalBool($0, values: values) }
            }
        }

        if methodKnown && MethodSemantics.carriesNoBody(method) {
            checkNoBody(kind: kind, method: method, fields: fields, encoding: encoding)
        }
        if let queryMark = fields.keyMark("query"), kind == "upload" || kind == "download" {
            error(
                "'query' cannot go with '\(kind)'; Moya's upload and download tasks take no separate query (a download can take 'parameters' with encoding url)",
                at: queryMark)
            return nil
        }
        if hasParameters, let queryMark = fields.keyMark("query"), case .url(let destination, _, _)? = encoding?.spec,
            !(destination == .httpBody && encoding?.hasExplicitDestination == true)
        {
            error(
                "'query' with url-encoded parameters is ambiguous; put the query values in 'parameters', or set 'destination: httpBody' to send the parameters in the body",
                at: queryMark)
            return nil
        }
        let parameters: [JSONTemplate.Member]? = fields["parameters"].flatMap { node in
            entries(node, expected: "a map of parameters").map {
                jsonMembers($0, role: .request, positionName: "a task")
            }
        }

        switch kind {
        case "data", "dataFile", "json":
            let body: TaskSpec.CompositeBody?
            switch kind {
            case "data": body = template(first.value, at: request).map(TaskSpec.CompositeBody.data)
            case "dataFile":
                body = readTaskFile(first.value, at: filePath, what: "dataFile").map { .dataFile(path: $0) }
            default:
                body = jsonTemplate(first.value, role: .request, positionName: "a task").map(
                    TaskSpec.CompositeBody.json)
            }
            guard let body else { return nil }
            if let query { return .compositeData(body: body, query: query) }
            switch body {
            case .data(let template): return .data(template)
            case .dataFile(let path): return .dataFile(path: path)
            case .json(let json): return .json(json)
            }
        case "parameters":
            guard let parameters, let spec = encoding?.spec else { return nil }
            if let query { return .compositeParameters(body: parameters, encoding: spec, query: query) }
            return .parameters(parameters, encoding: spec)
        case "upload":
            return readTaskFile(first.value, at: filePath, what: "upload file").map { .uploadFile(path: $0) }
        case "multipart":
            guard let parts = readMultipart(first.value, caseName: caseName) else { return nil }
            if let query { return .compositeMultipart(parts, query: query) }
            return .multipart(parts)
        default:
            guard let downloadNode = fields["download"], let destination = template(downloadNode, at: request) else {
                return nil
            }
            checkDownloadDestination(destination)
            guard hasParameters else { return .download(destination: destination) }
            guard let parameters, let spec = encoding?.spec else { return nil }
            return .downloadParameters(parameters, encoding: spec, destination: destination)
        }
    }

    private mutating func readTaskFile(_ node: Node, at position: TemplatePosition, what: String) -> Template? {
        guard let template = template(node, at: position) else { return nil }
        return checkFileExists(template, what: what) ? template : nil
    }

    /// GET, HEAD and TRACE carry no body.
    private mutating func checkNoBody(
        kind: String, method: String, fields: Fields,
        encoding: (spec: ParameterEncodingSpec, hasExplicitDestination: Bool)?
    ) {
        let prefix = "a \(method) request cannot carry a body; "
        switch kind {
        case "parameters", "download":
            guard let spec = encoding?.spec, fields.has("parameters"), spec.putsParametersInBody(method: method) else {
                return
            }
            let reason =
                switch spec {
                case .json: "encoding json puts the parameters in the body"
                case .propertyList: "encoding propertyList puts the parameters in the body"
                case .url: "destination httpBody puts the parameters in the body"
                }
            error(
                prefix + reason + "; use encoding url (query string) or another method",
                at: fields.keyMark("encoding") ?? fields.keyMark("parameters"))
        default:
            error(prefix + "'\(kind)' sends one; use POST, PUT or PATCH", at: fields.keyMark(kind))
        }
    }

    /// Whether `boolEncoding: literal` stands with a `query`: its booleans are then sent as
    /// `true` and `false` too (as OpenAPI sends them), whatever the body; Moya's composite tasks
    /// encode their query with the defaults (`1`, `0`) otherwise. With url-encoded parameters it
    /// is their option, read there.
    private mutating func sendsLiteralBools(_ fields: Fields, encoding: ParameterEncodingSpec?, hasParameters: Bool)
        -> Bool
    {
        if case .url(_, _, let bools)? = encoding { return bools == .literal }
        guard let node = fields["boolEncoding"] else { return false }
        return choice(node, from: URLBoolEncoding.allCases.map(\.rawValue), what: "boolEncoding")
            == URLBoolEncoding.literal.rawValue
    }

    /// A query member that sends a bool as its text: a lone placeholder of a bool value renders
    /// `true` or `false` (still left out when the value is optional and not given).
    static func literalBool(_ member: JSONTemplate.Member, values: [ValueSpec]) -> JSONTemplate.Member {
        switch member.value {
        case .placeholder(let name, let mark) where values.first(where: { $0.name == name })?.type == .bool:
            let text = Template(segments: [.placeholder(name: name, mark: mark)], source: "{\(name)}", mark: mark)
            return JSONTemplate.Member(key: member.key, value: .string(text))
        case .bool(let flag):
            return JSONTemplate.Member(key: member.key, value: .string(Template(literal: flag ? "true" : "false")))
        default:
            return member
        }
    }

    /// `encoding:` and its options; reports options of another encoding and options without parameters.
    private mutating func readEncoding(_ fields: Fields, hasParameters: Bool) -> (
        spec: ParameterEncodingSpec, hasExplicitDestination: Bool
    )? {
        guard hasParameters else {
            for entry in fields.entries
            where entry.key.text == "encoding" || Self.encodingOptionKeys[entry.key.text] != nil {
                // `boolEncoding` is also the query's (see `sendsLiteralBools`).
                if entry.key.text == "boolEncoding" && fields.has("query") { continue }
                error(
                    "'\(entry.key.text)' goes with 'parameters'"
                        + (entry.key.text == "boolEncoding" ? " or 'query'" : ""), at: entry.key.mark)
            }
            return nil
        }
        var encodingName = "url"
        if let node = fields["encoding"] {
            guard let name = choice(node, from: ["url", "json", "propertyList"], what: "encoding") else { return nil }
            encodingName = name
        }
        var isValid = true
        for index in fields.entries.indices {
            let key = fields.entries.keyText(at: index)
            guard let owner = Self.encodingOptionKeys[key], owner != encodingName,
                !(key == "boolEncoding" && fields.has("query"))
            else { continue }
            error(
                "'\(key)' is an option of encoding \(owner), not \(encodingName)",
                at: fields.entries.key(at: index).mark)
            isValid = false
        }
        func option<T: RawRepresentable & CaseIterable>(_ key: String, default value: T) -> T?
        where T.RawValue == String {
            guard let node = fields[key] else { return value }
            // The usual case, a valid name, needs no list of choices.
            if case .scalar(let scalar) = node, case .string(let text) = scalar.resolved, let known = T(rawValue: text)
            {
                return known
            }
            return choice(node, from: T.allCases.map(\.rawValue), what: key).flatMap(T.init(rawValue:))
        }
        let spec: ParameterEncodingSpec?
        switch encodingName {
        case "json":
            let pretty = fields["prettyPrinted"].map { bool($0) } ?? false
            spec = pretty.map { ParameterEncodingSpec.json(prettyPrinted: $0) }
        case "propertyList":
            spec = option("format", default: PropertyListFormat.xml).map {
                ParameterEncodingSpec.propertyList(format: $0)
            }
        default:
            let destination = option("destination", default: URLEncodingDestination.methodDependent)
            let arrays = option("arrayEncoding", default: URLArrayEncoding.brackets)
            let bools = option("boolEncoding", default: URLBoolEncoding.numeric)
            if let destination, let arrays, let bools {
                spec = .url(destination: destination, arrayEncoding: arrays, boolEncoding: bools)
            } else {
                spec = nil
            }
        }
        guard isValid, let spec else { return nil }
        return (spec, fields.has("destination"))
    }

    private mutating func readMultipart(_ node: Node, caseName: String) -> [MultipartPartSpec]? {
        guard let items = sequence(node, expected: "a list of parts such as - {name: title, value: \"{title}\"}") else {
            return nil
        }
        if items.isEmpty {
            error("'multipart' has no parts", at: node.mark)
            return nil
        }
        let keys = ["name", "value", "file", "data", "fileName", "mimeType"]
        var parts: [MultipartPartSpec] = []
        var isValid = true
        for item in items {
            guard let fields = fields(item, allowed: keys, context: "in a multipart part in case '\(caseName)'") else {
                isValid = false
                continue
            }
            let name = fields["name"].flatMap { string($0) }
            if !fields.has("name") { error("a multipart part needs a 'name'", at: fields.mark) }
            let sources = fields.entries(withKeyIn: Self.multipartSourceKeys)
            guard sources.count == 1, let source = sources.first else {
                error(
                    "a multipart part has exactly one of value, file, data",
                    at: sources.count > 1 ? sources[1].key.mark : fields.mark)
                isValid = false
                continue
            }
            let request = TemplatePosition(name: "a task", placeholderRole: .request, allowsEnvironment: false)
            let content: MultipartPartSpec.Content?
            switch source.key.text {
            case "value": content = template(source.value, at: request).map(MultipartPartSpec.Content.value)
            case "data": content = template(source.value, at: request).map(MultipartPartSpec.Content.data)
            default:
                let filePath = TemplatePosition(name: "a task", placeholderRole: .filePath, allowsEnvironment: false)
                content = readTaskFile(source.value, at: filePath, what: "multipart file").map { .file(path: $0) }
            }
            switch content {
            case .value(let template), .data(let template), .file(let template): markLone(template, in: .multipart)
            case nil: break
            }
            let fileName = fields["fileName"].flatMap { string($0) }
            let mimeType = fields["mimeType"].flatMap { string($0) }
            let partName = DisplayText.escaped(name ?? "?")
            for (field, value, key) in [
                ("name", name, "name"), ("fileName", fileName, "fileName"), ("mimeType", mimeType, "mimeType")
            ] {
                guard let value, let node = fields[key] else { continue }
                refuseLineBreaks(in: value, field: "the \(field) of multipart part '\(partName)'", at: node.mark)
            }
            guard let name, let content else {
                isValid = false
                continue
            }
            parts.append(
                MultipartPartSpec(
                    name: name, content: content, fileName: fileName, mimeType: mimeType, mark: fields.mark))
        }
        return isValid ? parts : nil
    }
}
