import Assertions
import OrderedJSON
import PositionedYAML

/// `--expect SUBJECT OP VALUE` of `call` and `request`, the compact form of `expect:`:
/// `'$.args.q=hello'`, `'$.n>=1'`, `'$.url~=^https:'`, `'$.items={count: {">=": 1}}'`,
/// `status=2xx`, `'header:Content-Type~=json'`, `'time<2000'`.
///
/// SUBJECT is a JSONPath (`$…`), `status`, `header:NAME` or `time`. OP is `=`, `!=`, `<`, `<=`, `>`,
/// `>=` or `~=` (matches). VALUE is JSON when it reads as JSON (`5`, `true`, `"5"`, `[1, 2]`), else
/// the text itself; after `=`, a `{…}` map is predicates as in a target file (YAML flow syntax).
package enum CompactExpectation {
    /// Why an `--expect` cannot be read.
    package struct Problem: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    private static let operators = ["!=", "<=", ">=", "~=", "=", "<", ">"]

    /// The expectations of `items`, merged in order.
    package static func parse(_ items: [String]) throws(Problem) -> Expectation {
        var expectation = Expectation()
        for item in items { expectation = expectation.overridden(by: try parse(item)) }
        return expectation
    }

    /// One `--expect`.
    package static func parse(_ item: String) throws(Problem) -> Expectation {
        guard let (subject, op, valueText) = split(item) else {
            throw Problem(
                description:
                    "--expect '\(item)': write PATH=VALUE (or !=, <, <=, >, >=, ~=), like '$.args.q=hello' or status=200"
            )
        }
        let predicates: [Predicate]
        if op == "=", valueText.hasPrefix("{") {
            predicates = try predicateMap(valueText, item: item)
        } else {
            let value = Self.value(valueText)
            switch op {
            case "=": predicates = [.equal(value)]
            case "!=": predicates = [.notEqual(value)]
            case "<": predicates = [.less(value)]
            case "<=": predicates = [.lessOrEqual(value)]
            case ">": predicates = [.greater(value)]
            case ">=": predicates = [.greaterOrEqual(value)]
            default:
                if let problem = RegularExpression.problem(in: valueText) {
                    throw Problem(description: "--expect '\(item)': \(problem)")
                }
                predicates = [.matches(valueText)]
            }
        }
        if subject.hasPrefix("$") {
            do {
                return Expectation(body: [BodyAssertion(query: try JSONQuery(parsing: subject), predicates: predicates)]
                )
            } catch {
                throw Problem(description: "--expect '\(item)': invalid JSONPath '\(subject)': \(error)")
            }
        }
        if subject == "status" {
            guard op == "=" else {
                throw Problem(description: "--expect '\(item)': write status=CODE, like status=2xx")
            }
            var reader = ExpectationReader()
            let node = Node.scalar(Node.Scalar(text: valueText, mark: Mark(line: 1, column: 1)))
            guard let status = reader.readStatus(node), reader.problems.isEmpty else {
                throw Problem(description: "--expect '\(item)': \(reader.problems.first?.message ?? "not a status")")
            }
            return Expectation(status: status)
        }
        if subject.lowercased().hasPrefix("header:") {
            let name = String(subject.dropFirst("header:".count))
            guard TargetFileValidator.isToken(name) else {
                throw Problem(description: "--expect '\(item)': '\(name)' is not a header name")
            }
            return Expectation(headers: [HeaderExpectation(name: name, predicates: predicates)])
        }
        if subject == "time" {
            guard predicates.allSatisfy(ExpectationReader.isNumericTest) else {
                throw Problem(description: "--expect '\(item)': time is compared with a number of milliseconds")
            }
            return Expectation(time: predicates)
        }
        throw Problem(
            description: "--expect '\(item)': the subject is a JSONPath ($...), status, header:NAME or time")
    }

    /// SUBJECT, OP and VALUE: the first operator outside brackets, parentheses and quotes.
    static func split(_ item: String) -> (String, String, String)? {
        let scalars = Array(item.unicodeScalars)
        var depth = 0
        var quote: Unicode.Scalar?
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if let open = quote {
                if scalar == "\\" {
                    index += 2
                    continue
                }
                if scalar == open { quote = nil }
            } else {
                switch scalar {
                case "'", "\"": quote = scalar
                case "[", "(": depth += 1
                case "]", ")": depth -= 1
                default:
                    if depth == 0 {
                        for op in operators where Self.has(op, in: scalars, at: index) {
                            let subject = String(String.UnicodeScalarView(scalars[..<index]))
                            let value = String(String.UnicodeScalarView(scalars[(index + op.unicodeScalars.count)...]))
                            guard !subject.isEmpty else { return nil }
                            return (subject, op, value)
                        }
                    }
                }
            }
            index += 1
        }
        return nil
    }

    private static func has(_ op: String, in scalars: [Unicode.Scalar], at index: Int) -> Bool {
        let wanted = Array(op.unicodeScalars)
        guard index + wanted.count <= scalars.count else { return false }
        return Array(scalars[index..<(index + wanted.count)]) == wanted
    }

    /// JSON when `text` is JSON, else the text as a string.
    static func value(_ text: String) -> JSONValue {
        (try? JSONValue(parsing: text)) ?? .string(text)
    }

    private static func predicateMap(_ text: String, item: String) throws(Problem) -> [Predicate] {
        let node: Node
        do {
            node = try YAMLLoader.load(Array(text.utf8), file: "--expect")
        } catch {
            throw Problem(
                description: "--expect '\(item)': \(error.diagnostics.first?.message ?? "not a YAML map")")
        }
        var reader = ExpectationReader()
        guard let predicates = reader.readPredicates(node), reader.problems.isEmpty else {
            throw Problem(description: "--expect '\(item)': \(reader.problems.first?.message ?? "not predicates")")
        }
        return predicates
    }
}
