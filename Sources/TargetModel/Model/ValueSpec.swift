import PositionedYAML

/// A case's associated value: `- per_page: {type: int, default: 30, description: "..."}`.
public struct ValueSpec: Sendable, Hashable {
    /// The value's name, used by `{name}` placeholders and `--name` options.
    public var name: String
    /// What the value accepts.
    public var type: ValueType
    /// The value used when none is given; `nil` makes the value required unless it is optional.
    public var defaultValue: ArgumentValue?
    /// `optional: true`: the value may be left out, and then whatever a lone placeholder of it
    /// builds (a parameter, a JSON member, a header, a multipart value part) is left out too.
    public var isOptional: Bool
    /// Shown by `call API CASE --help`.
    public var description: String?
    /// Where the value is declared (its name).
    public var mark: Mark
    /// `{type: int, enum: [1, 2]}`: the only arguments an int, double or bool value takes, as
    /// written; the value keeps its type (a JSON number, not a string). `nil`: any of the type.
    public var allowedCases: [String]? = nil

    /// Creates a value.
    public init(
        name: String, type: ValueType, defaultValue: ArgumentValue? = nil, isOptional: Bool = false,
        description: String? = nil, mark: Mark
    ) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.isOptional = isOptional
        self.description = description
        self.mark = mark
    }

    /// Whether the value must be given (it has no default and is not optional).
    public var isRequired: Bool { defaultValue == nil && !isOptional }
}

/// The type of an associated value.
public indirect enum ValueType: Sendable, Hashable, CustomStringConvertible {
    /// Any text.
    case string
    /// A 64-bit integer.
    case int
    /// A floating-point number.
    case double
    /// `true` or `false`.
    case bool
    /// A path to an existing, readable file.
    case file
    /// One of the given strings.
    case enumeration([String])
    /// `[string]`, `[int]`, `[enum: [a, b]]`: any number of elements of one type (not `file`,
    /// not a list).
    case list(ValueType)

    /// The type names a target file may write after a value's name (or as `type:`).
    public static let names = ["string", "int", "double", "bool", "file", "enum"]

    /// The type's name as written in a target file.
    public var name: String {
        switch self {
        case .string: "string"
        case .int: "int"
        case .double: "double"
        case .bool: "bool"
        case .file: "file"
        case .enumeration: "enum"
        case .list: "list"
        }
    }

    /// The type of a list's elements; `nil` for the other types.
    public var elementType: ValueType? {
        if case .list(let element) = self { element } else { nil }
    }

    /// The type for a short-form name (`enum` needs its cases, so it is not one of them).
    public init?(name: String) {
        switch name {
        case "string": self = .string
        case "int": self = .int
        case "double": self = .double
        case "bool": self = .bool
        case "file": self = .file
        default: return nil
        }
    }

    /// How usage messages describe the type: `int`, `one of open, closed, all`.
    public var description: String {
        switch self {
        case .enumeration(let cases): "one of " + cases.joined(separator: ", ")
        case .list(let element): "a list of " + element.description
        default: name
        }
    }

    /// The type with its article, for "'abc' is not an int": `an int`, `a bool (true or false)`.
    var withArticle: String {
        switch self {
        case .string: "a string"
        case .int: "an int"
        case .double: "a double (a finite decimal number such as 2.5 or 1e3)"
        case .bool: "a bool (true or false)"
        case .file: "a file"
        case .enumeration(let cases): "one of " + cases.joined(separator: ", ")
        case .list(let element): "a list of " + element.description
        }
    }
}
