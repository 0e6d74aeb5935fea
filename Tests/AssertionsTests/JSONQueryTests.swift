import Assertions
import OrderedJSON
import Testing

/// RFC 9535's semantics, case by case, in the manner of the JSONPath compliance test suite
/// (cases written here from the RFC's examples and rules; each names the selector it covers).
@Suite struct JSONQueryTests {
    /// One case: a query, a document and the nodes it must select (in order), as JSON text.
    struct Case: CustomStringConvertible {
        var name: String
        var query: String
        var document: String
        var result: String
        var description: String { "\(name): \(query)" }
    }

    static let store = """
        {"store": {"book": [
          {"category": "reference", "author": "Nigel Rees", "title": "Sayings of the Century", "price": 8.95},
          {"category": "fiction", "author": "Evelyn Waugh", "title": "Sword of Honour", "price": 12.99},
          {"category": "fiction", "author": "Herman Melville", "title": "Moby Dick", "isbn": "0-553-21311-3", "price": 8.99},
          {"category": "fiction", "author": "J. R. R. Tolkien", "title": "The Lord of the Rings", "isbn": "0-395-19395-8", "price": 22.99}
        ], "bicycle": {"color": "red", "price": 399}}}
        """

    static let cases: [Case] = [
        // Root, names, quoted names (RFC 9535 2.3.1).
        Case(name: "root", query: "$", document: #"{"a": 1}"#, result: #"[{"a": 1}]"#),
        Case(name: "name shorthand", query: "$.a", document: #"{"a": 1}"#, result: "[1]"),
        Case(name: "quoted name, single", query: "$['a b']", document: #"{"a b": 2}"#, result: "[2]"),
        Case(name: "quoted name, double", query: #"$["a'b"]"#, document: #"{"a'b": 3}"#, result: "[3]"),
        Case(name: "quoted name escapes", query: #"$['\u0041\'']"#, document: #"{"A'": 4}"#, result: "[4]"),
        Case(name: "missing name", query: "$.b", document: #"{"a": 1}"#, result: "[]"),
        Case(name: "name on an array", query: "$.a", document: "[1]", result: "[]"),
        Case(name: "non-ASCII shorthand", query: "$.ünï", document: #"{"ünï": 5}"#, result: "[5]"),
        // Wildcards (2.3.2).
        Case(name: "wildcard object", query: "$.*", document: #"{"a": 1, "b": [2]}"#, result: "[1, [2]]"),
        Case(name: "wildcard array", query: "$[*]", document: "[1, 2, 3]", result: "[1, 2, 3]"),
        Case(name: "wildcard scalar", query: "$.a.*", document: #"{"a": 1}"#, result: "[]"),
        Case(
            name: "wildcard then name", query: "$.*.x", document: #"{"a": {"x": 1}, "b": {"x": 2}, "c": 3}"#,
            result: "[1, 2]"),
        // Indices (2.3.3).
        Case(name: "index", query: "$[1]", document: #"["a", "b"]"#, result: #"["b"]"#),
        Case(name: "negative index", query: "$[-1]", document: #"["a", "b"]"#, result: #"["b"]"#),
        Case(name: "index out of range", query: "$[2]", document: #"["a", "b"]"#, result: "[]"),
        Case(name: "negative index out of range", query: "$[-3]", document: #"["a", "b"]"#, result: "[]"),
        // Slices (2.3.4), the RFC's examples.
        Case(name: "slice", query: "$[1:3]", document: #"["a", "b", "c", "d", "e", "f", "g"]"#, result: #"["b", "c"]"#),
        Case(
            name: "slice open end", query: "$[5:]", document: #"["a", "b", "c", "d", "e", "f", "g"]"#,
            result: #"["f", "g"]"#),
        Case(
            name: "slice step", query: "$[1:5:2]", document: #"["a", "b", "c", "d", "e", "f", "g"]"#,
            result: #"["b", "d"]"#),
        Case(
            name: "slice negative step", query: "$[5:1:-2]", document: #"["a", "b", "c", "d", "e", "f", "g"]"#,
            result: #"["f", "d"]"#),
        Case(name: "slice reverse", query: "$[::-1]", document: #"["a", "b", "c"]"#, result: #"["c", "b", "a"]"#),
        Case(name: "slice negative bounds", query: "$[-2:]", document: "[1, 2, 3]", result: "[2, 3]"),
        Case(name: "slice zero step", query: "$[::0]", document: "[1, 2, 3]", result: "[]"),
        Case(name: "slice large bounds", query: "$[-100:100]", document: "[1, 2]", result: "[1, 2]"),
        Case(name: "slice on an object", query: "$[0:1]", document: #"{"a": 1}"#, result: "[]"),
        // Unions (2.5.1.2): results in selector order, duplicates kept.
        Case(name: "union of names", query: "$['a','b']", document: #"{"b": 2, "a": 1}"#, result: "[1, 2]"),
        Case(name: "union of indices and slice", query: "$[0, 0, 2:]", document: "[1, 2, 3]", result: "[1, 1, 3]"),
        Case(name: "union with blanks", query: "$[ 0 , -1 ]", document: "[1, 2, 3]", result: "[1, 3]"),
        // Descendants (2.5.2).
        Case(
            name: "descendant name", query: "$..a", document: #"{"a": 1, "b": {"a": 2, "c": [{"a": 3}]}}"#,
            result: "[1, 2, 3]"),
        Case(
            name: "descendant wildcard", query: "$..*", document: #"{"o": {"j": 1}, "a": [5]}"#,
            result: #"[{"j": 1}, [5], 1, 5]"#),
        Case(name: "descendant index", query: "$..[0]", document: #"[[1, 2], [3]]"#, result: "[[1, 2], 1, 3]"),
        Case(
            name: "store authors", query: "$..author", document: store,
            result: #"["Nigel Rees", "Evelyn Waugh", "Herman Melville", "J. R. R. Tolkien"]"#),
        Case(name: "store prices", query: "$.store..price", document: store, result: "[8.95, 12.99, 8.99, 22.99, 399]"),
        Case(name: "third book", query: "$..book[2].author", document: store, result: #"["Herman Melville"]"#),
        Case(name: "last book", query: "$..book[-1].title", document: store, result: #"["The Lord of the Rings"]"#),
        Case(name: "first two books", query: "$..book[:2].price", document: store, result: "[8.95, 12.99]"),
        // Filters (2.3.5): comparisons, existence, logical operators, parentheses, negation.
        Case(
            name: "filter existence", query: "$..book[?@.isbn].title", document: store,
            result: #"["Moby Dick", "The Lord of the Rings"]"#),
        Case(
            name: "filter less than", query: "$..book[?@.price<10].title", document: store,
            result: #"["Sayings of the Century", "Moby Dick"]"#),
        Case(
            name: "filter greater than, blanks", query: "$.store.book[? @.price > 20 ].title", document: store,
            result: #"["The Lord of the Rings"]"#),
        Case(
            name: "filter string equality", query: "$.store.book[?@.category == 'reference'].price", document: store,
            result: "[8.95]"),
        Case(
            name: "filter and", query: "$..book[?@.price < 10 && @.category == 'fiction'].title", document: store,
            result: #"["Moby Dick"]"#),
        Case(
            name: "filter or", query: "$..book[?@.price > 20 || @.price < 9].price", document: store,
            result: "[8.95, 8.99, 22.99]"),
        Case(name: "filter not", query: "$..book[?!@.isbn].price", document: store, result: "[8.95, 12.99]"),
        Case(
            name: "filter not parenthesized", query: "$..book[?!(@.price < 10)].price", document: store,
            result: "[12.99, 22.99]"),
        Case(
            name: "filter root reference", query: "$.a[?@ > $.limit]", document: #"{"limit": 2, "a": [1, 2, 3, 4]}"#,
            result: "[3, 4]"),
        Case(
            name: "filter on object members", query: "$[?@ >= 2]", document: #"{"x": 1, "y": 2, "z": 3}"#,
            result: "[2, 3]"),
        Case(
            name: "filter numbers by value", query: "$[?@ == 1]", document: "[1, 1.0, 1e0, \"1\"]",
            result: "[1, 1.0, 1e0]"),
        Case(
            name: "filter null", query: "$[?@.a == null]", document: #"[{"a": null}, {"b": 1}]"#,
            result: #"[{"a": null}]"#),
        Case(
            name: "filter missing equals missing", query: "$[?@.x == @.y]", document: #"[{"a": 1}, {"x": 1}]"#,
            result: #"[{"a": 1}]"#),
        Case(
            name: "filter bool", query: "$[?@.on == true]", document: #"[{"on": true}, {"on": false}]"#,
            result: #"[{"on": true}]"#),
        Case(name: "filter strings ordered", query: "$[?@ < 'b']", document: #"["a", "b", "c", 1]"#, result: #"["a"]"#),
        Case(
            name: "filter deep equality", query: "$[?@.a == $.b]",
            document: #"{"b": [1, {"x": 2}], "c": {"a": [1, {"x": 2}]}}"#,
            result: #"[{"a": [1, {"x": 2}]}]"#),
        Case(name: "filter nested", query: "$[?@[?@ > 1]]", document: "[[0, 1], [2], 3]", result: "[[2]]"),
        // Functions (2.4).
        Case(
            name: "length of string", query: "$[?length(@) == 3]", document: #"["abc", "de", [1, 2, 3]]"#,
            result: #"["abc", [1, 2, 3]]"#),
        Case(
            name: "length of object", query: "$[?length(@.o) >= 2].n",
            document: #"[{"n": 1, "o": {"a": 1, "b": 2}}, {"n": 2, "o": {}}]"#,
            result: "[1]"),
        Case(
            name: "count", query: "$[?count(@.*) == 2]", document: #"[{"a": 1, "b": 2}, {"a": 1}, [1, 2]]"#,
            result: #"[{"a": 1, "b": 2}, [1, 2]]"#),
        Case(
            name: "match whole", query: "$[?match(@.d, '1974-05-..')].d",
            document: #"[{"d": "1974-05-01"}, {"d": "1974-05-011"}]"#,
            result: #"["1974-05-01"]"#),
        Case(
            name: "search part", query: "$[?search(@.a, 'b.?b')].a",
            document: #"[{"a": "xbbx"}, {"a": "b"}, {"a": 1}]"#,
            result: #"["xbbx"]"#),
        Case(
            name: "value", query: "$[?value(@..color) == 'red'].id",
            document: #"[{"id": 1, "c": {"color": "red"}}, {"id": 2}]"#,
            result: "[1]"),
        Case(name: "not match", query: "$[?!match(@, 'a.*')]", document: #"["ab", "ba"]"#, result: #"["ba"]"#)
    ]

    @Test(arguments: cases)
    func selects(_ testCase: Case) throws {
        let query = try JSONQuery(parsing: testCase.query)
        let document = try JSONValue(parsing: testCase.document)
        let expected = try JSONValue(parsing: testCase.result)
        #expect(JSONValue.array(query.select(in: document)) == expected, "\(testCase.name)")
    }

    /// Queries RFC 9535 rejects, each with where it goes wrong.
    static let invalid: [(query: String, message: String)] = [
        ("a.b", "starts with '$'"),
        ("$.", "expected a member name"),
        ("$[", "unclosed '['"),
        ("$['a'", "unclosed '['"),
        ("$['a]", "unclosed string"),
        ("$[01]", "leading zeros"),
        ("$[-0]", "leading zeros"),
        ("$[9007199254740992]", "out of range"),
        ("$.a b", "unexpected"),
        ("$[?@.a == ]", "unexpected ']' in the filter"),
        ("$[?@.a ==", "ends too early"),
        ("$[?@.* == 1]", "singular query"),
        ("$[?length(@.*) == 1]", "singular query"),
        ("$[?count(1) == 1]", "takes a query"),
        ("$[?length(@)]", "gives a value"),
        ("$[?match(@, 'a') == true]", "is a test"),
        ("$[?foo(@)]", "unknown function"),
        ("$[?match(@, '[')]", "not a regular expression"),
        ("$[?1]", "a literal alone"),
        ("$['\\q']", "unknown escape"),
        ("$.1a", "expected a member name")
    ]

    @Test func rejectsInvalidQueries() {
        for (text, message) in Self.invalid {
            #expect(throws: JSONQueryError.self, "\(text)") { try JSONQuery(parsing: text) }
            do {
                _ = try JSONQuery(parsing: text)
            } catch {
                #expect(error.message.contains(message), "\(text): \(error.message)")
            }
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let text = "$[?" + String(repeating: "(", count: 500) + "@" + String(repeating: ")", count: 500) + "]"
        #expect(throws: JSONQueryError.self) { try JSONQuery(parsing: text) }
    }

    @Test func singularity() throws {
        #expect(try JSONQuery(parsing: "$.a[0]['b']").isSingular)
        #expect(try !JSONQuery(parsing: "$.a[*]").isSingular)
        #expect(try !JSONQuery(parsing: "$..a").isSingular)
        #expect(try !JSONQuery(parsing: "$.a[0,1]").isSingular)
    }
}
