import TargetModel
import TextSafety

/// Values typed from schemas: their kind, enum cases, default and example.
extension Importer {
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
        // An open enum's cases are what to try first: said in the description, and the example.
        var suggestions: [String] = []
        if let schema, SchemaSampler.type(of: schema) == nil, case .string = kind,
            let union = scalarUnion(schema, operation: operation), !union.suggestions.isEmpty
        {
            suggestions = union.suggestions
            let listed = suggestions.prefix(8).joined(separator: ", ") + (suggestions.count > 8 ? ", …" : "")
            value.description = oneLine(
                (value.description.map { $0 + " " } ?? "") + "(for example \(listed); any other text is accepted)",
                limit: 300)
        }
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
                value.defaultValue ?? value.allowedCases?.first ?? suggestions.first.map { .string($0) }
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
            if schema["oneOf"] != nil || schema["anyOf"] != nil {
                return scalarUnion(schema, operation: operation).map { ($0.kind, $0.format) }
            }
            if schema["allOf"] != nil { return nil }
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

    /// An `anyOf` or `oneOf` whose branches are all scalars, as one value (OpenAI's description
    /// writes 3.1's nullable string `anyOf: [{type: string}, {type: 'null'}]` for 86 properties,
    /// and an open enum as `anyOf: [{type: string}, {enum: [gpt-4o, …]}]`): the `null` branch
    /// is left out (a value is given or not); branches of one kind are that kind (enums alone:
    /// the enum of all their cases; integers and numbers: a number); any other mix is a string,
    /// with the enums' cases as `suggestions`. `nil` when a branch is an object, a list, another
    /// union or unreadable: the schema is no value.
    func scalarUnion(_ schema: SpecNode, operation: Operation)
        -> (kind: ValueDraft.Kind, format: String?, suggestions: [String])?
    {
        guard let branches = (schema["anyOf"] ?? schema["oneOf"])?.elements, !branches.isEmpty else { return nil }
        var kinds: [ValueDraft.Kind] = []
        var format: String?
        var cases: [String] = []
        for written in branches {
            guard let branch = resolved(written, operation: operation) else { return nil }
            let type = SchemaSampler.type(of: branch)
            if type == "null" || branch["enum"]?.elements?.allSatisfy({ $0.scalar == .null }) == true { continue }
            // Only scalars: a branch that is a list or a union could lead back here.
            guard branch["anyOf"] == nil, branch["oneOf"] == nil, branch["allOf"] == nil,
                ["string", "integer", "number", "boolean"].contains(type ?? "")
                    || (type == nil && branch["enum"] != nil),
                let (kind, branchFormat) = valueKind(branch, allowFile: false, operation: operation)
            else { return nil }
            if case .enumeration(let members) = kind { cases += members }
            kinds.append(kind)
            format = format ?? branchFormat
        }
        guard let first = kinds.first else { return nil }
        var unique: [String] = []
        var seen = Set<String>()
        for text in cases where seen.insert(text).inserted { unique.append(text) }
        if kinds.allSatisfy({ if case .enumeration = $0 { true } else { false } }) {
            return (.enumeration(unique), format, [])
        }
        if kinds.allSatisfy({ $0 == first }) { return (first, format, []) }
        if kinds.allSatisfy({ $0 == .int || $0 == .double }) { return (.double, nil, []) }
        return (.string, nil, unique)
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
}
