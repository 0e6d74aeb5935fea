import MoyaKit

/// A JSON-shaped tree from a target file (`json:` bodies, `parameters`, `query`, JSON samples),
/// whose strings may hold placeholders.
///
/// Not `indirect`: it recurses through arrays only, so each value is stored in place rather than
/// in a box of its own (an allocation per value, kept for every sample of every case).
public enum JSONTemplate: Sendable, Hashable {
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
    /// - Parameter optionalNames: the case's optional values: a member or element that is a lone
    ///   placeholder of one of them that has no argument is left out.
    /// - Throws: `TemplateRenderError.missingArgument` when a placeholder has no argument.
    public func render(arguments: [String: ArgumentValue], optionalNames: Set<String> = []) throws(TemplateRenderError) -> JSONValue {
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
            for item in items where !item.isLeftOut(arguments: arguments, optionalNames: optionalNames) {
                rendered.append(try item.render(arguments: arguments, optionalNames: optionalNames))
            }
            return .array(rendered)
        case .object(let members):
            var rendered: [(String, JSONValue)] = []
            for member in members where !member.value.isLeftOut(arguments: arguments, optionalNames: optionalNames) {
                rendered.append((member.key, try member.value.render(arguments: arguments, optionalNames: optionalNames)))
            }
            return .object(rendered)
        }
    }

    /// Whether this is a lone placeholder of an optional value that was not given.
    public func isLeftOut(arguments: [String: ArgumentValue], optionalNames: Set<String>) -> Bool {
        guard case .placeholder(let name, _) = self else { return false }
        return optionalNames.contains(name) && arguments[name] == nil
    }
}
