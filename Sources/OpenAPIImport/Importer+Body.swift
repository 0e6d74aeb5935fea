import OrderedJSON
import TargetModel
import TextSafety

extension Importer {
    /// The media types a body may be imported as, best first.
    private enum BodyKind {
        case json, form, multipart, text, binary
    }

    private static func bodyKind(of mediaType: String) -> BodyKind {
        let type = MediaType(mediaType).essence
        if type == "application/json" || type.hasSuffix("+json") || type == "*/*" || type == "application/*" {
            return .json
        }
        if type == "application/x-www-form-urlencoded" { return .form }
        if type.hasPrefix("multipart/") { return .multipart }
        if type.hasPrefix("text/") || type.hasSuffix("/xml") || type.hasSuffix("+xml") || type == "application/yaml"
            || type == "application/x-yaml" || type == "application/graphql"
        {
            return .text
        }
        return .binary
    }

    private static func rank(_ kind: BodyKind) -> Int {
        switch kind {
        case .json: 0
        case .form: 1
        case .multipart: 2
        case .text: 3
        case .binary: 4
        }
    }

    /// The request body as the case's task; `false` when the operation cannot be imported.
    func mapBody(_ operation: Operation, into draft: inout CaseDraft) -> Bool {
        var mediaType: String
        var schemaNode: SpecNode?
        var exampleNode: SpecNode?
        var encodingNode: SpecNode?
        var required: Bool
        var location: SpecNode
        if isSwagger2 {
            let parameters =
                (operation.pathItem["parameters"]?.elements ?? []) + (operation.node["parameters"]?.elements ?? [])
            let resolvedParameters = parameters.compactMap { resolved($0, operation: operation) }
            let consumesNode = operation.node["consumes"] ?? root["consumes"]
            guard areMediaTypes(consumesNode?.elements ?? []) else { return false }
            if let body = resolvedParameters.last(where: { $0["in"]?.string == "body" }) {
                let consumes = consumesNode?.elements?.compactMap(\.string) ?? []
                mediaType =
                    consumes.min { Self.rank(Self.bodyKind(of: $0)) < Self.rank(Self.bodyKind(of: $1)) }
                    ?? "application/json"
                schemaNode = body["schema"]
                exampleNode = body["x-example"]
                required = body["required"]?.bool == true
                location = body
            } else {
                let fields = resolvedParameters.filter { $0["in"]?.string == "formData" }
                guard !fields.isEmpty else { return true }
                let consumes = consumesNode?.elements?.compactMap(\.string) ?? []
                let multipart =
                    consumes.contains { $0.hasPrefix("multipart/") } || fields.contains { $0["type"]?.string == "file" }
                return mapFields(
                    fields.map { field in
                        (
                            name: field["name"]?.text ?? "", schema: field, required: field["required"]?.bool == true,
                            node: field
                        )
                    }, multipart: multipart, encoding: nil, operation: operation, draft: &draft)
            }
        } else {
            guard let bodyReference = operation.node["requestBody"] else { return true }
            guard let body = resolved(bodyReference, operation: operation) else { return false }
            guard let content = body["content"]?.members, !content.isEmpty else {
                note(
                    body, "request body has no content types: nothing is sent", case: operation.caseName,
                    operation: operation.label)
                return true
            }
            guard areMediaTypes(content.map(\.value), keys: content.map(\.key)) else { return false }
            let chosen = content.min { Self.rank(Self.bodyKind(of: $0.key)) < Self.rank(Self.bodyKind(of: $1.key)) }!
            mediaType = chosen.key
            schemaNode = chosen.value["schema"]
            exampleNode =
                chosen.value["example"]
                ?? chosen.value["examples"]?.members?.first.flatMap {
                    resolved($0.value, operation: operation)?["value"]
                }
            encodingNode = chosen.value["encoding"]
            required = body["required"]?.bool == true
            location = body
            if content.count > 1 {
                let others = content.map(\.key).filter { $0 != mediaType }.joined(separator: ", ")
                note(
                    location, "request body sent as \(mediaType) (also accepted: \(others))", case: operation.caseName,
                    operation: operation.label)
            }
        }
        if ["GET", "HEAD", "TRACE"].contains(operation.method) {
            note(
                location, "a \(operation.method) request body cannot be sent: left out", case: operation.caseName,
                operation: operation.label)
            return true
        }
        let schema = schemaNode.flatMap { resolved($0, operation: operation) }
        if schemaNode != nil, schema == nil {
            return skipBody(location, required: required, why: "its schema cannot be read", operation: operation)
        }
        var kind = Self.bodyKind(of: mediaType)
        let isWildcard = MediaType(mediaType).isWildcard
        // Bytes, whatever the media type says: a binary schema, or a wildcard type whose schema
        // is not JSON's object or array (`*/*` with `format: binary`, an upload).
        if let schema, Self.isBinary(schema) {
            kind = .binary
        } else if isWildcard, !["object", "array"].contains(schema.flatMap { SchemaSampler.type(of: $0) } ?? "") {
            kind = .binary
        }
        // The media type as the case's Content-Type (read literally, not as a template); a
        // wildcard names no type: bytes go as application/octet-stream.
        let contentType =
            isWildcard
            ? (kind == .binary ? "application/octet-stream" : nil)
            : !HeaderValue.isSafe(mediaType) ? nil : SchemaSampler.literal(mediaType)

        switch kind {
        case .json:
            if let schema, let properties = objectProperties(schema, operation: operation), !properties.members.isEmpty
            {
                // The body's own example (or first named example) gives its properties' examples.
                let bodyExample = exampleNode.map {
                    JSONExample.parsed($0, templated: false) ?? SchemaSampler.value($0, templated: false)
                }
                return mapJSONObject(properties, example: bodyExample, operation: operation, draft: &draft)
            }
            // Not an object with properties: the body is one string value, JSON text.
            var sampler = SchemaSampler(document: document, direction: .request, templated: false)
            let example =
                exampleNode.map {
                    JSONExample.parsed($0, templated: false) ?? SchemaSampler.value($0, templated: false)
                }
                ?? schema.flatMap { sampler.sample($0) }
                ?? .map([])
            addTextBody(
                name: "body", example: JSONText.render(example), description: "the request body, JSON",
                contentType: contentType ?? "application/json", draft: &draft)
            note(
                location, "the request body is not an object with properties: value 'body' is the whole JSON text",
                case: operation.caseName, operation: operation.label)
            return true
        case .form, .multipart:
            guard let schema, let properties = objectProperties(schema, operation: operation),
                !properties.members.isEmpty
            else {
                return skipBody(location, required: required, why: "is a form without properties", operation: operation)
            }
            return mapFields(
                properties.members.map {
                    (name: $0.key, schema: $0.value, required: properties.required.contains($0.key), node: $0.value)
                },
                multipart: kind == .multipart, encoding: encodingNode,
                example: exampleNode.map { SchemaSampler.value($0, templated: false) }, operation: operation,
                draft: &draft)
        case .text:
            let example = exampleNode?.text ?? (schema?["example"]?.text) ?? "string"
            addTextBody(
                name: "body", example: example, description: "the request body, \(mediaType)", contentType: contentType,
                draft: &draft)
            return true
        case .binary:
            var value = ValueDraft(
                name: draft.newValueName("body"), kind: .file, defaultValue: nil, optional: false,
                description: "a file sent as the request body, \(mediaType)")
            value.example = options.exampleUploadFile.map { .string($0) }
            if value.example != nil { usesExampleUpload = true }
            draft.values.append(value)
            draft.body = [YAMLText.Entry("dataFile", .string("{\(value.name)}"))]
            if let contentType { draft.headers.append(YAMLText.Entry("Content-Type", .string(contentType))) }
            return true
        }
    }

    /// Whether a body schema is bytes: `format: binary` (OpenAPI 3.0), `contentMediaType` or
    /// `contentEncoding` (3.1), Swagger's `type: file`.
    private static func isBinary(_ schema: SpecNode) -> Bool {
        let type = SchemaSampler.type(of: schema)
        if type == "file" { return true }
        guard type == "string" || type == nil else { return false }
        return schema["format"]?.string == "binary" || schema["contentMediaType"] != nil
            || schema["contentEncoding"]?.string == "binary"
    }

    /// Whether every media type is one (no control character or line break, which would make a
    /// header line of their own); each that is not is a problem of the spec, at its place.
    /// `keys`: the types when they are the keys of `nodes` (a `content` map), else the nodes' text.
    func areMediaTypes(_ nodes: [SpecNode], keys: [String]? = nil) -> Bool {
        var valid = true
        for (index, node) in nodes.enumerated() {
            let type = keys?[index] ?? node.text ?? ""
            guard
                type.unicodeScalars.contains(where: {
                    $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x85 || $0.value == 0x2028 || $0.value == 0x2029
                })
            else { continue }
            problem(
                node,
                "media type '\(DisplayText.escaped(type))' holds a control character or a line break: it is not a media type"
            )
            valid = false
        }
        return valid
    }

    private func skipBody(_ location: SpecNode, required: Bool, why: String, operation: Operation) -> Bool {
        if required {
            note(location, "the request body \(why): operation not imported", operation: operation.label, skips: true)
            return false
        }
        note(
            location, "the optional request body \(why): nothing is sent", case: operation.caseName,
            operation: operation.label)
        return true
    }

    /// A string value sent as the whole body.
    private func addTextBody(
        name: String, example: String, description: String, contentType: String?, draft: inout CaseDraft
    ) {
        var value = ValueDraft(
            name: draft.newValueName(name), kind: .string, defaultValue: nil, optional: false, description: description)
        value.example = .string(example)
        draft.values.append(value)
        draft.body = [YAMLText.Entry("data", .string("{\(value.name)}"))]
        if let contentType { draft.headers.append(YAMLText.Entry("Content-Type", .string(contentType))) }
    }

    /// An object schema's properties (`allOf` parts merged) and required names; `nil` when the
    /// schema is not an object.
    func objectProperties(_ schema: SpecNode, operation: Operation) -> (
        members: [(key: String, value: SpecNode)], required: Set<String>
    )? {
        var members: [(key: String, value: SpecNode)] = []
        var required = Set<String>()
        var isObject = SchemaSampler.type(of: schema) == "object"
        // Each part once: `allOf` trees that share parts would otherwise be walked exponentially.
        var visited = Set<String>()
        func add(_ part: SpecNode, depth: Int) {
            guard depth < 16, visited.count < 1000, let part = resolved(part, operation: operation),
                visited.insert(part.pointer).inserted
            else { return }
            if SchemaSampler.type(of: part) == "object" { isObject = true }
            for (name, property) in part["properties"]?.members ?? [] where !members.contains(where: { $0.key == name })
            {
                members.append((name, property))
            }
            for name in part["required"]?.elements?.compactMap(\.string) ?? [] { required.insert(name) }
            for nested in part["allOf"]?.elements ?? [] { add(nested, depth: depth + 1) }
        }
        add(schema, depth: 0)
        guard isObject || !members.isEmpty else { return nil }
        return (members, required)
    }

    /// A `json` task: each scalar property a value; a required object property sent as its
    /// sample, an optional one left out.
    private func mapJSONObject(
        _ properties: (members: [(key: String, value: SpecNode)], required: Set<String>), example: YAMLText?,
        operation: Operation, draft: inout CaseDraft
    ) -> Bool {
        var members: [YAMLText.Entry] = []
        var examples: [String: YAMLText] = [:]
        if case .map(let entries)? = example {
            for entry in entries where examples[entry.key] == nil { examples[entry.key] = entry.value }
        }
        for (name, propertyNode) in properties.members {
            let property = resolved(propertyNode, operation: operation)
            if property?["readOnly"]?.bool == true { continue }
            let required = properties.required.contains(name)
            if let value = valueDraft(
                name, schema: propertyNode, parameter: nil, required: required, operation: operation, draft: &draft,
                example: examples[name])
            {
                if value.name != name {
                    note(
                        propertyNode, "body property '\(name)' is value '\(value.name)'", case: operation.caseName,
                        operation: operation.label)
                }
                draft.values.append(value)
                members.append(YAMLText.Entry(name, .string("{\(value.name)}")))
            } else if required {
                var sampler = SchemaSampler(document: document, direction: .request, templated: true)
                members.append(YAMLText.Entry(name, property.flatMap { _ in sampler.sample(propertyNode) } ?? .map([])))
                note(
                    propertyNode,
                    "body property '\(name)' is an object or a list of objects: it is sent as written here; edit it, or send another body with --json",
                    case: operation.caseName, operation: operation.label)
            } else {
                note(
                    propertyNode,
                    "optional body property '\(name)' is an object or a list of objects: left out (send it with --json)",
                    case: operation.caseName, operation: operation.label)
            }
        }
        draft.body = [YAMLText.Entry("json", .map(members))]
        return true
    }

    /// Url-encoded parameters or multipart parts, one value per field.
    private func mapFields(
        _ fields: [(name: String, schema: SpecNode, required: Bool, node: SpecNode)], multipart: Bool,
        encoding: SpecNode?, example: YAMLText? = nil, operation: Operation, draft: inout CaseDraft
    ) -> Bool {
        var parameters: [YAMLText.Entry] = []
        // The form's own example gives its fields' examples, as a JSON body's does.
        var examples: [String: YAMLText] = [:]
        if case .map(let entries)? = example {
            for entry in entries where examples[entry.key] == nil { examples[entry.key] = entry.value }
        }
        var parts: [YAMLText] = []
        for field in fields {
            let property = resolved(field.schema, operation: operation)
            if property?["readOnly"]?.bool == true { continue }
            // A part's name goes in its Content-Disposition header line.
            if multipart, field.name.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
                problem(
                    field.node,
                    "multipart form field '\(DisplayText.escaped(field.name))' holds a line break or NUL: a part's name is sent in a header line, which cannot hold one"
                )
                return false
            }
            guard
                let value = valueDraft(
                    field.name, schema: field.schema, parameter: isSwagger2 ? field.node : nil,
                    required: field.required,
                    operation: operation, draft: &draft, allowFile: multipart, example: examples[field.name]),
                !(multipart && value.kind.isList)
            else {
                if field.required {
                    note(
                        field.node,
                        "required form field '\(field.name)' is not a string, number, boolean, enum\(multipart ? " or file" : " or list"): operation not imported",
                        operation: operation.label, skips: true)
                    return false
                }
                note(
                    field.node, "optional form field '\(field.name)' cannot be a value: left out",
                    case: operation.caseName, operation: operation.label)
                continue
            }
            if value.name != field.name {
                note(
                    field.node, "form field '\(field.name)' is value '\(value.name)'", case: operation.caseName,
                    operation: operation.label)
            }
            draft.values.append(value)
            if multipart {
                var part = [YAMLText.Entry("name", .string(field.name))]
                part.append(YAMLText.Entry(value.kind == .file ? "file" : "value", .string("{\(value.name)}")))
                if let type = encoding?[field.name]?["contentType"]?.string, !type.contains(","), !type.contains("*"),
                    HeaderValue.isSafe(type), !type.isEmpty
                {
                    part.append(YAMLText.Entry("mimeType", .string(type)))
                }
                parts.append(.map(part))
            } else {
                parameters.append(YAMLText.Entry(field.name, .string("{\(value.name)}")))
                if value.kind.isList {
                    // The form's `encoding` (OpenAPI) or the field's `collectionFormat` (Swagger).
                    let what = "form field '\(field.name)'"
                    if isSwagger2 {
                        chooseArrayEncoding(
                            collectionFormat: field.node["collectionFormat"]?.string ?? "csv", at: field.node,
                            what: what, operation: operation, draft: &draft)
                    } else {
                        let fieldEncoding = encoding?[field.name]
                        chooseArrayEncoding(
                            style: fieldEncoding?["style"]?.string, explode: fieldEncoding?["explode"]?.bool,
                            at: fieldEncoding ?? field.node, what: what, operation: operation, draft: &draft)
                    }
                }
            }
        }
        if multipart {
            guard !parts.isEmpty else { return true }
            draft.body = [YAMLText.Entry("multipart", .list(parts))]
        } else {
            guard !parameters.isEmpty else { return true }
            draft.body = [
                YAMLText.Entry("parameters", .map(parameters)), YAMLText.Entry("encoding", .string("url")),
                YAMLText.Entry("destination", .string("httpBody"))
            ]
            draft.bodyIsForm = true
        }
        return true
    }
}

/// Header values from the spec: printable ASCII without CR or LF.
enum HeaderValue {
    static func isSafe(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}

/// Compact JSON text of a sample value (for a body given as one string), by MoyaKit's writer.
enum JSONText {
    static func render(_ value: YAMLText) -> String {
        json(value).serializedString()
    }

    private static func json(_ value: YAMLText) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .int(let int): .int(int)
        case .number(let text): JSONNumber(text).map { .number($0) } ?? .string(text)
        case .bool(let bool): .bool(bool)
        case .null: .null
        case .list(let items): .array(items.map(json))
        case .map(let entries): .object(entries.map { ($0.key, json($0.value)) })
        }
    }
}
