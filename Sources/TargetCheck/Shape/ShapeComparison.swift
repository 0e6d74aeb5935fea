import MoyaKit
import OrderedJSON

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
package struct ShapeComparison: Sendable {
    /// Whether extra live keys and live `null`s are drift too.
    package var isStrict: Bool
    /// At most this many drifts are collected (a long array of wrong elements would repeat one).
    package var limit: Int

    /// Creates a comparison.
    package init(isStrict: Bool = false, limit: Int = 50) {
        self.isStrict = isStrict
        self.limit = max(1, limit)
    }

    /// Where `live` differs from the shape of `sample`, in document order (at most `limit`).
    package func drifts(sample: JSONValue, live: JSONValue) -> [ShapeDrift] {
        var walk = Walk(limit: limit)
        compare(sample, live, &walk)
        return walk.drifts
    }

    /// One place of the path from the root to the value being compared.
    private enum Step {
        case key(String)
        case index(Int)
    }

    /// The comparison's state: the path to where it is, as steps (made into a JSONPath only for a
    /// drift: a live sweep compares every body, nearly all without one), and the drifts found.
    private struct Walk {
        let limit: Int
        var steps: [Step] = []
        var drifts: [ShapeDrift] = []

        var isFull: Bool { drifts.count >= limit }

        mutating func record(_ problem: ShapeDrift.Problem, at last: Step? = nil) {
            var path = "$"
            for step in steps { path = Self.append(step, to: path) }
            if let last { path = Self.append(last, to: path) }
            drifts.append(ShapeDrift(path: path, problem: problem))
        }

        private static func append(_ step: Step, to path: String) -> String {
            switch step {
            case .key(let key): ShapeComparison.path(path, key: key)
            case .index(let index): path + "[\(index)]"
            }
        }
    }

    private func compare(_ sample: JSONValue, _ live: JSONValue, _ walk: inout Walk) {
        guard !walk.isFull else { return }
        if sample.isNull { return }
        if live.isNull {
            if isStrict { walk.record(.typeMismatch(expected: Self.typeName(sample), found: "null")) }
            return
        }
        switch (sample, live) {
        case (.object(let expectedMembers), .object(let liveMembers)):
            // The sample's first member of a name is its shape; a live name given twice has its
            // last value (as a dictionary built in order would keep).
            let members = MemberIndex(expected: expectedMembers, live: liveMembers)
            for (position, (key, expected)) in expectedMembers.enumerated() where members.isFirst(expectedAt: position)
            {
                guard let found = members.liveValue(named: key) else {
                    guard !walk.isFull else { return }
                    walk.record(.missing, at: .key(key))
                    continue
                }
                walk.steps.append(.key(key))
                compare(expected, found, &walk)
                walk.steps.removeLast()
            }
            if isStrict {
                for (position, (key, value)) in liveMembers.enumerated()
                where !walk.isFull && !members.isDeclared(key) && members.isFirst(liveAt: position) {
                    walk.record(.unexpectedKey(found: Self.typeName(value)), at: .key(key))
                }
            }
        case (.array(let expectedElements), .array(let liveElements)):
            guard let elementShape = expectedElements.first else { return }
            for (index, element) in liveElements.enumerated() {
                walk.steps.append(.index(index))
                compare(elementShape, element, &walk)
                walk.steps.removeLast()
                if walk.isFull { return }
            }
        default:
            let expected = Self.typeName(sample)
            let found = Self.typeName(live)
            if expected != found {
                walk.record(.typeMismatch(expected: expected, found: found))
            }
        }
    }

    /// The members of a sample object and a live one, found by name: by a scan while both are
    /// small (most are: a scan of a few names costs less than hashing them), else through
    /// dictionaries built once.
    private struct MemberIndex {
        /// Objects up to this many members are scanned.
        static let largeObject = 16

        let expected: [(String, JSONValue)]
        let live: [(String, JSONValue)]
        /// For large objects: each live name's last value, and each name's first position.
        private let liveValues: [String: JSONValue]?
        private let firstExpected: [String: Int]?
        private let firstLive: [String: Int]?

        init(expected: [(String, JSONValue)], live: [(String, JSONValue)]) {
            self.expected = expected
            self.live = live
            guard expected.count > Self.largeObject || live.count > Self.largeObject else {
                (liveValues, firstExpected, firstLive) = (nil, nil, nil)
                return
            }
            liveValues = Dictionary(live, uniquingKeysWith: { _, last in last })
            firstExpected = Dictionary(
                expected.enumerated().map { ($1.0, $0) }, uniquingKeysWith: { first, _ in first })
            firstLive = Dictionary(live.enumerated().map { ($1.0, $0) }, uniquingKeysWith: { first, _ in first })
        }

        func liveValue(named key: String) -> JSONValue? {
            if let liveValues { return liveValues[key] }
            return live.last { $0.0 == key }?.1
        }

        func isDeclared(_ key: String) -> Bool {
            firstExpected.map { $0[key] != nil } ?? expected.contains { $0.0 == key }
        }

        func isFirst(expectedAt position: Int) -> Bool {
            let key = expected[position].0
            return firstExpected.map { $0[key] == position } ?? !expected[..<position].contains { $0.0 == key }
        }

        func isFirst(liveAt position: Int) -> Bool {
            let key = live[position].0
            return firstLive.map { $0[key] == position } ?? !live[..<position].contains { $0.0 == key }
        }
    }

    /// The JSON type name of `value`: object, array, string, number, bool or null.
    package static func typeName(_ value: JSONValue) -> String {
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
    package static func path(_ parent: String, key: String) -> String {
        // ASCII letters, digits and `_`, not starting with a digit. (Bytes: in ASCII the
        // alphabetic scalars are the letters, and a live check asks this of every key it visits.)
        let isIdentifier =
            key.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
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
