import MoyaKit

/// A JSON-shaped tree from a target file (`json:` bodies, `parameters`, `query`, JSON samples),
/// whose strings may hold placeholders.
public indirect enum JSONTemplate: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A number with a fraction or an exponent, as written (in JSON's spelling).
    case double(JSONNumber)
    /// A string, interpolating any placeholders it holds.
    case string(Template)
    /// A string that is exactly one placeholder (`"{id}"`): it takes the value's type.
    case placeholder(name: String, mark: Mark)
    /// An array.
    case array([JSONTemplate])
    /// An object, members in file order.
    case object([Member])

    /// One member of an object (or one parameter).
    public struct Member: Sendable, Hashable {
        /// The key, taken literally.
        public var key: String
        /// The value.
        public var value: JSONTemplate

        /// Creates a member.
        public init(key: String, value: JSONTemplate) {
            self.key = key
            self.value = value
        }
    }

    /// The JSON with every placeholder replaced by its argument.
    ///
    /// - Throws: `TemplateRenderError.missingArgument` when a placeholder has no argument.
    public func render(arguments: [String: ArgumentValue]) throws(TemplateRenderError) -> JSONValue {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number): return .number(number)
        case .string(let template): return .string(try template.render(arguments: arguments))
        case .placeholder(let name, let mark):
            guard let argument = arguments[name] else { throw .missingArgument(name: name, mark: mark) }
            return argument.json
        case .array(let items):
            var rendered: [JSONValue] = []
            for item in items { rendered.append(try item.render(arguments: arguments)) }
            return .array(rendered)
        case .object(let members):
            var rendered: [(String, JSONValue)] = []
            for member in members {
                rendered.append((member.key, try member.value.render(arguments: arguments)))
            }
            return .object(rendered)
        }
    }
}
