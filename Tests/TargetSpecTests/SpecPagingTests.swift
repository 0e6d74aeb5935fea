import MoyaKit
import TargetModel
import TargetSpec
import XCTest

/// `pagination:`, `captures:` and chained examples as the loader reads and checks them.
final class SpecPagingTests: XCTestCase {
    func testReadsEveryStyleAndInheritance() throws {
        let result = SpecTest.load(
            """
            baseURL: https://example.com
            pagination: {next: link}
            cases:
              inherits: {path: /a, sample: ok}
              body: {path: /b, sample: ok, pagination: {next: {body: "$.next"}, items: "$.results"}}
              cursor:
                path: /c
                sample: ok
                pagination: {cursor: {from: "$.meta['next cursor']", param: after}, items: "$.data[0].rows"}
              single: {path: /d, sample: ok, pagination: none}
              create:
                path: /e
                method: POST
                sample: ok
                captures: {id: "$.id", where: {header: Location}, token: {body: "$.token", secret: true}}
            """)
        XCTAssertEqual(result.renderedDiagnostics(), "")
        let api = try XCTUnwrap(result.api)
        XCTAssertEqual(api.pagination(for: api.cases[0]), Pagination(next: .link))
        XCTAssertEqual(
            api.pagination(for: api.cases[1]),
            Pagination(next: .bodyURL(try JSONPath(parsing: "$.next")), items: try JSONPath(parsing: "$.results")))
        XCTAssertEqual(
            api.pagination(for: api.cases[2])?.next,
            .cursor(from: try JSONPath(parsing: "$.meta['next cursor']"), parameter: "after"))
        XCTAssertEqual(api.pagination(for: api.cases[2])?.items?.components, [.key("data"), .index(0), .key("rows")])
        XCTAssertNil(api.pagination(for: api.cases[3]))
        XCTAssertEqual(
            api.cases[4].captures,
            [
                Capture(name: "id", source: .body(try JSONPath(parsing: "$.id"))),
                Capture(name: "where", source: .header("Location")),
                Capture(name: "token", source: .body(try JSONPath(parsing: "$.token")), isSecret: true)
            ])
    }

    func testPaginationProblemsAreLocated() {
        XCTAssertEqual(
            SpecTest.errors(
                """
                baseURL: https://example.com
                pagination: {next: links}
                cases:
                  a: {path: /a, pagination: {cursor: {from: "$.meta[*]", param: cursor}}}
                  b: {path: /b, pagination: {next: link, cursor: {from: "$.n", param: p}}}
                  c: {path: /c, pagination: sometimes}
                  d: {path: /d, pagination: {next: {body: next}}}
                  e: {path: /e, pagination: {items: "$.data"}}
                """),
            """
            t.yaml:2:20: error: unknown pagination style 'links'; did you mean 'link'? (next: link, or next: {body: "$.next"}; or cursor: {from: ..., param: ...})
                pagination: {next: links}
                                   ^
            t.yaml:4:53: error: invalid JSON path '$.meta[*]' in cursor.from: '[*]' selects many values; the items of a page are an array: name the array, like $.data
                  a: {path: /a, pagination: {cursor: {from: "$.meta[*]", param: cursor}}}
                                                                    ^
            t.yaml:5:42: error: pagination has one of 'next' and 'cursor', not both
                  b: {path: /b, pagination: {next: link, cursor: {from: "$.n", param: p}}}
                                                         ^
            t.yaml:6:29: error: expected a map such as {next: link}, {next: {body: "$.next"}} or {cursor: {from: "$.meta.next_cursor", param: cursor}}, or none, found string "sometimes"
                  c: {path: /c, pagination: sometimes}
                                            ^
            t.yaml:7:43: error: invalid JSON path 'next' in next.body: a JSON path starts with '$' (the whole body), like $.data or $.meta.next_cursor
                  d: {path: /d, pagination: {next: {body: next}}}
                                                          ^
            t.yaml:8:29: error: pagination needs 'next' (link, or {body: "$.next"}) or 'cursor' ({from: "$.meta.next_cursor", param: cursor})
                  e: {path: /e, pagination: {items: "$.data"}}
                                            ^

            """)
    }

    func testACursorParameterMustNotBeAValue() {
        XCTAssertEqual(
            SpecTest.errors(
                """
                baseURL: https://example.com
                pagination: {cursor: {from: "$.next", param: page}}
                cases:
                  list:
                    path: /list
                    values: [{page: int}]
                    task: {parameters: {page: "{page}"}, encoding: url}
                  own:
                    path: /own
                    values: [{after: string}]
                    task: {parameters: {a: "{after}"}, encoding: url}
                    pagination: {cursor: {from: "$.next", param: after}}
                  opted: {path: /opted, values: [{page: int}], task: {parameters: {page: "{page}"}, encoding: url}, pagination: none}
                """),
            """
            t.yaml:2:46: error: cursor parameter 'page' is also a value of case 'list'; paging sets it, so rename the value or the parameter
                pagination: {cursor: {from: "$.next", param: page}}
                                                             ^
            t.yaml:12:50: error: cursor parameter 'after' is also a value of case 'own'; paging sets it, so rename the value or the parameter
                    pagination: {cursor: {from: "$.next", param: after}}
                                                                 ^

            """)
    }

    func testCaptureNamesCannotReplaceShellVariables() {
        let errors = SpecTest.errors(
            """
            baseURL: https://example.com
            cases:
              c: {path: /c, sample: ok, captures: {PATH: "$.a", IFS: "$.b", LD_PRELOAD: "$.c", path: "$.d", id: "$.e", Id2: "$.f"}}
            """)
        for name in ["PATH", "IFS", "LD_PRELOAD", "path"] {
            XCTAssertTrue(
                errors.contains("error: capture name '\(name)' could replace a shell or environment variable"), name)
        }
        XCTAssertFalse(errors.contains("'id'"))
        XCTAssertFalse(errors.contains("'Id2'"))
    }

    /// With the cases handed on (`validate`, `list`), the checks across cases read digests kept in
    /// chunks of 1,024: chains and cursor parameters across chunk boundaries, and value names of
    /// every length, give the errors they give with every case kept (`SpecTest.load` compares).
    func testChecksAcrossCasesReadDigestsAcrossChunks() {
        var yaml =
            "baseURL: https://example.com\npagination: {cursor: {from: \"$.next\", param: a_long_value_name}}\ncases:\n"
        yaml += "  first: {path: /first, captures: {id: \"$.id\"}, pagination: none, sample: ok}\n"
        for index in 0..<2_500 {
            yaml +=
                "  case\(index): {path: \"/c/{x}/{a_long_value_nam}/{a_long_value_name_}\", values: [{x: string}, {a_long_value_nam: int}, {a_long_value_name_: int}], "
                + "pagination: none, sample: ok}\n"
        }
        yaml += """
              clash: {path: /clash, values: [{y: int}, {a_long_value_name: int}], task: {parameters: {p: "{a_long_value_name}", y: "{y}"}, encoding: url}, sample: ok}
              noClash: {path: /no, values: [{a_long_value_nam: int}], task: {parameters: {p: "{a_long_value_nam}"}, encoding: url}, sample: ok}
              last:
                path: /items/{id}
                values: [{id: string}]
                pagination: none
                examples:
                  - {after: first, with: {id: "{id}"}}
                  - {after: case2499, with: {id: "{id}"}}
                  - {after: frist, with: {id: "{id}"}}

            """
        let errors = SpecTest.errors(yaml)
        XCTAssertTrue(errors.contains("cursor parameter 'a_long_value_name' is also a value of case 'clash'"), errors)
        XCTAssertFalse(errors.contains("case 'noClash'"), errors)
        XCTAssertTrue(errors.contains("'{id}' is not captured by a step before example 2 of case 'last'"), errors)
        XCTAssertTrue(
            errors.contains("example 3 of case 'last': 'after' names no case 'frist'; did you mean 'first'?"), errors)
        XCTAssertFalse(errors.contains("example 1 of case 'last'"), errors)
    }

    func testChainsNeedKnownCasesNoCyclesAndDeclaredCaptures() {
        XCTAssertEqual(
            SpecTest.errors(
                """
                baseURL: https://example.com
                cases:
                  create: {path: /items, method: POST, captures: {id: "$.id"}, sample: ok}
                  get:
                    path: /items/{id}
                    values: [{id: string}]
                    examples:
                      - {after: craete, with: {id: "{id}"}}
                      - {after: create, with: {id: "{idd}"}}
                      - {after: get#4, with: {id: "{id}"}}
                      - {after: get#3, with: {id: "{id}"}}
                      - {after: create#2, with: {id: "{id}"}}
                      - {after: create, with: {id: 5, what: x}}
                """),
            """
            t.yaml:8:9: error: example 1 of case 'get': 'after' names no case 'craete'; did you mean 'create'?
                      - {after: craete, with: {id: "{id}"}}
                        ^
            t.yaml:9:36: error: '{idd}' is not captured by a step before example 2 of case 'get'; did you mean '{id}'?
                      - {after: create, with: {id: "{idd}"}}
                                                   ^
            t.yaml:10:9: error: example 3 of case 'get': its 'after' chain comes back to itself (a cycle)
                      - {after: get#4, with: {id: "{id}"}}
                        ^
            t.yaml:11:9: error: example 4 of case 'get': its 'after' chain comes back to itself (a cycle)
                      - {after: get#3, with: {id: "{id}"}}
                        ^
            t.yaml:12:9: error: example 5 of case 'get': case 'create' has no example 2 (it has 0)
                      - {after: create#2, with: {id: "{id}"}}
                        ^
            t.yaml:13:39: error: example 6 of case 'get': unknown value 'what'; values: id
                      - {after: create, with: {id: 5, what: x}}
                                                      ^

            """)
    }
}
