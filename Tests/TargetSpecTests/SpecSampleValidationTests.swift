import TargetSpec
import XCTest

/// Sample and example checks, each asserted with its full rendered diagnostic.
final class SpecSampleValidationTests: XCTestCase {
    func testSampleWithSamples() {
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nsample: ok\nsamples: {b: ok}")),
            """
            t.yaml:6:5: error: a case has either 'sample' or 'samples', not both
                    samples: {b: ok}
                    ^

            """)
    }

    func testConflictingSampleKeys() {
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nsample: {json: {a: 1}, text: hi}")),
            """
            t.yaml:5:28: error: a sample has at most one of json, text, file, error; found 'json' and 'text'
                    sample: {json: {a: 1}, text: hi}
                                           ^

            """)
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nsample: {status: 500, error: timeout}")),
            """
            t.yaml:5:14: error: 'status' cannot go with 'error': an error sample has no response
                    sample: {status: 500, error: timeout}
                             ^

            """)
    }

    func testUnknownErrorKind() {
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nsamples: {offline: {error: timout}}")),
            """
            t.yaml:5:32: error: unknown error kind 'timout'; did you mean 'timeout'?
                    samples: {offline: {error: timout}}
                                               ^

            """)
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nsample: {error: dns}")),
            """
            t.yaml:5:21: error: unknown error kind 'dns'; kinds: timeout, cannotResolveHost, cannotConnect, connectionReset, tls, tooManyRedirects, connectionRefused
                    sample: {error: dns}
                                    ^

            """)
    }

    func testStatusOutOfRange() {
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nsample: {status: 99}")),
            """
            t.yaml:5:22: error: status 99 is out of range (100...599)
                    sample: {status: 99}
                                     ^

            """)
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nsample: {status: \"404\"}")),
            """
            t.yaml:5:22: error: expected an integer, found string "404"
                    sample: {status: "404"}
                                     ^

            """)
    }

    func testSampleFileMissingOrInvalidJSON() throws {
        let folder = try SpecTest.temporaryFolder(self)
        try SpecTest.write("{\n  \"login\": \"octocat\",\n  \"id\": 1,\n}\n", to: folder + "/samples/user.json")
        try SpecTest.write("not json, but not .json either", to: folder + "/samples/user.txt")
        let body =
            "path: /a\nsamples:\n  gone: {file: samples/gone.json}\n  broken: {file: samples/user.json}\n  text: {file: samples/user.txt}"
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: body), directory: folder),
            """
            t.yaml:6:20: error: sample file 'samples/gone.json' does not exist (paths are relative to the target file's folder)
                      gone: {file: samples/gone.json}
                                   ^
            t.yaml:7:22: error: sample file 'samples/user.json' is not valid JSON: samples/user.json:4:1: unexpected '}'; expected a string key
                      broken: {file: samples/user.json}
                                     ^

            """)
    }

    func testSamplesAreBuiltInOrder() throws {
        let body =
            "values: [{name: string}]\npath: /u/{name}\nsamples:\n  created: {status: 201, headers: {Location: \"/u/{name}\"}}\n  plain: \"hi {name}\"\n  refused: {error: connectionRefused}"
        let api = try XCTUnwrap(SpecTest.load(SpecTest.file(case: body)).api)
        let samples = api.cases[0].samples
        XCTAssertEqual(samples.map(\.name), ["created", "plain", "refused"])
        guard case .response(201, let headers, .empty) = samples[0].sample.outcome else {
            return XCTFail("\(samples[0])")
        }
        XCTAssertEqual(try headers[0].value.render(arguments: ["name": .string("a b")]), "/u/a b")
        XCTAssertEqual(samples[2].sample.outcome, .networkError(.cannotConnect))
    }

    func testPlaceholdersInSamplesMustNameValues() {
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: "path: /a\nsample: {json: {id: \"{idd}\"}}")),
            """
            t.yaml:5:26: error: unknown placeholder '{idd}'; case 'c' declares no values
                    sample: {json: {id: "{idd}"}}
                                         ^

            """)
    }

    func testAProblemInAnAliasedNodeIsReportedOncePerCase() {
        // *s brings the anchored sample in three times, each checked where it is used; the problem
        // is the anchored node's, so it is reported once at its mark, for each case that uses it.
        let text =
            "baseURL: https://example.com\ncases:\n  a: {path: /a, sample: {json: &s \"{x}\"}}\n"
            + "  b: {path: /b, sample: {json: [*s, *s, *s]}}\n"
        XCTAssertEqual(
            SpecTest.errors(text),
            """
            t.yaml:3:33: error: unknown placeholder '{x}'; case 'a' declares no values
                  a: {path: /a, sample: {json: &s "{x}"}}
                                                ^
            t.yaml:3:33: error: unknown placeholder '{x}'; case 'b' declares no values
                  a: {path: /a, sample: {json: &s "{x}"}}
                                                ^

            """)
    }

    func testExamplesAreCheckedLikeArguments() {
        let body = """
            values: [{name: string}, {per_page: {type: int, default: 30}}, {state: {enum: [open, closed], default: open}}]
            path: /u/{name}/{per_page}/{state}
            sample: ok
            examples:
              - [ashfurrow, many]
              - {name: ashfurrow, state: maybe}
              - {nme: ashfurrow}
              - [a, 1, open, extra]
              - [[nested]]
              - ashfurrow
            """
        XCTAssertEqual(
            SpecTest.errors(SpecTest.file(case: body)),
            """
            t.yaml:8:21: error: example 1 of case 'c': 'many' is not an int for value 'per_page'
                      - [ashfurrow, many]
                                    ^
            t.yaml:9:34: error: example 2 of case 'c': 'maybe' is not one of open, closed for value 'state'
                      - {name: ashfurrow, state: maybe}
                                                 ^
            t.yaml:10:9: error: example 3 of case 'c': missing value 'name' (string)
                      - {nme: ashfurrow}
                        ^
            t.yaml:10:10: error: example 3 of case 'c': unknown value 'nme'; did you mean 'name'?
                      - {nme: ashfurrow}
                         ^
            t.yaml:11:22: error: example 4 of case 'c': too many values: 'c' takes 3 (name, per_page, state), 4 given
                      - [a, 1, open, extra]
                                     ^
            t.yaml:12:9: error: example 5 of case 'c': missing value 'name' (string)
                      - [[nested]]
                        ^
            t.yaml:12:10: error: expected a value (string, number or bool), found a list
                      - [[nested]]
                         ^
            t.yaml:13:9: error: example 6 of case 'c' is a list of values (positional) or a map (by name), like [ashfurrow] or {name: ashfurrow}
                      - ashfurrow
                        ^

            """)
    }
}
