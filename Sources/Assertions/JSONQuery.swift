import OrderedJSON

/// A JSONPath query as RFC 9535 defines it: `$.items[?@.price > 10].name`, `$..id`, `$.a[-1:0:-1]`,
/// `$['a b', 'c']`, `$.*`. It selects a list of nodes (possibly empty) from a JSON document.
///
/// An `expect:` body assertion names its values with these. The capture and paging paths of a
/// target file stay TargetModel's `JSONPath`, which names exactly one value.
package struct JSONQuery: Sendable, Hashable, CustomStringConvertible {
    /// The query as written.
    package let source: String
    let segments: [QuerySegment]

    /// Parses `text`.
    ///
    /// - Throws: `JSONQueryError` saying what is wrong and at which character (0-based).
    package init(parsing text: String) throws(JSONQueryError) {
        var parser = JSONQueryParser(text)
        segments = try parser.parseQuery()
        source = text
        isSingular = segments.allSatisfy(\.isSingular)
    }

    package var description: String { source }

    /// Whether the query selects at most one node (only names and indices): RFC 9535's singular query.
    package let isSingular: Bool

    /// The nodes the query selects in `document`, in document order as RFC 9535 defines it.
    package func select(in document: JSONValue) -> [JSONValue] {
        if isSingular { return QueryEvaluator.singular(segments, from: document).map { [$0] } ?? [] }
        return QueryEvaluator.select(segments, from: [document], root: document)
    }

    package static func == (lhs: JSONQuery, rhs: JSONQuery) -> Bool { lhs.source == rhs.source }
    package func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

/// Why a JSONPath query cannot be read.
package struct JSONQueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    package var message: String
    /// The 0-based position (in Unicode scalars) of the problem.
    package var offset: Int

    init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    package var description: String { "\(message) (at character \(offset + 1))" }
}

// MARK: - The syntax tree

enum QuerySegment: Sendable {
    case child([QuerySelector])
    case descendant([QuerySelector])

    var isSingular: Bool {
        guard case .child(let selectors) = self, selectors.count == 1 else { return false }
        switch selectors[0] {
        case .name, .index: return true
        default: return false
        }
    }
}

indirect enum QuerySelector: Sendable {
    case name(String)
    case wildcard
    case index(Int)
    case slice(start: Int?, end: Int?, step: Int?)
    case filter(LogicalExpression)
}

/// `@.a` (relative to the current node) or `$.a` (absolute), inside a filter.
struct FilterQuery: Sendable {
    let isRelative: Bool
    let segments: [QuerySegment]
    /// Known once: a filter asks for each element.
    let isSingular: Bool

    init(isRelative: Bool, segments: [QuerySegment]) {
        self.isRelative = isRelative
        self.segments = segments
        isSingular = segments.allSatisfy(\.isSingular)
    }
}

indirect enum LogicalExpression: Sendable {
    case or([LogicalExpression])
    case and([LogicalExpression])
    case not(LogicalExpression)
    case comparison(Comparable, ComparisonOperator, Comparable)
    /// A query's existence test, or a function whose result is a logical value (or nodes).
    case test(FunctionArgument)
}

enum ComparisonOperator: String, Sendable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

enum Comparable: Sendable {
    case literal(JSONValue)
    case query(FilterQuery)
    case function(FunctionCall)
}

indirect enum FunctionArgument: Sendable {
    case literal(JSONValue)
    case query(FilterQuery)
    case logical(LogicalExpression)
    case function(FunctionCall)
}

/// The functions RFC 9535 defines.
enum QueryFunction: String, Sendable {
    case length, count, match, search, value

    /// What the function returns: a value, or a logical.
    var returnsLogical: Bool { self == .match || self == .search }
}

struct FunctionCall: Sendable {
    var function: QueryFunction
    var arguments: [FunctionArgument]
    /// The regular expression of `match`/`search` when it is a literal, compiled once.
    var pattern: CompiledPattern?
}

/// A compiled regular expression, shared (Regex is not declared `Sendable` on every toolchain).
final class CompiledPattern: @unchecked Sendable {
    let regex: Regex<AnyRegexOutput>
    init(regex: Regex<AnyRegexOutput>) { self.regex = regex }
}
