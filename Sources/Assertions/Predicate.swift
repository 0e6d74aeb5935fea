import OrderedJSON

/// One test an expectation applies to a value: `==` (a bare scalar), `!=`, `<`, `<=`, `>`, `>=`,
/// `matches`, `contains`, `startsWith`, `endsWith`, `in`, `exists`, `type`, `count`, `isEmpty`.
///
/// Expected values may hold placeholders (`"{q}"`), filled by ``resolving(_:)`` before a test.
package enum Predicate: Sendable, Hashable {
    case equal(JSONValue)
    case notEqual(JSONValue)
    case less(JSONValue)
    case lessOrEqual(JSONValue)
    case greater(JSONValue)
    case greaterOrEqual(JSONValue)
    /// A regular expression found anywhere in a string (anchor it with `^…$` for all of it).
    case matches(String)
    /// A substring of a string, or an element of an array.
    case contains(JSONValue)
    case startsWith(JSONValue)
    case endsWith(JSONValue)
    /// Equal to one of the list.
    case oneOf([JSONValue])
    /// Whether the selection has a node (or the header is present).
    case exists(Bool)
    case type(JSONKind)
    /// Tests on a number: the selection's size, or the length of the one array (object, string) a singular path names.
    case count([Predicate])
    case isEmpty(Bool)

    /// The predicate names a map may use, for messages.
    package static let names = [
        "==", "!=", "<", "<=", ">", ">=", "matches", "contains", "startsWith", "endsWith", "in", "exists", "type",
        "count", "isEmpty"
    ]

    /// Whether the predicate looks at the selection as a whole rather than at each node.
    var isAboutSelection: Bool {
        switch self {
        case .exists, .count, .isEmpty: true
        default: false
        }
    }

    /// `self` with each `{name}` in its expected values filled from `values`: a string that is
    /// exactly one placeholder takes the value itself (typed), others take its text.
    package func resolving(_ values: [String: JSONValue]) -> Predicate {
        guard !values.isEmpty else { return self }
        func fill(_ value: JSONValue) -> JSONValue { Placeholders.fill(value, from: values) }
        switch self {
        case .equal(let value): return .equal(fill(value))
        case .notEqual(let value): return .notEqual(fill(value))
        case .less(let value): return .less(fill(value))
        case .lessOrEqual(let value): return .lessOrEqual(fill(value))
        case .greater(let value): return .greater(fill(value))
        case .greaterOrEqual(let value): return .greaterOrEqual(fill(value))
        case .matches(let pattern): return .matches(Placeholders.fillText(pattern, from: values))
        case .contains(let value): return .contains(fill(value))
        case .startsWith(let value): return .startsWith(fill(value))
        case .endsWith(let value): return .endsWith(fill(value))
        case .oneOf(let list): return .oneOf(list.map(fill))
        case .count(let inner): return .count(inner.map { $0.resolving(values) })
        case .exists, .type, .isEmpty: return self
        }
    }

    /// What the predicate expects, as the failure line says it: `"nope"`, `>= 1`, `a match for /^a/`.
    package var expectation: String {
        switch self {
        case .equal(let value): return Self.show(value)
        case .notEqual(let value): return "not \(Self.show(value))"
        case .less(let value): return "< \(Self.show(value))"
        case .lessOrEqual(let value): return "<= \(Self.show(value))"
        case .greater(let value): return "> \(Self.show(value))"
        case .greaterOrEqual(let value): return ">= \(Self.show(value))"
        case .matches(let pattern): return "a match for /\(pattern)/"
        case .contains(let value): return "a value containing \(Self.show(value))"
        case .startsWith(let value): return "a string starting with \(Self.show(value))"
        case .endsWith(let value): return "a string ending with \(Self.show(value))"
        case .oneOf(let list): return "one of \(Self.show(.array(list)))"
        case .exists(let exists): return exists ? "a value" : "nothing"
        case .type(let kind): return kind.withArticle
        case .count(let inner): return "a count " + inner.map(\.expectation).joined(separator: " and ")
        case .isEmpty(let empty): return empty ? "nothing or an empty value" : "a value that is not empty"
        }
    }

    /// `value` as a failure line shows it: compact JSON, at most 120 characters.
    package static func show(_ value: JSONValue) -> String {
        let text = value.serializedString()
        guard text.unicodeScalars.count > 120 else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(117))) + "..."
    }
}

/// The kinds `type:` names.
package enum JSONKind: String, Sendable, Hashable, CaseIterable {
    case string, number, integer, boolean, null, object, array

    var withArticle: String {
        switch self {
        case .integer, .object, .array: "an \(rawValue)"
        default: "a \(rawValue)"
        }
    }

    /// Whether `value` is of this kind (an integer is also a number; `2.0` is an integer).
    func includes(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.string, .string), (.boolean, .bool), (.null, .null), (.object, .object), (.array, .array): true
        case (.number, .int), (.number, .number), (.integer, .int): true
        case (.integer, .number(let number)): number.doubleValue.map { $0.rounded() == $0 && $0.isFinite } ?? false
        default: false
        }
    }

    /// The kind of `value`, as a failure line names it.
    static func describing(_ value: JSONValue) -> String {
        switch value {
        case .string: "a string"
        case .int: "an integer"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .object: "an object"
        case .array: "an array"
        }
    }
}

/// `{name}` placeholders in expected values.
package enum Placeholders {
    /// `value` with placeholders filled: a string that is exactly `{name}` becomes the value.
    static func fill(_ value: JSONValue, from values: [String: JSONValue]) -> JSONValue {
        switch value {
        case .string(let text):
            if text.hasPrefix("{"), text.hasSuffix("}"), let whole = values[String(text.dropFirst().dropLast())] {
                return whole
            }
            return .string(fillText(text, from: values))
        case .array(let elements): return .array(elements.map { fill($0, from: values) })
        case .object(let members): return .object(members.map { ($0.0, fill($0.1, from: values)) })
        default: return value
        }
    }

    /// `text` with each `{name}` of `values` replaced by the value's text (a string as it is, others as JSON).
    package static func fillText(_ text: String, from values: [String: JSONValue]) -> String {
        guard text.contains("{") else { return text }
        var output = text
        for (name, value) in values where output.contains("{\(name)}") {
            let replacement = value.stringValue ?? value.serializedString()
            output = output.replacing("{\(name)}", with: replacement)
        }
        return output
    }

    /// The `{name}` placeholders in `text` (identifiers only), in order.
    package static func names(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest[rest.index(after: open)...]
            guard let close = afterOpen.firstIndex(of: "}") else { break }
            let name = afterOpen[..<close]
            if let first = name.first, first.isASCII, first.isLetter || first == "_",
                name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            {
                names.append(String(name))
                rest = afterOpen[afterOpen.index(after: close)...]
            } else {
                rest = afterOpen
            }
        }
        return names
    }
}
