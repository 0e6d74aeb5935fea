import OrderedJSON
import PositionedYAML

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
    /// Any other number, as written (in JSON's spelling): with a fraction or an exponent, `-0`,
    /// or beyond 64 bits (`12345678901234567890`, `1e400`).
    case double(JSONNumber)
    /// A string, interpolating any placeholders it holds.
    case string(Template)
    /// A string that is exactly one placeholder (`"{id}"`): it takes the value's type.
    case placeholder(name: String, mark: Mark)
    /// An array.
    case array([JSONTemplate])
    /// An object, members in file order.
    case object([Member])
    /// JSON without a placeholder, held as the text rendering it gives rather than as a tree:
    /// a sample's JSON is kept for every case of an API, and as a tree took some 400 bytes a
    /// case (see ``compacted()``).
    case literal(LiteralJSON)

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

    /// This template, as ``literal(_:)`` when it is an array or an object with no placeholder
    /// in it (nested no deeper than JSON's parser reads back), else as it is.
    public func compacted() -> JSONTemplate {
        switch self {
        case .array, .object:
            guard let depth = literalDepth, depth < JSONValue.maximumParsingDepth,
                let rendered = literalValue
            else { return self }
            return .literal(LiteralJSON(bytes: rendered.serializedBytes()))
        default:
            return self
        }
    }

    /// The JSON this template renders to when it has no placeholder and no `${...}` reference, as
    /// rendering it with no arguments gives it (rendering is the runtime's); `nil` otherwise.
    private var literalValue: JSONValue? {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number): return .number(number)
        case .string(let template): return template.literalText.map(JSONValue.string)
        case .placeholder: return nil
        case .array(let items):
            var values: [JSONValue] = []
            for item in items {
                guard let value = item.literalValue else { return nil }
                values.append(value)
            }
            return .array(values)
        case .object(let members):
            var values: [(String, JSONValue)] = []
            for member in members {
                guard let value = member.value.literalValue else { return nil }
                values.append((member.key, value))
            }
            return .object(values)
        case .literal(let json):
            return json.value
        }
    }

    /// How deeply nested this template is, when it has no placeholder; `nil` when it has one.
    private var literalDepth: Int? {
        switch self {
        case .null, .bool, .int, .double, .literal: return 0
        case .string(let template): return template.isSourceLiteral || template.literalText != nil ? 0 : nil
        case .placeholder: return nil
        case .array(let items): return Self.literalDepth(containing: items)
        case .object(let members): return Self.literalDepth(containing: members.lazy.map(\.value))
        }
    }

    /// ``literalDepth`` of an array or object holding `children`.
    private static func literalDepth(containing children: some Sequence<JSONTemplate>) -> Int? {
        var deepest = 0
        for child in children {
            guard let depth = child.literalDepth else { return nil }
            deepest = max(deepest, depth)
        }
        return deepest + 1
    }

    /// Whether this is a lone placeholder of an optional value that was not given.
    public func isLeftOut(arguments: [String: ArgumentValue], optionalNames: Set<String>) -> Bool {
        let name: String
        switch self {
        case .placeholder(let placeholder, _): name = placeholder
        // A bool the query sends as text (`boolEncoding: literal`) is still its lone placeholder.
        case .string(let template):
            guard let placeholder = template.soloPlaceholder else { return false }
            name = placeholder
        default: return false
        }
        return optionalNames.contains(name) && arguments[name] == nil
    }
}

/// JSON text without placeholders: the UTF-8 that rendering its template gave, compact.
public struct LiteralJSON: Sendable, Hashable {
    /// The JSON text.
    public let bytes: [UInt8]

    /// The JSON as a value. The text is this program's own serialization, nested less deeply
    /// than the parser's limit (``JSONTemplate/compacted()``), so it parses; were it ever not to,
    /// it is the text as a string rather than a crash.
    public var value: JSONValue {
        (try? JSONValue(parsing: bytes)) ?? .string(String(decoding: bytes, as: UTF8.self))
    }
}
