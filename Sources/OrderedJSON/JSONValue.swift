/// A JSON value whose objects keep their keys in order and whose numbers keep their text.
///
/// FoundationEssentials has no `JSONSerialization`, so this is MoyaKit's currency type for
/// request parameters (`Task.requestParameters`) and parsed responses (`Response.mapJSON()`).
/// Keeping object keys in order lets a pretty-printed response read like the server sent it;
/// keeping numbers as written lets it show the same ids and amounts (`12345678901234567890`,
/// `-0`, `1E2`, `2.50`).
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer in its plain form (`42`, `-7`) that fits in an `Int`: the common number, kept
    /// without a string.
    case int(Int)
    /// Any other number, as written: `-0`, `1E2`, `0.10`, integers beyond `Int`.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in order (duplicate keys are kept as given).
    case object([(String, JSONValue)])
}

// MARK: - Accessors

extension JSONValue {
    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, if this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer, if this is a number whose value is a whole number that fits in an `Int`.
    public var intValue: Int? {
        switch self {
        case .int(let value): return value
        case .number(let number): return number.intValue
        default: return nil
        }
    }

    /// The number as a `Double`, if this is a number within `Double`'s range.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .number(let number): return number.doubleValue
        default: return nil
        }
    }

    /// The number with its text, if this is a number.
    public var numberValue: JSONNumber? {
        switch self {
        case .int(let value): return JSONNumber(value)
        case .number(let number): return number
        default: return nil
        }
    }

    /// A double as a number in its shortest form (`1.0`, `0.1`); NaN and the infinities, which
    /// JSON cannot write, become `null` as in JavaScript's `JSON.stringify`.
    public static func double(_ value: Double) -> JSONValue {
        JSONNumber(value).map(JSONValue.number) ?? .null
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members in order, if this is an object.
    public var objectValue: [(String, JSONValue)]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value of the last member named `key`, if this is an object that has one.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.0 == key })?.1
    }

    /// The element at `index`, if this is an array long enough.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The value at a dotted key path such as `"owner.repos.0.name"`: each component is an object
    /// key, or an array index when the value there is an array. An empty path is the value itself.
    public func value(atKeyPath keyPath: String) -> JSONValue? {
        guard !keyPath.isEmpty else { return self }
        var current = self
        for component in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            let key = String(component)
            if case .array = current {
                guard let index = Int(key), let element = current[index] else { return nil }
                current = element
            } else {
                guard let member = current[key] else { return nil }
                current = member
            }
        }
        return current
    }
}

// MARK: - Equatable, Hashable

extension JSONValue: Hashable {
    /// Structural equality: object members are compared in order, and numbers by their text, so
    /// `1` is not `1.0` and `100` is not `1E2`.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(left), .bool(right)): return left == right
        case let (.int(left), .int(right)): return left == right
        case let (.number(left), .number(right)): return left == right
        case let (.int(left), .number(right)), let (.number(right), .int(left)): return right.plainInteger == left
        case let (.string(left), .string(right)): return left == right
        case let (.array(left), .array(right)): return left == right
        case let (.object(left), .object(right)):
            return left.count == right.count
                && zip(left, right).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value):
            hasher.combine(1)
            hasher.combine(value)
        case .int(let value):
            hasher.combine(2)
            hasher.combine(value)
        case .number(let number):
            // A plain integer hashes as `.int` does, since the two are equal.
            if let integer = number.plainInteger {
                hasher.combine(2)
                hasher.combine(integer)
            } else {
                hasher.combine(3)
                hasher.combine(number.text)
            }
        case .string(let value):
            hasher.combine(4)
            hasher.combine(value)
        case .array(let value):
            hasher.combine(5)
            hasher.combine(value)
        case .object(let members):
            hasher.combine(6)
            for (key, value) in members {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A number, in the literal's shortest form.
    public init(floatLiteral value: Double) { self = .number(JSONNumber(floatLiteral: value)) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object whose members keep the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { serializedString() }
}
