import OrderedJSON

/// What a response must be (`expect:` of a case or an example, or `--expect` on the command line):
/// its status, headers, JSON body (JSONPath → predicates) and time.
package struct Expectation: Sendable, Hashable {
    /// Accepted statuses: codes and classes (`2` for `2xx`); `nil`: not checked here.
    package var status: StatusExpectation?
    /// Header name (any case) → tests on its value, in file order.
    package var headers: [HeaderExpectation] = []
    /// Body assertions in file order.
    package var body: [BodyAssertion] = []
    /// Tests on the time to the whole response, in milliseconds (live only).
    package var time: [Predicate] = []

    package init(
        status: StatusExpectation? = nil, headers: [HeaderExpectation] = [], body: [BodyAssertion] = [],
        time: [Predicate] = []
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.time = time
    }

    /// Whether nothing is expected.
    package var isEmpty: Bool { status == nil && headers.isEmpty && body.isEmpty && time.isEmpty }

    /// How many assertions this holds (for `list`).
    package var count: Int { (status == nil ? 0 : 1) + headers.count + body.count + (time.isEmpty ? 0 : 1) }

    /// The case's expectation with an example's over it: the example's status and time replace
    /// the case's, a header or body path it names replaces the case's test of that header or path,
    /// and the rest are added.
    package func overridden(by example: Expectation) -> Expectation {
        var merged = self
        if let status = example.status { merged.status = status }
        if !example.time.isEmpty { merged.time = example.time }
        for header in example.headers {
            if let index = merged.headers.firstIndex(where: { $0.name.lowercased() == header.name.lowercased() }) {
                merged.headers[index] = header
            } else {
                merged.headers.append(header)
            }
        }
        for assertion in example.body {
            if let index = merged.body.firstIndex(where: { $0.query.source == assertion.query.source }) {
                merged.body[index] = assertion
            } else {
                merged.body.append(assertion)
            }
        }
        return merged
    }

    /// Every line of the expectation, as `list` and case help show them: `status 2xx`, `$.id == 1`.
    package var summaryLines: [String] {
        var lines: [String] = []
        if let status { lines.append("status \(status)") }
        for header in headers { lines.append("header \(header.name): \(Self.describe(header.predicates))") }
        for assertion in body { lines.append("\(assertion.query.source): \(Self.describe(assertion.predicates))") }
        if !time.isEmpty { lines.append("time (ms): \(Self.describe(time))") }
        return lines
    }

    static func describe(_ predicates: [Predicate]) -> String {
        predicates.map(\.expectation).joined(separator: " and ")
    }
}

/// `status: 200`, `[200, 201]`, `"2xx"` or a list mixing them.
package struct StatusExpectation: Sendable, Hashable, CustomStringConvertible {
    /// Exact codes.
    package var codes: [Int]
    /// Classes: 2 for `2xx`.
    package var classes: [Int]

    package init(codes: [Int], classes: [Int]) {
        self.codes = codes
        self.classes = classes
    }

    package func accepts(_ status: Int) -> Bool {
        codes.contains(status) || classes.contains(status / 100)
    }

    package var description: String {
        let all = codes.map(String.init) + classes.map { "\($0)xx" }
        return all.count == 1 ? all[0] : "one of " + all.joined(separator: ", ")
    }
}

/// Tests on one response header's value.
package struct HeaderExpectation: Sendable, Hashable {
    package var name: String
    package var predicates: [Predicate]

    package init(name: String, predicates: [Predicate]) {
        self.name = name
        self.predicates = predicates
    }
}

/// A JSONPath query and the tests on what it selects.
package struct BodyAssertion: Sendable, Hashable {
    package var query: JSONQuery
    package var predicates: [Predicate]

    package init(query: JSONQuery, predicates: [Predicate]) {
        self.query = query
        self.predicates = predicates
    }
}

/// One assertion that did not hold: `$.args.q: expected "nope", found "hello"`.
package struct AssertionFailure: Sendable, Hashable, CustomStringConvertible {
    /// What was tested: `status`, `header Content-Type`, `$.args.q`, `time`.
    package var subject: String
    /// What was expected, as text.
    package var expected: String
    /// What was found, as text.
    package var found: String

    package init(subject: String, expected: String, found: String) {
        self.subject = subject
        self.expected = expected
        self.found = found
    }

    package var description: String { "\(subject): expected \(expected), found \(found)" }
}
