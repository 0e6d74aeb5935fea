import MoyaKit

/// Compares the shape of a live JSON body with the shape of the case's sample: the contract a
/// target file states about its API.
///
/// The sample is the reference. Rules:
/// - Types are JSON's: object, array, string, number (integers and decimals alike), bool, null.
/// - Every key of a sample object must be in the live object, with a value of the same shape;
///   keys the live object adds are fine (APIs grow), and are reported only when `isStrict`.
/// - A sample array's first element is the shape of every live element; an empty sample array
///   says nothing about its elements, and an empty live array has none to check.
/// - `null` in the sample matches anything (the file does not know the type). `null` in the
///   live body where the sample has a value is an optional field left empty: accepted, unless
///   `isStrict`.
public struct ShapeComparison: Sendable {
    /// Whether extra live keys and live `null`s are drift too.
    public var isStrict: Bool
    /// At most this many drifts are collected (a long array of wrong elements would repeat one).
    public var limit: Int

    /// Creates a comparison.
    public init(isStrict: Bool = false, limit: Int = 50) {
        self.isStrict = isStrict
        self.limit = max(1, limit)
    }

    /// Where `live` differs from the shape of `sample`, in document order (at most `limit`).
    public func drifts(sample: JSONValue, live: JSONValue) -> [ShapeDrift] {
        var drifts: [ShapeDrift] = []
        compare(sample, live, path: "$", into: &drifts)
        return drifts
    }

    private func compare(_ sample: JSONValue, _ live: JSONValue, path: String, into drifts: inout [ShapeDrift]) {
        guard drifts.count < limit else { return }
        if sample.isNull { return }
        if live.isNull {
            if isStrict { drifts.append(ShapeDrift(path: path, problem: .typeMismatch(expected: Self.typeName(sample), found: "null"))) }
            return
        }
        switch (sample, live) {
        case (.object(let expectedMembers), .object(let liveMembers)):
            var liveValues: [String: JSONValue] = [:]
            for (key, value) in liveMembers { liveValues[key] = value }
            var declared = Set<String>()
            for (key, expected) in expectedMembers where declared.insert(key).inserted {
                let memberPath = Self.path(path, key: key)
                guard let found = liveValues[key] else {
                    guard drifts.count < limit else { return }
                    drifts.append(ShapeDrift(path: memberPath, problem: .missing))
                    continue
                }
                compare(expected, found, path: memberPath, into: &drifts)
            }
            if isStrict {
                for (key, value) in liveMembers where !declared.contains(key) && drifts.count < limit {
                    declared.insert(key)
                    drifts.append(ShapeDrift(path: Self.path(path, key: key), problem: .unexpectedKey(found: Self.typeName(value))))
                }
            }
        case (.array(let expectedElements), .array(let liveElements)):
            guard let elementShape = expectedElements.first else { return }
            for (index, element) in liveElements.enumerated() {
                compare(elementShape, element, path: path + "[\(index)]", into: &drifts)
                if drifts.count >= limit { return }
            }
        default:
            let expected = Self.typeName(sample)
            let found = Self.typeName(live)
            if expected != found {
                drifts.append(ShapeDrift(path: path, problem: .typeMismatch(expected: expected, found: found)))
            }
        }
    }

    /// The JSON type name of `value`: object, array, string, number, bool or null.
    public static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "bool"
        case .int, .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// `$.name` for identifier-like keys, `$["odd key"]` otherwise.
    static func path(_ parent: String, key: String) -> String {
        // ASCII letters, digits and `_`, not starting with a digit. (Bytes: in ASCII the
        // alphabetic scalars are the letters, and a live check asks this of every key it visits.)
        let isIdentifier = key.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
        } && key.utf8.first.map { !($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) } == true
        if isIdentifier { return parent + "." + key }
        var escaped = "\""
        for character in key {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            default: escaped.append(character)
            }
        }
        return parent + "[" + escaped + "\"]"
    }
}
