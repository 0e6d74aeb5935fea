import PositionedYAML
import TargetModel
import XCTest

/// YAML nodes to the model: what a valid file gives, and where an invalid one is wrong.
final class TargetFileValidatorTests: XCTestCase {
    private let users = """
        baseURL: https://api.example.com
        timeout: 5
        cases:
          user:
            description: One user.
            values:
              - name: string
              - {per_page: {type: int, default: 30}}
              - {state: {enum: [open, closed], default: open}}
            path: /users/{name}/repos
            headers: {X-Per-Page: "{per_page}", X-State: "{state}"}
            sample: ok
        """

    func testAValidFileGivesTheModelWithTypedValuesAndDefaults() throws {
        let result = try ModelTest.validate(users, file: "users.yaml")
        XCTAssertEqual(result.errors, [])
        let api = try XCTUnwrap(result.api)
        XCTAssertEqual(api.name, "users", "the API is named after its file")
        XCTAssertEqual(api.timeout, 5)
        let user = try XCTUnwrap(api.cases.first)
        XCTAssertEqual(user.name, "user")
        XCTAssertEqual(user.method, "GET")
        XCTAssertEqual(user.description, "One user.")
        XCTAssertEqual(user.values.map(\.name), ["name", "per_page", "state"])
        XCTAssertEqual(user.values.map(\.isRequired), [true, false, false])
        XCTAssertEqual(user.values[1].type, .int)
        XCTAssertEqual(user.values[1].defaultValue, .int(30))
        XCTAssertEqual(user.values[2].type, .enumeration(["open", "closed"]))
        XCTAssertEqual(user.values[2].defaultValue, .enumCase("open"))
        XCTAssertEqual(user.mark.line, 4, "a case knows the line it is declared on")
    }

    func testPlaceholdersAreSegmentsThatKnowWhereTheyAre() throws {
        let user = try XCTUnwrap(ModelTest.validate(users).api?.cases.first)
        let placeholders = user.path.segments.compactMap { segment -> (String, Mark)? in
            if case .placeholder(let name, let mark) = segment { return (name, mark) }
            return nil
        }
        XCTAssertEqual(placeholders.map(\.0), ["name"])
        XCTAssertEqual(placeholders.first?.1.line, 10)
        XCTAssertEqual(user.path.segments.first, .literal("/users/"))
        XCTAssertEqual(user.path.soloPlaceholder, nil, "text around the placeholder")
    }

    func testAPlaceholderWithoutAValueIsAnErrorAtItsLineAndColumn() throws {
        let result = try ModelTest.validate(
            """
            baseURL: https://api.example.com
            cases:
              user:
                path: /users/{who}
                sample: ok
            """)
        XCTAssertEqual(result.errors, ["t.yaml:4:18: unknown placeholder '{who}'; case 'user' declares no values"])
        XCTAssertNil(result.api, "an invalid file gives no model")
    }

    func testAWrongTypeIsAnErrorNamingTheFileLineAndColumn() throws {
        let result = try ModelTest.validate(
            """
            baseURL: https://api.example.com
            cases:
              list:
                path: /items
                values: [{limit: {type: int, default: many}}]
                sample: ok
            """, file: "items.yaml")
        XCTAssertEqual(result.errors, ["items.yaml:5:43: expected an integer, found string \"many\""])
    }

    func testErrorsAreAllReportedInFileOrder() throws {
        let result = try ModelTest.validate(
            """
            baseURL: not a url
            cases:
              a:
                path: /a/{x}
                method: FETCH?
                sample: ok
            """)
        XCTAssertEqual(
            result.errors,
            [
                "t.yaml:1:10: baseURL 'not a url' is not an absolute URL; write it with its scheme, like https://not a url",
                "t.yaml:4:14: unknown placeholder '{x}'; case 'a' declares no values",
                "t.yaml:5:13: invalid method 'FETCH?'; a method is a name of letters, digits and !#$%&'*+-.^_`|~ (RFC 9110)"
            ])
    }

    func testPaginationAndCapturesAreDeclarationsOfTheModel() throws {
        let result = try ModelTest.validate(
            """
            baseURL: https://api.example.com
            pagination: {next: link}
            cases:
              issues:
                path: /issues
                sample: ok
              events:
                path: /events
                pagination: {cursor: {from: "$.next", param: after}, items: "$.events"}
                captures: {first: "$.events[0].id", location: {header: Location}}
                sample: ok
            """)
        XCTAssertEqual(result.errors, [])
        let api = try XCTUnwrap(result.api)
        XCTAssertEqual(api.pagination?.next, .link)
        let events = try XCTUnwrap(api.cases.first { $0.name == "events" })
        XCTAssertEqual(events.captures.map(\.name), ["first", "location"])
        XCTAssertEqual(events.captures.last?.source, .header("Location"))
        XCTAssertEqual(events.captures.first?.sourceDescription, "$.events[0].id")
        guard case .paged(let pagination) = events.pagination else {
            return XCTFail("events declares its own pagination: \(events.pagination)")
        }
        XCTAssertEqual(pagination.next, .cursor(from: try JSONPath(parsing: "$.next"), parameter: "after"))
        XCTAssertEqual(pagination.items?.source, "$.events")
    }
}
