import OrderedJSON

/// What an expectation is tested against: a live response, a sample, or `call`'s answer.
package struct ResponseFacts: Sendable {
    package var status: Int?
    /// Header fields in order (names in any case).
    package var headers: [(name: String, value: String)]
    /// The body as JSON, or what it is instead.
    package var body: Body
    /// Milliseconds to the whole response; `nil` offline (a `time` test is then not made).
    package var milliseconds: Double?

    /// The body, parsed once by whoever has it.
    package enum Body: Sendable {
        case json(JSONValue)
        /// Not JSON: what it is, for the failure line (`an empty body`, `a body that is not JSON (...)`).
        case other(String)
    }

    package init(
        status: Int?, headers: [(name: String, value: String)], body: Body, milliseconds: Double? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.milliseconds = milliseconds
    }

    /// `bytes` parsed as a body.
    package static func body(parsing bytes: some Collection<UInt8>) -> Body {
        guard !bytes.isEmpty else { return .other("an empty body") }
        do {
            return .json(try JSONValue(parsing: bytes))
        } catch {
            return .other("a body that is not JSON (\(error))")
        }
    }
}

extension Expectation {
    /// The assertions that do not hold for `facts`, in order; placeholders filled from `values`.
    package func failures(for facts: ResponseFacts, values: [String: JSONValue] = [:]) -> [AssertionFailure] {
        var failures: [AssertionFailure] = []
        if let status, let code = facts.status, !status.accepts(code) {
            failures.append(AssertionFailure(subject: "status", expected: status.description, found: String(code)))
        }
        for header in headers {
            let lowered = header.name.lowercased()
            let value = facts.headers.first { $0.name.lowercased() == lowered }.map { JSONValue.string($0.value) }
            let predicates = header.predicates.map { $0.resolving(values) }
            for predicate in predicates {
                if let problem = PredicateCheck.problem(
                    predicate, selection: value.map { [$0] } ?? [], isSingular: true, coercesNumbers: true)
                {
                    failures.append(
                        AssertionFailure(
                            subject: "header \(header.name)", expected: predicate.expectation, found: problem))
                }
            }
        }
        if !body.isEmpty {
            switch facts.body {
            case .other(let found):
                for assertion in body {
                    failures.append(
                        AssertionFailure(subject: assertion.query.source, expected: "a JSON body", found: found))
                }
            case .json(let document):
                for assertion in body {
                    let selection = assertion.query.select(in: document)
                    for predicate in assertion.predicates {
                        let resolved = predicate.resolving(values)
                        if let problem = PredicateCheck.problem(
                            resolved, selection: selection, isSingular: assertion.query.isSingular)
                        {
                            failures.append(
                                AssertionFailure(
                                    subject: assertion.query.source, expected: resolved.expectation, found: problem))
                        }
                    }
                }
            }
        }
        if let milliseconds = facts.milliseconds {
            let measured = JSONValue.int(Int(milliseconds.rounded()))
            for predicate in time {
                if let problem = PredicateCheck.problem(predicate, selection: [measured], isSingular: true) {
                    failures.append(
                        AssertionFailure(
                            subject: "time", expected: predicate.expectation + " ms", found: problem + " ms"))
                }
            }
        }
        return failures
    }
}

/// One predicate against a selection.
enum PredicateCheck {
    /// What was found when `predicate` does not hold for `selection`, or `nil` when it holds.
    /// Selection-wide predicates (`exists`, `count`, `isEmpty` of a non-singular query) look at the
    /// whole selection; the others must hold for every node, and fail on an empty selection.
    static func problem(
        _ predicate: Predicate, selection: [JSONValue], isSingular: Bool, coercesNumbers: Bool = false
    ) -> String? {
        switch predicate {
        case .exists(let wanted):
            if selection.isEmpty == !wanted { return nil }
            return wanted ? "nothing" : Predicate.show(selection[0])
        case .count(let tests):
            let size: Int
            if isSingular, let only = selection.first {
                switch only {
                case .array(let elements): size = elements.count
                case .object(let members): size = members.count
                case .string(let text): size = text.unicodeScalars.count
                default: return "\(JSONKind.describing(only)), which has no count"
                }
            } else if isSingular {
                return "nothing"
            } else {
                size = selection.count
            }
            for test in tests where problem(test, selection: [.int(size)], isSingular: true) != nil {
                return "a count of \(size)"
            }
            return nil
        case .isEmpty(let wanted):
            let empty: Bool
            if isSingular, let only = selection.first {
                switch only {
                case .array(let elements): empty = elements.isEmpty
                case .object(let members): empty = members.isEmpty
                case .string(let text): empty = text.isEmpty
                case .null: empty = true
                default: empty = false
                }
            } else {
                empty = selection.isEmpty
            }
            if empty == wanted { return nil }
            return selection.first.map(Predicate.show) ?? "nothing"
        default:
            guard !selection.isEmpty else { return "nothing" }
            var pattern: CompiledPattern?
            if case .matches(let source) = predicate {
                guard let compiled = RegularExpression.compile(source) else { return "an invalid regular expression" }
                pattern = compiled
            }
            for (position, node) in selection.enumerated()
            where !holds(predicate, node, coercesNumbers: coercesNumbers, pattern: pattern) {
                let shown = Predicate.show(node)
                return selection.count == 1 ? shown : "\(shown) (node \(position + 1) of \(selection.count))"
            }
            return nil
        }
    }

    static func holds(
        _ predicate: Predicate, _ node: JSONValue, coercesNumbers: Bool, pattern: CompiledPattern? = nil
    ) -> Bool {
        func ordered(_ expected: JSONValue, _ accept: (Bool?, Bool) -> Bool) -> Bool {
            var found = node
            if coercesNumbers, expected.doubleValue != nil, case .string(let text) = node,
                let number = try? JSONValue(parsing: text), number.doubleValue != nil
            {
                found = number
            }
            let isLess = JSONComparison.less(found, expected)
            return accept(isLess, JSONComparison.equal(found, expected))
        }
        switch predicate {
        case .equal(let expected): return JSONComparison.equal(node, expected)
        case .notEqual(let expected): return !JSONComparison.equal(node, expected)
        case .less(let expected): return ordered(expected) { less, _ in less == true }
        case .lessOrEqual(let expected): return ordered(expected) { less, equal in less == true || equal }
        case .greater(let expected): return ordered(expected) { less, equal in less == false && !equal }
        case .greaterOrEqual(let expected): return ordered(expected) { less, _ in less == false }
        case .matches(let source):
            guard case .string(let text) = node, let compiled = pattern ?? RegularExpression.compile(source) else {
                return false
            }
            return compiled.matchesPart(text)
        case .contains(let expected):
            switch node {
            case .string(let text):
                guard case .string(let part) = expected else { return false }
                return text.contains(part)
            case .array(let elements): return elements.contains { JSONComparison.equal($0, expected) }
            case .object(let members):
                guard case .string(let key) = expected else { return false }
                return members.contains { $0.0 == key }
            default: return false
            }
        case .startsWith(let expected):
            guard case .string(let text) = node, case .string(let prefix) = expected else { return false }
            return text.hasPrefix(prefix)
        case .endsWith(let expected):
            guard case .string(let text) = node, case .string(let suffix) = expected else { return false }
            return text.hasSuffix(suffix)
        case .oneOf(let list): return list.contains { JSONComparison.equal(node, $0) }
        case .type(let kind): return kind.includes(node)
        case .exists, .count, .isEmpty: return problem(predicate, selection: [node], isSingular: true) == nil
        }
    }
}
