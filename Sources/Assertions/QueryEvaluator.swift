import OrderedJSON

/// Evaluates parsed queries: segments over node lists, filters with RFC 9535's comparison rules.
enum QueryEvaluator {
    static func select(_ segments: [QuerySegment], from start: [JSONValue], root: JSONValue) -> [JSONValue] {
        var nodes = start
        for segment in segments {
            var next: [JSONValue] = []
            next.reserveCapacity(nodes.count)
            switch segment {
            case .child(let selectors):
                for node in nodes { apply(selectors, to: node, root: root, into: &next) }
            case .descendant(let selectors):
                for node in nodes { descend(node, selectors, root: root, into: &next) }
            }
            nodes = next
        }
        return nodes
    }

    /// Applies `selectors` to `node` and each of its descendants, in document order (parents
    /// first). Scalars have nothing to select and are not visited: on a large body most nodes
    /// are scalars, and each visit costs a retain and a release.
    private static func descend(
        _ node: JSONValue, _ selectors: [QuerySelector], root: JSONValue, into output: inout [JSONValue]
    ) {
        switch node {
        case .array(let elements):
            apply(selectors, to: node, root: root, into: &output)
            for index in elements.indices {
                switch elements[index] {
                case .array, .object: descend(elements[index], selectors, root: root, into: &output)
                default: break
                }
            }
        case .object(let members):
            apply(selectors, to: node, root: root, into: &output)
            for index in members.indices {
                switch members[index].1 {
                case .array, .object: descend(members[index].1, selectors, root: root, into: &output)
                default: break
                }
            }
        default: break
        }
    }

    /// The one node a singular query (names and indices) selects, without building node lists:
    /// a filter's `@.price` is read this way once per element.
    static func singular(_ segments: [QuerySegment], from start: JSONValue) -> JSONValue? {
        var current = start
        for segment in segments {
            guard case .child(let selectors) = segment, selectors.count == 1 else { return nil }
            switch selectors[0] {
            case .name(let name):
                guard case .object(let members) = current else { return nil }
                guard let found = members.last(where: { $0.0 == name }) else { return nil }
                current = found.1
            case .index(let index):
                guard case .array(let elements) = current else { return nil }
                let resolved = index < 0 ? elements.count + index : index
                guard elements.indices.contains(resolved) else { return nil }
                current = elements[resolved]
            default: return nil
            }
        }
        return current
    }

    private static func apply(
        _ selectors: [QuerySelector], to node: JSONValue, root: JSONValue, into output: inout [JSONValue]
    ) {
        for selector in selectors {
            switch selector {
            case .name(let name):
                if let member = node[name] { output.append(member) }
            case .wildcard:
                switch node {
                case .array(let elements):
                    output.reserveCapacity(output.count + elements.count)
                    output += elements
                case .object(let members): output += members.map(\.1)
                default: break
                }
            case .index(let index):
                guard case .array(let elements) = node else { continue }
                let resolved = index < 0 ? elements.count + index : index
                if elements.indices.contains(resolved) { output.append(elements[resolved]) }
            case .slice(let start, let end, let step):
                guard case .array(let elements) = node else { continue }
                for index in sliceIndices(count: elements.count, start: start, end: end, step: step) {
                    output.append(elements[index])
                }
            case .filter(let expression):
                switch node {
                case .array(let elements):
                    for element in elements where test(expression, current: element, root: root) {
                        output.append(element)
                    }
                case .object(let members):
                    for (_, member) in members where test(expression, current: member, root: root) {
                        output.append(member)
                    }
                default: break
                }
            }
        }
    }

    /// RFC 9535 2.3.4.2.2: the indices a slice selects, in order (reversed for a negative step).
    static func sliceIndices(count: Int, start: Int?, end: Int?, step: Int?) -> [Int] {
        let step = step ?? 1
        guard step != 0, count > 0 else { return [] }
        func normalized(_ index: Int) -> Int { index >= 0 ? index : count + index }
        var indices: [Int] = []
        if step > 0 {
            let lower = min(max(normalized(start ?? 0), 0), count)
            let upper = min(max(normalized(end ?? count), 0), count)
            var index = lower
            while index < upper {
                indices.append(index)
                index += step
            }
        } else {
            let upper = min(max(normalized(start ?? count - 1), -1), count - 1)
            let lower = min(max(end.map(normalized) ?? -1, -1), count - 1)
            var index = upper
            while lower < index {
                indices.append(index)
                index += step
            }
        }
        return indices
    }

    // MARK: Filters

    static func test(_ expression: LogicalExpression, current: JSONValue, root: JSONValue) -> Bool {
        switch expression {
        case .or(let terms): return terms.contains { test($0, current: current, root: root) }
        case .and(let terms): return terms.allSatisfy { test($0, current: current, root: root) }
        case .not(let inner): return !test(inner, current: current, root: root)
        case .comparison(let left, let comparison, let right):
            return compare(
                value(of: left, current: current, root: root), comparison,
                value(of: right, current: current, root: root))
        case .test(let argument):
            switch argument {
            case .query(let query):
                if query.isSingular { return singular(query.segments, from: query.isRelative ? current : root) != nil }
                return !nodes(of: query, current: current, root: root).isEmpty
            case .function(let call): return logical(call, current: current, root: root)
            case .logical(let inner): return test(inner, current: current, root: root)
            case .literal: return false
            }
        }
    }

    private static func nodes(of query: FilterQuery, current: JSONValue, root: JSONValue) -> [JSONValue] {
        select(query.segments, from: [query.isRelative ? current : root], root: root)
    }

    /// The first node `query` selects (all of them for a singular query), or `nil` (Nothing).
    private static func first(of query: FilterQuery, current: JSONValue, root: JSONValue) -> JSONValue? {
        if query.isSingular { return singular(query.segments, from: query.isRelative ? current : root) }
        return nodes(of: query, current: current, root: root).first
    }

    /// A comparable's value; `nil` is RFC 9535's Nothing (an empty node list, or no function result).
    private static func value(of comparable: Comparable, current: JSONValue, root: JSONValue) -> JSONValue? {
        switch comparable {
        case .literal(let literal): return literal
        case .query(let query): return first(of: query, current: current, root: root)
        case .function(let call): return value(of: call, current: current, root: root)
        }
    }

    private static func argumentValue(_ argument: FunctionArgument, current: JSONValue, root: JSONValue) -> JSONValue? {
        switch argument {
        case .literal(let literal): return literal
        case .query(let query): return first(of: query, current: current, root: root)
        case .function(let call): return value(of: call, current: current, root: root)
        case .logical: return nil
        }
    }

    private static func value(of call: FunctionCall, current: JSONValue, root: JSONValue) -> JSONValue? {
        switch call.function {
        case .length:
            switch argumentValue(call.arguments[0], current: current, root: root) {
            case .string(let text)?: return .int(text.unicodeScalars.count)
            case .array(let elements)?: return .int(elements.count)
            case .object(let members)?: return .int(members.count)
            default: return nil
            }
        case .count:
            guard case .query(let query) = call.arguments[0] else { return nil }
            return .int(nodes(of: query, current: current, root: root).count)
        case .value:
            guard case .query(let query) = call.arguments[0] else { return nil }
            let selected = nodes(of: query, current: current, root: root)
            return selected.count == 1 ? selected[0] : nil
        case .match, .search:
            return nil
        }
    }

    private static func logical(_ call: FunctionCall, current: JSONValue, root: JSONValue) -> Bool {
        guard call.function.returnsLogical,
            case .string(let text)? = argumentValue(call.arguments[0], current: current, root: root)
        else { return false }
        let pattern: CompiledPattern
        if let compiled = call.pattern {
            pattern = compiled
        } else {
            guard case .string(let source)? = argumentValue(call.arguments[1], current: current, root: root),
                let compiled = RegularExpression.compile(source)
            else { return false }
            pattern = compiled
        }
        return call.function == .match ? pattern.matchesWhole(text) : pattern.matchesPart(text)
    }

    /// RFC 9535 2.3.5.2.2.
    static func compare(_ left: JSONValue?, _ comparison: ComparisonOperator, _ right: JSONValue?) -> Bool {
        switch comparison {
        case .equal: return equal(left, right)
        case .notEqual: return !equal(left, right)
        case .less: return less(left, right)
        case .lessOrEqual: return less(left, right) || equal(left, right)
        case .greater: return less(right, left)
        case .greaterOrEqual: return less(right, left) || equal(left, right)
        }
    }

    static func equal(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        guard let left, let right else { return left == nil && right == nil }
        return JSONComparison.equal(left, right)
    }

    private static func less(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        guard let left, let right else { return false }
        return JSONComparison.less(left, right) ?? false
    }
}

/// Equality and order of JSON values as RFC 9535 compares them: numbers by value (`1 == 1.0`),
/// strings by Unicode scalars, arrays and objects deeply (objects without regard to member order).
package enum JSONComparison {
    package static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.string(a), .string(b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case let (.array(a), .array(b)): return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case let (.object(a), .object(b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { key, value in
                guard let other = b.last(where: { $0.0 == key }) else { return false }
                return equal(value, other.1)
            }
        default:
            guard let order = numericOrder(left, right) else { return false }
            return order == 0
        }
    }

    /// Whether `left` < `right` for two numbers or two strings; `nil` when they are not comparable.
    package static func less(_ left: JSONValue, _ right: JSONValue) -> Bool? {
        if case .string(let a) = left, case .string(let b) = right {
            return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
        }
        return numericOrder(left, right).map { $0 < 0 }
    }

    /// -1, 0 or 1 for two numbers; `nil` otherwise.
    static func numericOrder(_ left: JSONValue, _ right: JSONValue) -> Int? {
        if case .int(let a) = left, case .int(let b) = right { return a < b ? -1 : (a == b ? 0 : 1) }
        guard let a = left.doubleValue, let b = right.doubleValue else { return nil }
        return a < b ? -1 : (a == b ? 0 : 1)
    }
}
