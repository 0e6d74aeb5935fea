import Assertions
import OrderedJSON
import PositionedYAML

/// Reads `expect:` maps (a case's, an example's `$expect`) and `--expect` values into an
/// `Expectation`, collecting every problem with its place: a bad JSONPath or regular expression,
/// an unknown predicate, a value of the wrong kind.
package struct ExpectationReader {
    /// The problems found, each with where it is.
    package private(set) var problems: [(message: String, mark: Mark)] = []

    package init() {}

    static let keys = ["status", "headers", "body", "time"]

    /// An `expect:` map; `nil` when it has problems (reported in ``problems``).
    package mutating func read(_ node: Node) -> Expectation? {
        let before = problems.count
        guard case .mapping(let entries, _) = node else {
            problem("expect is a map with status, headers, body and time, like {status: 200}", at: node.mark)
            return nil
        }
        var expectation = Expectation()
        for entry in entries {
            switch entry.key.text {
            case "status": expectation.status = readStatus(entry.value)
            case "headers":
                guard case .mapping(let headers, _) = entry.value else {
                    problem("expect's headers is a map of header name to value or predicates", at: entry.value.mark)
                    continue
                }
                for header in headers {
                    guard TargetFileValidator.isToken(header.key.text) else {
                        problem("'\(header.key.text)' is not a header name", at: header.key.mark)
                        continue
                    }
                    if let predicates = readPredicates(header.value) {
                        expectation.headers.append(HeaderExpectation(name: header.key.text, predicates: predicates))
                    }
                }
            case "body":
                guard case .mapping(let paths, _) = entry.value else {
                    problem(
                        "expect's body is a map of JSONPath to value or predicates, like {\"$.id\": 1}",
                        at: entry.value.mark)
                    continue
                }
                for path in paths {
                    guard let query = readQuery(path.key) else { continue }
                    if let predicates = readPredicates(path.value) {
                        expectation.body.append(BodyAssertion(query: query, predicates: predicates))
                    }
                }
            case "time":
                if let predicates = readPredicates(entry.value) {
                    for predicate in predicates where !Self.isNumericTest(predicate) {
                        problem(
                            "time is tested in milliseconds with <, <=, >, >=, == or !=, like {\"<\": 2000}",
                            at: entry.value.mark)
                    }
                    expectation.time = predicates
                }
            default:
                problem(
                    "unknown key '\(entry.key.text)' in expect; the keys are status, headers, body and time"
                        + Suggestion.didYouMean(entry.key.text, in: Self.keys), at: entry.key.mark)
            }
        }
        return problems.count == before ? expectation : nil
    }

    /// A JSONPath (RFC 9535) written as a key; a problem points at the character.
    package mutating func readQuery(_ key: Node.Scalar) -> JSONQuery? {
        do {
            return try JSONQuery(parsing: key.text)
        } catch {
            var mark = key.mark
            mark.column += error.offset + (key.isPlain ? 0 : 1)
            problem("invalid JSONPath '\(key.text)': \(error.message)", at: mark)
            return nil
        }
    }

    /// `200`, `"2xx"`, or a list of them.
    mutating func readStatus(_ node: Node) -> StatusExpectation? {
        var status = StatusExpectation(codes: [], classes: [])
        let items: [Node]
        if case .sequence(let list, _) = node { items = list } else { items = [node] }
        for item in items {
            guard case .scalar(let scalar) = item else {
                problem("status is a code (200), a class (\"2xx\") or a list of them", at: item.mark)
                continue
            }
            if case .int(let code) = scalar.resolved, (100...599).contains(code) {
                status.codes.append(code)
            } else if scalar.text.count == 3, scalar.text.lowercased().hasSuffix("xx"),
                let digit = Int(scalar.text.prefix(1)), (1...5).contains(digit)
            {
                status.classes.append(digit)
            } else {
                problem(
                    "status '\(scalar.text)' is not a code from 100 to 599 or a class like \"2xx\"", at: scalar.mark)
            }
        }
        guard !items.isEmpty else {
            problem("status lists at least one code or class", at: node.mark)
            return nil
        }
        return status
    }

    /// A bare value (equality) or a map of predicates, every one of which must hold.
    package mutating func readPredicates(_ node: Node) -> [Predicate]? {
        let before = problems.count
        switch node {
        case .scalar, .sequence:
            guard let value = Self.json(node) else {
                problem("expected a value or a map of predicates", at: node.mark)
                return nil
            }
            return [.equal(value)]
        case .mapping(let entries, let mark):
            guard !entries.isEmpty else {
                problem("an empty map tests nothing; write predicates such as {\">=\": 1}", at: mark)
                return nil
            }
            var predicates: [Predicate] = []
            for entry in entries {
                if let predicate = readPredicate(name: entry.key, value: entry.value) { predicates.append(predicate) }
            }
            return problems.count == before ? predicates : nil
        }
    }

    private mutating func readPredicate(name key: Node.Scalar, value node: Node) -> Predicate? {
        func value() -> JSONValue? {
            guard let json = Self.json(node) else {
                problem("'\(key.text)' takes a value", at: node.mark)
                return nil
            }
            return json
        }
        func ordered() -> JSONValue? {
            guard let json = value() else { return nil }
            switch json {
            case .int, .number, .string: return json
            default:
                problem("'\(key.text)' compares with a number or a string", at: node.mark)
                return nil
            }
        }
        func text() -> JSONValue? {
            guard case .scalar = node, let json = value(), case .string = json else {
                problem("'\(key.text)' takes a string", at: node.mark)
                return nil
            }
            return json
        }
        func flag() -> Bool? {
            guard case .scalar(let scalar) = node, case .bool(let flag) = scalar.resolved else {
                problem("'\(key.text)' takes true or false", at: node.mark)
                return nil
            }
            return flag
        }
        switch key.text {
        case "==": return value().map(Predicate.equal)
        case "!=": return value().map(Predicate.notEqual)
        case "<": return ordered().map(Predicate.less)
        case "<=": return ordered().map(Predicate.lessOrEqual)
        case ">": return ordered().map(Predicate.greater)
        case ">=": return ordered().map(Predicate.greaterOrEqual)
        case "matches":
            guard let pattern = text()?.stringValue else { return nil }
            if let problemText = RegularExpression.problem(in: pattern) {
                problem(problemText, at: node.mark)
                return nil
            }
            return .matches(pattern)
        case "contains": return value().map(Predicate.contains)
        case "startsWith": return text().map(Predicate.startsWith)
        case "endsWith": return text().map(Predicate.endsWith)
        case "in":
            guard case .sequence = node, case .array(let list)? = value() else {
                problem("'in' takes a list, like [open, closed]", at: node.mark)
                return nil
            }
            return .oneOf(list)
        case "exists": return flag().map(Predicate.exists)
        case "isEmpty": return flag().map(Predicate.isEmpty)
        case "type":
            guard case .scalar(let scalar) = node, let kind = JSONKind(rawValue: scalar.text) else {
                problem(
                    "type is one of " + JSONKind.allCases.map(\.rawValue).joined(separator: ", "), at: node.mark)
                return nil
            }
            return .type(kind)
        case "count":
            if case .scalar(let scalar) = node {
                guard case .int(let count) = scalar.resolved, count >= 0 else {
                    problem("count is a number or a map of predicates, like {\">=\": 1}", at: node.mark)
                    return nil
                }
                return .count([.equal(.int(count))])
            }
            guard let inner = readPredicates(node) else { return nil }
            return .count(inner)
        default:
            problem(
                "unknown predicate '\(key.text)'; the predicates are " + Predicate.names.joined(separator: ", ")
                    + Suggestion.didYouMean(key.text, in: Predicate.names), at: key.mark)
            return nil
        }
    }

    static func isNumericTest(_ predicate: Predicate) -> Bool {
        switch predicate {
        case .less(let value), .lessOrEqual(let value), .greater(let value), .greaterOrEqual(let value),
            .equal(let value), .notEqual(let value):
            value.doubleValue != nil
        default: false
        }
    }

    /// A YAML node as the JSON value it writes (plain scalars typed by YAML's core schema).
    package static func json(_ node: Node) -> JSONValue? {
        switch node {
        case .scalar(let scalar):
            switch scalar.resolved {
            case .null: return .null
            case .bool(let flag): return .bool(flag)
            case .int(let value): return .int(value)
            case .double(let value): return JSONNumber(scalar.text).map(JSONValue.number) ?? .double(value)
            case .string(let text): return .string(text)
            }
        case .sequence(let items, _):
            var values: [JSONValue] = []
            for item in items {
                guard let value = json(item) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .mapping(let entries, _):
            var members: [(String, JSONValue)] = []
            for entry in entries {
                guard let value = json(entry.value) else { return nil }
                members.append((entry.key.text, value))
            }
            return .object(members)
        }
    }

    private mutating func problem(_ message: String, at mark: Mark) {
        problems.append((message, mark))
    }
}
