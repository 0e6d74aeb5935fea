import TargetModel
import TextSafety

extension Importer {
    /// The case for `operation`, or `nil` when it is left out (with a note saying why).
    /// `firstNote`: the index of the first note about this operation (its naming comes first).
    func mapOperation(_ operation: Operation, firstNote: Int) -> YAMLText.Entry? {
        var draft = CaseDraft()
        guard mapParameters(operation, into: &draft),
            mapBody(operation, into: &draft)
        else {
            // Notes of a skipped operation go to the top of the file: there is no case to put them at.
            for index in firstNote..<notes.count { notes[index].caseName = nil }
            return nil
        }
        guard let path = mapPath(operation, into: &draft) else {
            for index in firstNote..<notes.count { notes[index].caseName = nil }
            return nil
        }
        mapSecurity(operation, into: &draft)
        draft.orderValuesForCommandLine()
        noteCallbacks(operation)

        var entries: [YAMLText.Entry] = []
        let summary = operation.node["summary"]?.string ?? operation.node["description"]?.string
        if let summary, !oneLine(summary).isEmpty {
            entries.append(YAMLText.Entry("description", .string(oneLine(summary))))
        }
        if !draft.values.isEmpty {
            entries.append(YAMLText.Entry("values", .list(draft.values.map { .map([$0.entry]) })))
        }
        if let baseURL = caseBaseURL(operation) { entries.append(YAMLText.Entry("baseURL", .string(baseURL))) }
        entries.append(YAMLText.Entry("path", .string(path)))
        if operation.method != "GET" { entries.append(YAMLText.Entry("method", .string(operation.method))) }
        if !draft.headers.isEmpty { entries.append(YAMLText.Entry("headers", .map(draft.headers))) }
        if let auth = draft.auth { entries.append(YAMLText.Entry("auth", .string(auth))) }
        if let task = draft.task(method: operation.method) { entries.append(YAMLText.Entry("task", task)) }
        entries += mapResponses(operation)
        if let examples = examples(for: draft, operation: operation) {
            entries.append(YAMLText.Entry("examples", examples))
        }

        var comments = ["\(operation.label)" + (operation.node["deprecated"]?.bool == true ? " (deprecated)" : "")]
        for item in notes[firstNote...] where item.caseName == operation.caseName {
            comments.append("import: " + item.message)
        }
        return YAMLText.Entry(operation.caseName, .map(entries), comments: comments)
    }

    /// `examples: [{...}]` with every required value (and the optional ones the spec gives an
    /// example for), or `nil` when the case has no values or one of them has no possible example.
    private func examples(for draft: CaseDraft, operation: Operation) -> YAMLText? {
        guard !draft.values.isEmpty else { return nil }
        var members: [YAMLText.Entry] = []
        for value in draft.values {
            let required = !value.optional && value.defaultValue == nil
            guard let example = value.example else {
                if required {
                    note(
                        operation.node,
                        "value '\(value.name)' (\(value.kind == .file ? "a file" : "no example")) has no example: check reports the case as not covered; add examples:",
                        case: operation.caseName, operation: operation.label)
                    return nil
                }
                continue
            }
            if required || value.exampleIsExplicit { members.append(YAMLText.Entry(value.name, example)) }
        }
        return .list([.map(members)])
    }

    /// A note for each of the operation's callbacks: requests the API sends back, not a client's.
    private func noteCallbacks(_ operation: Operation) {
        guard let callbacks = operation.node["callbacks"] else { return }
        guard let members = callbacks.members else {
            problem(callbacks, "'callbacks' is not a map")
            return
        }
        for (name, callback) in members {
            note(
                callback,
                "callback '\(DisplayText.escaped(name))' is a request the API sends back, not one a client makes: not imported",
                case: operation.caseName, operation: operation.label)
        }
    }

    /// The operation's own server (else its path's), as the case's `baseURL`, by the rules of the
    /// document's servers; `nil` when it has none or it is the API's base URL. A case has one
    /// base URL: further servers are noted.
    private func caseBaseURL(_ operation: Operation) -> String? {
        let level = operation.node["servers"] != nil ? "operation" : "path"
        guard let list = operation.node["servers"] ?? operation.pathItem["servers"] else { return nil }
        guard let servers = list.elements else {
            problem(list, "'servers' is not a list")
            return nil
        }
        guard let first = servers.first else { return nil }
        let firstNote = notes.count
        let baseURL = baseURL(of: first)
        // What the server's rules noted concerns this case.
        for index in firstNote..<notes.count {
            notes[index].caseName = operation.caseName
            notes[index].operation = operation.label
        }
        if servers.count > 1 {
            note(
                list, "the \(level)'s other \(servers.count - 1) server(s) are left out: the case sends to the first",
                case: operation.caseName, operation: operation.label)
        }
        return baseURL == documentBaseURL ? nil : baseURL
    }

    // MARK: - Parameters

    /// Path-level parameters, overridden by the operation's of the same name and location.
    private func parameters(of operation: Operation) -> [SpecNode] {
        var list: [(key: String, node: SpecNode)] = []
        for source in [operation.pathItem["parameters"], operation.node["parameters"]] {
            guard let source else { continue }
            guard let elements = source.elements else {
                problem(source, "'parameters' is not a list")
                continue
            }
            for element in elements {
                guard let parameter = resolved(element, operation: operation) else { continue }
                guard let name = parameter["name"]?.text, let location = parameter["in"]?.string else {
                    problem(parameter, "parameter has no 'name' or no 'in'")
                    continue
                }
                let key = location + "\u{0}" + name
                if let index = list.firstIndex(where: { $0.key == key }) {
                    list[index].node = parameter
                } else {
                    list.append((key, parameter))
                }
            }
        }
        return list.map(\.node)
    }

    /// Adds a value for each path, query and header parameter; `false` when the operation cannot be
    /// imported (a required parameter that cannot be a value).
    private func mapParameters(_ operation: Operation, into draft: inout CaseDraft) -> Bool {
        for parameter in parameters(of: operation) {
            let name = parameter["name"]?.text ?? ""
            let location = parameter["in"]?.string ?? ""
            let required = location == "path" || parameter["required"]?.bool == true
            func skip(_ why: String) -> Bool {
                if required {
                    note(
                        parameter, "required \(location) parameter '\(name)' \(why): operation not imported",
                        operation: operation.label, skips: true)
                    return false
                }
                note(
                    parameter, "optional \(location) parameter '\(name)' \(why): left out", case: operation.caseName,
                    operation: operation.label)
                return true
            }
            switch location {
            case "path", "query", "header":
                break
            case "cookie":
                if !skip("is a cookie (cookies are not values; send one with -H 'Cookie: ...')") { return false }
                continue
            case "body" where isSwagger2, "formData" where isSwagger2:
                continue  // the request body (mapBody)
            default:
                problem(
                    parameter["in"] ?? parameter,
                    "parameter '\(DisplayText.escaped(name))' has an unknown location '\(DisplayText.escaped(location))'"
                )
                continue
            }
            if location == "header", ["accept", "content-type", "authorization"].contains(name.lowercased()) {
                note(
                    parameter,
                    "header parameter '\(name)' is ignored, as OpenAPI says (the case's auth and body set it)",
                    case: operation.caseName, operation: operation.label)
                continue
            }
            if location == "header", !TargetFileValidator.isToken(name) {
                if !skip("is not a valid header name") { return false }
                continue
            }
            let schemaNode =
                isSwagger2 ? parameter : (parameter["schema"] ?? parameter["content"]?.members?.first?.value["schema"])
            if !isSwagger2, parameter["schema"] == nil, parameter["content"] != nil {
                note(
                    parameter, "\(location) parameter '\(name)' has a media type: it is a string value, sent as given",
                    case: operation.caseName, operation: operation.label)
            }
            // A query object in deepObject style: one value per property, `name[property]`.
            if location == "query", let schemaNode, let schema = resolved(schemaNode, operation: operation),
                SchemaSampler.type(of: schema) == "object"
            {
                guard parameter["style"]?.string == "deepObject", let properties = schema["properties"]?.members,
                    !properties.isEmpty
                else {
                    if !skip("is an object") { return false }
                    continue
                }
                let requiredProperties = Set(schema["required"]?.elements?.compactMap(\.string) ?? [])
                for (property, propertySchema) in properties {
                    guard
                        var value = valueDraft(
                            name + "_" + property, schema: propertySchema, parameter: nil,
                            required: required && requiredProperties.contains(property), operation: operation,
                            draft: &draft),
                        !value.kind.isList
                    else {
                        note(
                            propertySchema,
                            "property '\(property)' of query parameter '\(name)' is not a scalar: left out",
                            case: operation.caseName, operation: operation.label)
                        continue
                    }
                    value.description = value.description ?? "\(name)[\(property)]"
                    draft.query.append(YAMLText.Entry("\(name)[\(property)]", .string("{\(value.name)}")))
                    draft.values.append(value)
                }
                continue
            }
            guard
                var value = valueDraft(
                    name, schema: schemaNode, parameter: parameter, required: required, operation: operation,
                    draft: &draft)
            else {
                if !skip("is not a string, number, boolean, enum or a list of them") { return false }
                continue
            }
            if value.name != name {
                note(
                    parameter, "\(location) parameter '\(name)' is value '\(value.name)'", case: operation.caseName,
                    operation: operation.label)
            }
            switch location {
            case "path":
                if value.kind.isList || value.kind == .file {
                    note(
                        parameter, "path parameter '\(name)' is a list: it is a string value, one path segment",
                        case: operation.caseName, operation: operation.label)
                    value.kind = .string
                    value.example = value.example.flatMap { ValueDraft.argument($0, of: .string) } ?? .string("string")
                    value.defaultValue = nil
                }
                // A path placeholder is always given: no default, never optional.
                value.optional = false
                value.defaultValue = nil
                if value.example == nil { value.example = ValueDraft.generated(value.kind, format: nil) }
                draft.pathValues[name] = value.name
            case "query":
                draft.query.append(YAMLText.Entry(name, .string("{\(value.name)}")))
                if value.kind.isList { noteArrayEncoding(parameter, operation: operation, draft: &draft) }
            default:
                draft.headers.append(YAMLText.Entry(name, .string("{\(value.name)}")))
            }
            draft.values.append(value)
        }
        return true
    }

    // MARK: - Path

    /// The path with its placeholders renamed to the values; a placeholder without a parameter
    /// gets a string value.
    private func mapPath(_ operation: Operation, into draft: inout CaseDraft) -> String? {
        var result = ""
        var rest = operation.path[...]
        var used = Set<String>()
        while let open = rest.firstIndex(of: "{") {
            result += Self.escapedPathText(rest[..<open])
            guard let close = rest[open...].firstIndex(of: "}") else {
                note(
                    operation.node, "path '\(operation.path)' has an unclosed '{'", operation: operation.label,
                    skips: true)
                return nil
            }
            var name = String(rest[rest.index(after: open)..<close])
            if name.hasPrefix("+") || name.hasPrefix("#") { name.removeFirst() }
            let valueName: String
            if let known = draft.pathValues[name] {
                valueName = known
            } else {
                var value = ValueDraft(
                    name: draft.newValueName(name), kind: .string, defaultValue: nil, optional: false, description: nil)
                value.example = .string("string")
                note(
                    operation.node, "path placeholder '{\(name)}' has no parameter: value '\(value.name)' is a string",
                    case: operation.caseName, operation: operation.label)
                draft.pathValues[name] = value.name
                draft.values.append(value)
                valueName = value.name
            }
            used.insert(name)
            if !draft.pathOrder.contains(valueName) { draft.pathOrder.append(valueName) }
            result += "{\(valueName)}"
            rest = rest[rest.index(after: close)...]
        }
        result += Self.escapedPathText(rest)
        // A path parameter the path does not name would be a value that is never used.
        for (name, valueName) in draft.pathValues where !used.contains(name) {
            note(
                operation.node, "path parameter '\(name)' is not in the path: left out", case: operation.caseName,
                operation: operation.label)
            draft.values.removeAll { $0.name == valueName }
        }
        return result.isEmpty ? "/" : result
    }

    /// Literal path text as a target file's path takes it: what a path may not hold (spaces,
    /// control characters, `?`, `#`, braces, non-ASCII) percent-escaped, and `$` too (`%24`), so
    /// that it can never start a `${...}` reference before a placeholder; `%XX` kept as written.
    static func escapedPathText(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var result = ""
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let isHex = { (i: Int) in
                i < bytes.count
                    && (bytes[i] >= 0x30 && bytes[i] <= 0x39 || bytes[i] | 0x20 >= 0x61 && bytes[i] | 0x20 <= 0x66)
            }
            let allowed =
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                || "-._~!&'()*+,;=:@/".utf8.contains(byte)
                || (byte == UInt8(ascii: "%") && isHex(index + 1) && isHex(index + 2))
            if allowed {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" : "") + hex
            }
            index += 1
        }
        return result
    }

    // MARK: - Security

    /// The case's `auth` (when it differs from the API's default) and its API-key headers.
    private func mapSecurity(_ operation: Operation, into draft: inout CaseDraft) {
        let requirement: [String]?
        if let own = operation.node["security"] {
            requirement = requirementSchemes(own, in: security)
            if requirement == nil, !(own.elements ?? []).isEmpty {
                note(
                    own,
                    "none of the operation's security requirements can be met with the imported schemes: no credentials are sent",
                    case: operation.caseName, operation: operation.label)
            }
        } else {
            requirement = root["security"].flatMap { requirementSchemes($0, in: security) }
        }
        let names = requirement ?? []
        // The scopes the operation's own requirement asks of each scheme.
        let ownRequirement = operation.node["security"]?.elements?.first { element in
            let schemes = (element.members ?? []).map(\.key)
            return schemes == names
        }
        var authName: String?
        var cookies: [String] = []
        for name in names {
            switch security.schemes[name] {
            case .authorization(let scheme, let spec, let header)?:
                if authName == nil {
                    authName = scheme
                    if let asked = ownRequirement?[name]?.elements {
                        authName = self.authName(
                            forScheme: name, authName: scheme, spec: spec, scopes: asked.compactMap(\.string),
                            at: ownRequirement ?? operation.node, operation: operation)
                    }
                } else if let header {
                    // A case has one auth: a second scheme that is a header key goes as the header.
                    draft.headers.removeAll { $0.key.lowercased() == header.name.lowercased() }
                    draft.headers.append(YAMLText.Entry(header.name, .string(header.value)))
                } else {
                    note(
                        operation.node["security"] ?? operation.node,
                        "the operation also asks for security scheme '\(name)': a case sends one auth scheme; it is not sent",
                        case: operation.caseName, operation: operation.label)
                }
            case .cookie(let cookie, let value)?:
                cookies.append(cookie + "=" + value)
            case nil:
                break
            }
        }
        if !cookies.isEmpty { draft.headers.append(YAMLText.Entry("Cookie", .string(cookies.joined(separator: "; ")))) }
        if authName != security.defaultScheme, !security.authorizationOrder.isEmpty {
            draft.auth = authName ?? "none"
        }
    }
}

extension ValueDraft.Kind {
    var isList: Bool { if case .list = self { true } else { false } }
}
