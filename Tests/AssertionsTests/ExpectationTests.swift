import Assertions
import OrderedJSON
import Testing

/// Every predicate holding once and failing once, with the failure line it gives.
@Suite struct ExpectationTests {
    static let body: JSONValue = [
        "args": ["q": "hello", "n": 5], "url": "https://example.test/get?q=hello",
        "items": [["price": 5], ["price": 20]],
        "empty": [], "flag": true, "none": nil, "ratio": 2.5
    ]

    func failures(_ path: String, _ predicates: [Predicate], values: [String: JSONValue] = [:]) throws -> [String] {
        let expectation = Expectation(body: [BodyAssertion(query: try JSONQuery(parsing: path), predicates: predicates)]
        )
        let facts = ResponseFacts(status: 200, headers: [], body: .json(Self.body))
        return expectation.failures(for: facts, values: values).map(\.description)
    }

    struct Pair: CustomStringConvertible, Sendable {
        var path: String
        var holds: Predicate
        var fails: Predicate
        var line: String
        var description: String { line }
    }

    static let pairs: [Pair] = [
        Pair(
            path: "$.args.q", holds: .equal("hello"), fails: .equal("nope"),
            line: #"$.args.q: expected "nope", found "hello""#),
        Pair(
            path: "$.args.q", holds: .notEqual("nope"), fails: .notEqual("hello"),
            line: #"$.args.q: expected not "hello", found "hello""#),
        Pair(path: "$.args.n", holds: .less(6), fails: .less(5), line: "$.args.n: expected < 5, found 5"),
        Pair(
            path: "$.args.n", holds: .lessOrEqual(5), fails: .lessOrEqual(4), line: "$.args.n: expected <= 4, found 5"),
        Pair(path: "$.args.n", holds: .greater(4), fails: .greater(5), line: "$.args.n: expected > 5, found 5"),
        Pair(
            path: "$.args.n", holds: .greaterOrEqual(5), fails: .greaterOrEqual(6),
            line: "$.args.n: expected >= 6, found 5"),
        Pair(
            path: "$.url", holds: .matches("q=h.l+o$"), fails: .matches("^http:"),
            line: #"$.url: expected a match for /^http:/, found "https://example.test/get?q=hello""#),
        Pair(
            path: "$.url", holds: .contains("q="), fails: .contains("z="),
            line: #"$.url: expected a value containing "z=", found "https://example.test/get?q=hello""#),
        Pair(
            path: "$.url", holds: .startsWith("https:"), fails: .startsWith("http:"),
            line: #"$.url: expected a string starting with "http:", found "https://example.test/get?q=hello""#),
        Pair(
            path: "$.url", holds: .endsWith("hello"), fails: .endsWith("bye"),
            line: #"$.url: expected a string ending with "bye", found "https://example.test/get?q=hello""#),
        Pair(
            path: "$.args.q", holds: .oneOf(["hi", "hello"]), fails: .oneOf(["hi"]),
            line: #"$.args.q: expected one of ["hi"], found "hello""#),
        Pair(
            path: "$.args.q", holds: .exists(true), fails: .exists(false),
            line: #"$.args.q: expected nothing, found "hello""#),
        Pair(
            path: "$.missing", holds: .exists(false), fails: .exists(true),
            line: "$.missing: expected a value, found nothing"),
        Pair(
            path: "$.args", holds: .type(.object), fails: .type(.array),
            line: #"$.args: expected an array, found {"q":"hello","n":5}"#),
        Pair(
            path: "$.args.n", holds: .type(.integer), fails: .type(.string),
            line: "$.args.n: expected a string, found 5"),
        Pair(
            path: "$.ratio", holds: .type(.number), fails: .type(.integer),
            line: "$.ratio: expected an integer, found 2.5"),
        Pair(
            path: "$.items", holds: .count([.equal(2)]), fails: .count([.greaterOrEqual(3)]),
            line: "$.items: expected a count >= 3, found a count of 2"),
        Pair(
            path: "$.items[?@.price > 10]", holds: .count([.equal(1)]), fails: .count([.equal(0)]),
            line: "$.items[?@.price > 10]: expected a count 0, found a count of 1"),
        Pair(
            path: "$.empty", holds: .isEmpty(true), fails: .isEmpty(false),
            line: "$.empty: expected a value that is not empty, found []"),
        Pair(
            path: "$.items[*].price", holds: .greater(1), fails: .greater(10),
            line: "$.items[*].price: expected > 10, found 5 (node 1 of 2)")
    ]

    @Test(arguments: pairs)
    func predicateHoldsAndFails(_ pair: Pair) throws {
        #expect(try failures(pair.path, [pair.holds]) == [])
        #expect(try failures(pair.path, [pair.fails]) == [pair.line])
    }

    @Test func placeholdersAreTyped() throws {
        #expect(try failures("$.args.n", [.equal("{n}")], values: ["n": 5]) == [])
        #expect(try failures("$.args.n", [.equal("{n}")], values: ["n": "5"]) == [#"$.args.n: expected "5", found 5"#])
        #expect(try failures("$.url", [.endsWith("q={q}")], values: ["q": "hello"]) == [])
        #expect(try failures("$.url", [.matches("q={q}$")], values: ["q": "bye"]).count == 1)
    }

    @Test func severalPredicatesAllHold() throws {
        #expect(try failures("$.args.n", [.greaterOrEqual(1), .less(100)]) == [])
        #expect(try failures("$.args.n", [.greaterOrEqual(1), .less(3)]) == ["$.args.n: expected < 3, found 5"])
    }

    @Test func statusHeadersAndTime() {
        let expectation = Expectation(
            status: StatusExpectation(codes: [201], classes: [3]),
            headers: [
                HeaderExpectation(name: "content-type", predicates: [.matches("^application/json")]),
                HeaderExpectation(name: "Content-Length", predicates: [.less(10)])
            ],
            time: [.less(100)])
        let facts = ResponseFacts(
            status: 200, headers: [("Content-Type", "text/plain"), ("Content-Length", "12")], body: .other("a text"),
            milliseconds: 250)
        #expect(
            expectation.failures(for: facts).map(\.description) == [
                "status: expected one of 201, 3xx, found 200",
                "header content-type: expected a match for /^application/json/, found \"text/plain\"",
                "header Content-Length: expected < 10, found \"12\"",
                "time: expected < 100 ms, found 250 ms"
            ])
        let passing = ResponseFacts(
            status: 302, headers: [("content-type", "application/json"), ("Content-Length", "9")], body: .other(""),
            milliseconds: 5)
        #expect(expectation.failures(for: passing).isEmpty)
    }

    /// A pattern from a file matched against a server's text: nested repetition, which Swift's
    /// backtracking engine can take exponential time on (`(a+)+$` against 30 a's and a `!`),
    /// is refused when the file loads; other patterns are accepted.
    @Test func nestedQuantifiersAreRefused() {
        for pattern in ["^(a+)+$", "(a*b?)*", "((ab)+)+", "(x{2,})+", "(\\d+)*", "([a-z]+)+"] {
            #expect(RegularExpression.problem(in: pattern)?.contains("exponential") == true, "\(pattern)")
        }
        for pattern in ["^(ab)+$", "a+b*", "^application/json", "[+*]+", "(a+)?", "\\(a+\\)+", "^\\d{4}-\\d{2}$"] {
            #expect(RegularExpression.problem(in: pattern) == nil, "\(pattern)")
        }
        #expect(throws: JSONQueryError.self) { try JSONQuery(parsing: "$[?match(@, '(a+)+')]") }
    }

    @Test func aBodyThatIsNotJSONFailsEveryBodyAssertion() throws {
        let expectation = Expectation(body: [
            BodyAssertion(query: try JSONQuery(parsing: "$.a"), predicates: [.exists(true)])
        ])
        let facts = ResponseFacts(status: 200, headers: [], body: ResponseFacts.body(parsing: Array("<html>".utf8)))
        #expect(expectation.failures(for: facts).first?.expected == "a JSON body")
    }

    @Test func anExampleOverridesTheCase() throws {
        let path = try JSONQuery(parsing: "$.a")
        let base = Expectation(
            status: StatusExpectation(codes: [200], classes: []),
            body: [BodyAssertion(query: path, predicates: [.equal(1)])])
        let example = Expectation(
            body: [
                BodyAssertion(query: path, predicates: [.equal(2)]),
                BodyAssertion(query: try JSONQuery(parsing: "$.b"), predicates: [.exists(true)])
            ])
        let merged = base.overridden(by: example)
        #expect(merged.status == base.status)
        #expect(merged.body.map(\.predicates) == [[.equal(2)], [.exists(true)]])
    }
}
