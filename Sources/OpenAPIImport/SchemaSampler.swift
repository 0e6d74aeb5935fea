import OrderedJSON
import TargetModel

/// Sample JSON made from a schema: its `example`, `default`, `const` or first `enum` entry when it
/// has one, else a value of its type and format (`date-time` → `2026-01-01T00:00:00Z`), objects
/// with their properties and arrays with one item. Recursive schemas stop where a reference
/// would repeat; a budget of nodes keeps huge schemas' samples small (only required properties
/// once it is spent).
struct SchemaSampler {
    /// Which properties belong: a response leaves out `writeOnly` ones, a request `readOnly` ones.
    enum Direction { case request, response }

    let document: SpecDocument
    let direction: Direction
    /// Whether strings are written for a template (sample bodies: `{` doubled) or as plain text.
    let templated: Bool
    private var budget = 400
    /// References the sampler could not follow (external ones), for the notes.
    private(set) var unresolved: [String] = []

    init(document: SpecDocument, direction: Direction, templated: Bool) {
        self.document = document
        self.direction = direction
        self.templated = templated
    }

    /// A schema's sample, made once per schema and direction: the sample of a schema depends on
    /// nothing else (each starts with a whole budget and no references followed).
    struct Key: Hashable {
        let direction: Direction
        let templated: Bool
        /// `$ref` text with the document it is read in, or the pointer of a schema written in place.
        let schema: String
    }

    struct Memo {
        let value: YAMLText?
        let unresolved: [String]
    }

    mutating func sample(_ schema: SpecNode) -> YAMLText? {
        let reference = schema["$ref"]?.string
        let key = Key(
            direction: direction, templated: templated,
            schema: reference.map { SpecFiles.documentKey(of: schema) + "#\u{0}" + $0 } ?? schema.pointer)
        if let memo = document.samples[key] {
            unresolved += memo.unresolved
            return memo.value
        }
        budget = 400
        let before = unresolved.count
        let value = sample(schema, depth: 0, stack: [])
        document.samples[key] = Memo(value: value, unresolved: Array(unresolved[before...]))
        return value
    }

    private mutating func sample(_ original: SpecNode, depth: Int, stack: [String]) -> YAMLText? {
        // Every call spends budget; once it is long spent, nothing more is sampled, so schemas
        // that fan out through shared references (allOf of allOf ...) cost a bounded amount.
        budget -= 1
        guard budget > -2000, depth < 64 else { return nil }
        var stack = stack
        var schema = original
        if let reference = original["$ref"]?.string {
            guard !stack.contains(reference) else { return nil }
            stack.append(reference)
            do { schema = try document.resolve(original) } catch {
                unresolved.append(reference)
                return nil
            }
        }
        if let example = schema["example"] { return Self.value(example, templated: templated) }
        if let examples = schema["examples"]?.elements, let first = examples.first {
            return Self.value(first, templated: templated)
        }
        if let constant = schema["const"] { return Self.value(constant, templated: templated) }
        if let fallback = schema["default"] { return Self.value(fallback, templated: templated) }
        if let first = schema["enum"]?.elements?.first(where: { $0.scalar != .null }) {
            return Self.value(first, templated: templated)
        }
        if let parts = schema["allOf"]?.elements, !parts.isEmpty {
            var members: [YAMLText.Entry] = []
            var other: YAMLText?
            for part in parts {
                switch sample(part, depth: depth + 1, stack: stack) {
                case .map(let entries)?:
                    for entry in entries where !members.contains(where: { $0.key == entry.key }) {
                        members.append(entry)
                    }
                case let value?: other = other ?? value
                case nil: break
                }
            }
            if !members.isEmpty || other == nil {
                members += objectMembers(schema, depth: depth, stack: stack).filter { entry in
                    !members.contains { $0.key == entry.key }
                }
                return .map(members)
            }
            return other
        }
        for key in ["oneOf", "anyOf"] {
            if let choices = schema[key]?.elements {
                for choice in choices {
                    if let value = sample(choice, depth: depth + 1, stack: stack) { return value }
                }
            }
        }
        switch Self.type(of: schema) {
        case "object":
            return .map(objectMembers(schema, depth: depth, stack: stack))
        case "array":
            guard depth < 12, budget > 0, let items = schema["items"] else { return .list([]) }
            return .list(sample(items, depth: depth + 1, stack: stack).map { [$0] } ?? [])
        case "string":
            return .string(
                Self.string(format: schema["format"]?.string, minLength: schema["minLength"]?.text.flatMap { Int($0) }))
        case "integer":
            return .int(schema["minimum"]?.text.flatMap { Int($0) } ?? 1)
        case "number":
            if let minimum = schema["minimum"]?.text, let number = JSONNumber(decimal: minimum),
                number.doubleValue != nil
            {
                return .number(number.text)
            }
            return .number("1.5")
        case "boolean":
            return .bool(true)
        case "null":
            return .null
        default:
            return nil
        }
    }

    /// An object's properties in order, without those that do not belong to this direction;
    /// optional ones are left out once the budget is spent or deep inside.
    private mutating func objectMembers(_ schema: SpecNode, depth: Int, stack: [String]) -> [YAMLText.Entry] {
        guard let properties = schema["properties"]?.members else { return [] }
        let required = Set(schema["required"]?.elements?.compactMap(\.string) ?? [])
        var members: [YAMLText.Entry] = []
        for (name, property) in properties {
            let isRequired = required.contains(name)
            guard isRequired || (budget > 0 && depth < 8) else { continue }
            let resolved = (try? document.resolve(property)) ?? property
            if direction == .response, resolved["writeOnly"]?.bool == true { continue }
            if direction == .request, resolved["readOnly"]?.bool == true { continue }
            guard depth < 12, let value = sample(property, depth: depth + 1, stack: stack) else { continue }
            members.append(YAMLText.Entry(name, value))
        }
        return members
    }

    /// The schema's type: `type` (the first that is not `null` when it is a list, as OpenAPI 3.1
    /// writes nullable ones), else `object` when it has properties, `array` when it has items.
    static func type(of schema: SpecNode) -> String? {
        if let type = schema["type"]?.string { return type }
        if let types = schema["type"]?.elements?.compactMap(\.string) {
            return types.first { $0 != "null" } ?? types.first
        }
        if schema["properties"] != nil || schema["additionalProperties"] != nil { return "object" }
        if schema["items"] != nil { return "array" }
        return nil
    }

    /// A string of the format.
    static func string(format: String?, minLength: Int?) -> String {
        let text: String
        switch format {
        case "date-time": text = "2026-01-01T00:00:00Z"
        case "date": text = "2026-01-01"
        case "time": text = "12:00:00"
        case "uuid": text = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
        case "email": text = "user@example.com"
        case "uri", "url", "iri": text = "https://example.com/"
        case "hostname": text = "example.com"
        case "ipv4": text = "192.0.2.1"
        case "ipv6": text = "2001:db8::1"
        case "byte": text = "bW95YQ=="
        case "password": text = "password"
        default: text = "string"
        }
        guard let minLength, minLength > text.count, minLength <= 256 else { return text }
        return text + String(repeating: "x", count: minLength - text.count)
    }

    /// A value of the spec as it is, for a sample body (`templated`: strings escaped so the
    /// target file reads them literally) or an argument.
    static func value(_ node: SpecNode, templated: Bool) -> YAMLText {
        switch node.node {
        case .scalar(let scalar):
            // A number keeps its digits (`12345678901234567890`, `-0`, `1e400`), as the loader
            // reads them back.
            if let number = NumberScalar.jsonNumber(scalar) {
                if let integer = Int(number.text), String(integer) == number.text { return .int(integer) }
                return .number(number.text)
            }
            switch scalar.resolved {
            case .null: return .null
            case .bool(let bool): return .bool(bool)
            case .int(let int): return .int(int)
            case .double: return .number(scalar.text)
            case .string(let text): return .string(templated ? literal(text) : text)
            }
        case .sequence:
            return .list((node.elements ?? []).map { value($0, templated: templated) })
        case .mapping:
            return .map((node.members ?? []).map { YAMLText.Entry($0.key, value($0.value, templated: templated)) })
        }
    }

    /// `text` as a template that reads back as exactly `text`: `{` and `}` doubled, `${` as `$${`.
    static func literal(_ text: String) -> String {
        guard text.contains(where: { $0 == "{" || $0 == "}" || $0 == "$" }) else { return text }
        var result = ""
        var characters = text[...]
        while let character = characters.popFirst() {
            switch character {
            case "{": result += "{{"
            case "}": result += "}}"
            case "$" where characters.first == "{":
                characters.removeFirst()
                result += "$${"
            default: result.append(character)
            }
        }
        return result
    }
}
