import OrderedJSON
import TargetModel

/// An example written as a string that holds JSON text (`example: '{"id": 1}'`, as some specs
/// write them), read as the JSON it holds, for a JSON body or sample.
enum JSONExample {
    /// The JSON object or array `node`'s string holds; `nil` for any other node or text.
    /// `templated`: strings as literal template text (samples), or as they are (arguments).
    static func parsed(_ node: SpecNode, templated: Bool) -> YAMLText? {
        guard let text = node.string?.trimmingSpaces(), text.hasPrefix("{") || text.hasPrefix("[") else { return nil }
        guard let json = try? JSONValue(parsing: text) else { return nil }
        return yaml(json, templated: templated)
    }

    private static func yaml(_ value: JSONValue, templated: Bool) -> YAMLText {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        case .number(let number): .number(number.text)
        case .string(let text): .string(templated ? SchemaSampler.literal(text) : text)
        case .array(let items): .list(items.map { yaml($0, templated: templated) })
        case .object(let members): .map(members.map { YAMLText.Entry($0.0, yaml($0.1, templated: templated)) })
        }
    }
}
