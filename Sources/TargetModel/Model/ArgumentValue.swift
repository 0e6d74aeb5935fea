import OrderedJSON

/// A case's associated value once bound from the command line, an example or a default.
public enum ArgumentValue: Sendable, Hashable, CustomStringConvertible {
    /// A `string` value.
    case string(String)
    /// An `int` value (64-bit).
    case int(Int)
    /// A `double` value, as written (in JSON's spelling: `1`, `2.50`, `1e3`).
    case double(JSONNumber)
    /// A `bool` value.
    case bool(Bool)
    /// A `file` value: a path to a readable file.
    case file(path: String)
    /// An `enum` value: one of the declared cases.
    case enumCase(String)
    /// A list value: its elements, in order.
    case list([ArgumentValue])

    /// The text a placeholder inserts when the value is interpolated into a string; a list's
    /// elements joined with ", " (as a header lists them).
    public var text: String {
        switch self {
        case .list(let elements): elements.map(\.text).joined(separator: ", ")
        case .string(let text), .enumCase(let text), .file(let text): text
        case .int(let number): String(number)
        case .double(let number): number.text
        case .bool(let flag): flag ? "true" : "false"
        }
    }

    /// The value as typed JSON, as an exact `"{name}"` placeholder inserts it in JSON bodies.
    public var json: JSONValue {
        switch self {
        case .list(let elements): .array(elements.map(\.json))
        case .string(let text), .enumCase(let text), .file(let text): .string(text)
        case .int(let number): .int(number)
        case .double(let number): .number(number)
        case .bool(let flag): .bool(flag)
        }
    }

    /// The text, as `text`.
    public var description: String { text }
}
