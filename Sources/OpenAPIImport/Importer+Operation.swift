import TargetSpec
import TextSafety
import TargetModel

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

    /// The URL encoding of a list parameter, by its `style` and `explode` (Swagger 2.0: its
    /// `collectionFormat`), as the case's `arrayEncoding`.
    private func noteArrayEncoding(_ parameter: SpecNode, operation: Operation, draft: inout CaseDraft) {
        let name = parameter["name"]?.text ?? ""
        if isSwagger2 {
            chooseArrayEncoding(
                collectionFormat: parameter["collectionFormat"]?.string ?? "csv", at: parameter,
                what: "query parameter '\(name)'", operation: operation, draft: &draft)
        } else {
            chooseArrayEncoding(
                style: parameter["style"]?.string, explode: parameter["explode"]?.bool, at: parameter,
                what: "query parameter '\(name)'", operation: operation, draft: &draft)
        }
    }

    /// Sets the case's `arrayEncoding` for a list in OpenAPI `style` (default `form`) and
    /// `explode` (default true for `form`): `form` repeats the name (`noBrackets`) or, not
    /// exploded, joins with commas (`comma`); `deepObject` writes `name[]=` (`brackets`);
    /// `spaceDelimited` and `pipeDelimited` exploded are `form`'s, not exploded they have no
    /// encoding here (sent comma-separated, noted).
    func chooseArrayEncoding(
        style: String?, explode: Bool?, at node: SpecNode, what: String, operation: Operation, draft: inout CaseDraft
    ) {
        let style = style ?? "form"
        let explode = explode ?? (style == "form")
        let encoding: String
        switch (style, explode) {
        case ("form", true), ("spaceDelimited", true), ("pipeDelimited", true): encoding = "noBrackets"
        case ("form", false): encoding = "comma"
        case ("deepObject", _): encoding = "brackets"
        default:
            note(
                node,
                "\(what) in style '\(style)' (not exploded) has no list encoding here: it is sent comma-separated",
                case: operation.caseName, operation: operation.label)
            encoding = "comma"
        }
        setArrayEncoding(encoding, at: node, operation: operation, draft: &draft)
    }

    /// Sets the case's `arrayEncoding` for a Swagger 2.0 `collectionFormat`.
    func chooseArrayEncoding(
        collectionFormat: String, at node: SpecNode, what: String, operation: Operation, draft: inout CaseDraft
    ) {
        let encoding: String
        switch collectionFormat {
        case "multi": encoding = "noBrackets"
        case "csv": encoding = "comma"
        case let other:
            note(
                node, "collectionFormat '\(other)' of \(what) has no list encoding here: it is sent comma-separated",
                case: operation.caseName, operation: operation.label)
            encoding = "comma"
        }
        setArrayEncoding(encoding, at: node, operation: operation, draft: &draft)
    }

    /// A case has one `arrayEncoding`: the first list's; a later list that asks for another is
    /// noted, exactly.
    private func setArrayEncoding(_ encoding: String, at node: SpecNode, operation: Operation, draft: inout CaseDraft) {
        if let chosen = draft.arrayEncoding, chosen != encoding {
            note(
                node, "list parameters of this case use different styles: all are sent as \(chosen), not \(encoding)",
                case: operation.caseName, operation: operation.label)
        } else {
            draft.arrayEncoding = encoding
        }
    }

    /// A value for a parameter or property, typed from its schema; `nil` when the schema is not a
    /// scalar, an enum or a list of them.
    func valueDraft(
        _ name: String, schema schemaNode: SpecNode?, parameter: SpecNode?, required: Bool,
        operation: Operation, draft: inout CaseDraft, allowFile: Bool = false, example bodyExample: YAMLText? = nil
    ) -> ValueDraft? {
        let schema = schemaNode.flatMap { resolved($0, operation: operation) }
        if schemaNode != nil, schema == nil { return nil }
        guard let (kind, format) = valueKind(schema, allowFile: allowFile, operation: operation) else { return nil }
        var value = ValueDraft(
            name: draft.newValueName(name), kind: kind, defaultValue: nil, optional: !required, description: nil)
        if let schema { value.allowedCases = typedEnumCases(schema, kind: kind, name: name, operation: operation) }
        let describedBy =
            parameter?["description"]?.string ?? schema?["description"]?.string ?? schema?["title"]?.string
        if let describedBy, !oneLine(describedBy).isEmpty { value.description = oneLine(describedBy) }
        if let fallback = schema?["default"] {
            if let argument = value.allowing(
                ValueDraft.argument(SchemaSampler.value(fallback, templated: false), of: kind))
            {
                value.defaultValue = argument
                value.optional = true
            } else {
                note(
                    fallback, "the default of '\(name)' does not fit its type: left out", case: operation.caseName,
                    operation: operation.label)
            }
        }
        // The example: the parameter's, its first named example, the schema's; else made up.
        var candidates: [SpecNode] = []
        for key in ["example", "x-example"] { if let node = parameter?[key] { candidates.append(node) } }
        if let named = parameter?["examples"]?.members?.first?.value,
            let example = resolved(named, operation: operation), let node = example["value"]
        {
            candidates.append(node)
        }
        if let node = schema?["example"] { candidates.append(node) }
        if let node = schema?["examples"]?.elements?.first { candidates.append(node) }
        // The request body's example, when it gives this property one, comes first.
        if let bodyExample, let argument = value.allowing(ValueDraft.argument(bodyExample, of: kind)) {
            value.example = argument
            value.exampleIsExplicit = true
        }
        for candidate in candidates where value.example == nil {
            if let argument = value.allowing(
                ValueDraft.argument(SchemaSampler.value(candidate, templated: false), of: kind))
            {
                value.example = argument
                value.exampleIsExplicit = true
                break
            }
        }
        if value.example == nil {
            value.example =
                value.defaultValue ?? value.allowedCases?.first
                ?? (kind == .file
                    ? options.exampleUploadFile.map { .string($0) } : ValueDraft.generated(kind, format: format))
            if kind == .file, value.example != nil { usesExampleUpload = true }
        }
        return value
    }

    /// The value kind of a schema, and its format; `nil` for objects and other shapes.
    func valueKind(_ schema: SpecNode?, allowFile: Bool, operation: Operation) -> (ValueDraft.Kind, String?)? {
        guard let schema else { return (.string, nil) }
        let format = schema["format"]?.string
        var type = SchemaSampler.type(of: schema)
        // An enum without a type is of its cases' type (`{enum: [1, 2]}` holds integers).
        if type == nil, let cases = schema["enum"]?.elements?.compactMap(\.scalar).filter({ $0 != .null }),
            !cases.isEmpty
        {
            if cases.allSatisfy({ if case .int = $0 { true } else { false } }) {
                type = "integer"
            } else if cases.allSatisfy({ if case .bool = $0 { true } else { false } }) {
                type = "boolean"
            } else if cases.allSatisfy({
                switch $0 {
                case .int, .double: true
                default: false
                }
            }) {
                type = "number"
            }
        }
        if let cases = schema["enum"]?.elements, type == nil || type == "string" {
            let present = cases.filter { $0.scalar != .null }
            // "" is a case like any other (`--state ""`).
            let strings = present.compactMap(\.string)
            if !strings.isEmpty, strings.count == present.count {
                var unique: [String] = []
                var seen = Set<String>()
                for text in strings where seen.insert(text).inserted { unique.append(text) }
                return (.enumeration(unique), format)
            }
        }
        switch type {
        case "integer": return (.int, format)
        case "number": return (.double, format)
        case "boolean": return (.bool, format)
        case "file": return allowFile || isSwagger2 ? (.file, format) : nil
        case "string":
            if format == "binary" { return allowFile ? (.file, format) : (.string, nil) }
            return (.string, format)
        case nil:
            if schema["allOf"] != nil || schema["oneOf"] != nil || schema["anyOf"] != nil { return nil }
            return (.string, format)
        case "array":
            guard let items = schema["items"], let itemSchema = resolved(items, operation: operation),
                let (element, elementFormat) = valueKind(itemSchema, allowFile: false, operation: operation),
                !element.isList, element != .file
            else { return nil }
            return (.list(element), elementFormat)
        default:
            return nil
        }
    }

    /// An integer, number or boolean schema's `enum` as the value's cases, each of its type;
    /// `nil` without one. An enum the value cannot keep (a case of another type, a list's
    /// elements) is noted.
    private func typedEnumCases(_ schema: SpecNode, kind: ValueDraft.Kind, name: String, operation: Operation)
        -> [YAMLText]?
    {
        let enumNode =
            kind.isList ? schema["items"].flatMap { resolved($0, operation: operation) }?["enum"] : schema["enum"]
        guard let enumNode, let cases = enumNode.elements?.filter({ $0.scalar != .null }), !cases.isEmpty else {
            return nil
        }
        let scalarKinds: [ValueDraft.Kind] = [.int, .double, .bool]
        guard scalarKinds.contains(kind) else {
            if kind.isList, case .list(let element) = kind, scalarKinds.contains(element) {
                note(
                    enumNode, "the enum of '\(name)''s elements is not kept: any \(element.typeName) is accepted",
                    case: operation.caseName, operation: operation.label)
            }
            return nil
        }
        var written: [YAMLText] = []
        // By number, not text (`1` and `1.0` are one case), in a set: a huge enum is one pass.
        var seen = Set<String>()
        for node in cases {
            guard let argument = ValueDraft.argument(SchemaSampler.value(node, templated: false), of: kind) else {
                note(
                    enumNode, "the enum of '\(name)' has a case that is not \(kind.typeName): any is accepted",
                    case: operation.caseName, operation: operation.label)
                return nil
            }
            if seen.insert(ValueDraft.caseKey(argument)).inserted { written.append(argument) }
        }
        return written
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
