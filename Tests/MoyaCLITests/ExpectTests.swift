import CLITestSupport
import Foundation
import TestServers
import XCTest

/// `expect:` through the binary: every predicate holding and failing against the loopback server
/// (`/httpbin-get`), offline against samples, per example, with placeholders and captures; load
/// errors; `list` and case help; `call`/`request --expect`; each report naming the failed assertion.
final class ExpectTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
    }

    override func tearDown() {
        server.stop()
    }

    /// A target file whose one case `search` has `expect` (YAML, indented for the case).
    func writeSearch(expect: String, examples: String = "examples: [[hello]]", sample: String? = nil) throws {
        let sampleText = sample ?? #"sample: {json: {args: {q: hello}, url: "http://x/httpbin-get?q=hello"}}"#
        try sandbox.write(
            "targets/bin.yaml",
            """
            api: bin
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              search:
                path: /httpbin-get
                values: [{q: string}]
                task: {parameters: {q: "{q}"}, encoding: url}
                \(sampleText)
                \(examples)
                expect:
            \(expect.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
            """)
    }

    // MARK: - Every predicate, live

    func testEveryPredicateHoldsLive() throws {
        try writeSearch(
            expect: """
                status: 200
                headers:
                  Content-Type: {matches: "^application/json"}
                  X-Served-By: loopback
                body:
                  "$.args.q": "{q}"
                  "$.headers.Host": {exists: true}
                  "$.missing": {exists: false}
                  "$.url": {contains: "q=", startsWith: "http://127.0.0.1", endsWith: "q=hello"}
                  "$.items[?@.price > 10]": {count: {">=": 2}}
                  "$.items": {count: 3, type: array}
                  "$.json.count": {">=": 1, "<": 100, "<=": 3, ">": 2, "!=": 4, "==": 3}
                  "$.json": {type: object}
                  "$.json.tags": {isEmpty: true}
                  "$.json.ratio": {type: number, in: [0.5, 1]}
                  "$..price": {type: integer}
                  "$.items[-1:0:-1].name": {in: [desk, lamp]}
                  "$.items[?match(@.name, 'd.*')].price": 120
                  "$.items[?search(@.name, 'am') || @.price < 6]": {count: 2}
                  "$.items[?length(@.name) == 3].name": {in: [pen]}
                time: {"<": 60000}
                """)
        let result = try sandbox.run(["check", "bin", "--live"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("bin.search#1  pass"), result.stderr)
    }

    func testEveryPredicateFailsLiveNamingPathExpectedAndFound() throws {
        try writeSearch(
            expect: """
                status: [201, "3xx"]
                headers:
                  Content-Type: {matches: "^text/"}
                body:
                  "$.args.q": "nope"
                  "$.headers.Host": {exists: false}
                  "$.url": {contains: "z=", startsWith: "https:", endsWith: ".json"}
                  "$.items[?@.price > 10]": {count: {"<": 1}}
                  "$.json.count": {">=": 4, "<": 3, "<=": 2, ">": 3, "!=": 3}
                  "$.json": {type: array}
                  "$.json.tags": {isEmpty: false}
                  "$.json.ratio": {in: [1, 2]}
                  "$.nothing": 1
                time: {"<": 0}
                """)
        let result = try sandbox.run(["check", "bin", "--live"])
        XCTAssertEqual(result.status, 8, result.stdout + result.stderr)
        for line in [
            "status: expected one of 201, 3xx, found 200",
            "header Content-Type: expected a match for /^text//, found \"application/json\"",
            #"$.args.q: expected "nope", found "hello""#,
            "$.headers.Host: expected nothing, found",
            #"$.url: expected a value containing "z=""#,
            #"$.url: expected a string starting with "https:""#,
            #"$.url: expected a string ending with ".json""#,
            "$.items[?@.price > 10]: expected a count < 1, found a count of 2",
            "$.json.count: expected >= 4, found 3",
            "$.json.count: expected < 3, found 3",
            "$.json.count: expected <= 2, found 3",
            "$.json.count: expected > 3, found 3",
            "$.json.count: expected not 3, found 3",
            "$.json: expected an array, found {",
            "$.json.tags: expected a value that is not empty, found []",
            "$.json.ratio: expected one of [1,2], found 0.5",
            "$.nothing: expected 1, found nothing",
            "time: expected < 0 ms, found"
        ] {
            XCTAssertTrue(result.stderr.contains(line), "missing: \(line)\n\(result.stderr)")
        }
    }

    // MARK: - Offline, against the samples

    func testOfflineCheckHoldsTheSampleToItsExpectations() throws {
        try writeSearch(expect: #"body: {"$.args.q": "{q}", "$.url": {endsWith: "q={q}"}}"#)
        let passing = try sandbox.run(["check", "bin"])
        XCTAssertEqual(passing.status, 0, passing.stdout + passing.stderr)

        try writeSearch(expect: #"body: {"$.args.q": "{q}"}"#, examples: "examples: [[bye]]")
        let failing = try sandbox.run(["check", "bin"])
        XCTAssertEqual(failing.status, 8, failing.stdout + failing.stderr)
        XCTAssertTrue(failing.stderr.contains(#"$.args.q: expected "bye", found "hello""#), failing.stderr)
    }

    func testPlaceholdersAreTypedAndCapturesFeedAChain() throws {
        try sandbox.write(
            "targets/chain.yaml",
            """
            api: chain
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              first:
                path: /httpbin-get
                values: [{n: int}]
                task: {parameters: {n: "{n}"}, encoding: url}
                captures: {origin: "$.origin"}
                sample: {json: {origin: "127.0.0.1", url: "http://x/httpbin-get?n=3", json: {count: 3}}}
                examples: [[3]]
                expect:
                  body: {"$.json.count": "{n}", "$.url": {endsWith: "n={n}"}}
              second:
                path: /httpbin-get
                values: [{from: string}]
                task: {parameters: {from: "{from}"}, encoding: url}
                sample: {json: {args: {from: "127.0.0.1"}}}
                examples:
                  - {after: first, with: {from: "{origin}"}}
                expect:
                  body: {"$.args.from": "{origin}"}
            """)
        let offline = try sandbox.run(["check", "chain"])
        XCTAssertEqual(offline.status, 0, offline.stdout + offline.stderr)
        // Live: `$.json.count` is the number 3 (the int value, typed), the URL ends with its text,
        // and the second step sends and expects what the first captured.
        let live = try sandbox.run(["check", "chain", "--live"])
        XCTAssertEqual(live.status, 0, live.stdout + live.stderr)
        XCTAssertTrue(live.stderr.contains("chain.second#1  pass"), live.stderr)
        // The value as text is not the number: a typed placeholder compares types.
        try sandbox.write(
            "targets/chain.yaml",
            try String(contentsOfFile: sandbox.path("targets/chain.yaml"), encoding: .utf8)
                .replacingOccurrences(of: #""$.json.count": "{n}""#, with: #""$.json.count": "3 {n}""#))
        let text = try sandbox.run(["check", "chain", "--live"])
        XCTAssertEqual(text.status, 8, text.stderr)
        XCTAssertTrue(text.stderr.contains(#"$.json.count: expected "3 3", found 3"#), text.stderr)
    }

    // MARK: - Per example

    func testAnExampleOverridesAndAddsWithoutCollidingWithAValueNamedAfter() throws {
        try sandbox.write(
            "targets/paged.yaml",
            """
            api: paged
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              list:
                path: /httpbin-get
                values: [{after: string}, {expect: {type: string, default: x}}]
                task: {parameters: {after: "{after}", expect: "{expect}"}, encoding: url}
                sample: {json: {args: {after: item_9, expect: x}}}
                expect:
                  body: {"$.args.after": item_9}
                examples:
                  - {after: item_9}
                  - {after: item_1, $expect: {body: {"$.args.after": item_1, "$.args.expect": x}}}
                  - {$values: [item_2], $expect: {body: {"$.args.after": item_2}}}
            """)
        let live = try sandbox.run(["check", "paged", "--live"])
        XCTAssertEqual(live.status, 0, live.stdout + live.stderr)
        let offline = try sandbox.run(["check", "paged"])
        // Offline the one sample says item_9: examples 2 and 3 expect otherwise.
        XCTAssertEqual(offline.status, 8, offline.stdout + offline.stderr)
        XCTAssertTrue(offline.stderr.contains(#"$.args.after: expected "item_1", found "item_9""#), offline.stderr)
        XCTAssertTrue(offline.stderr.contains(#"$.args.after: expected "item_2", found "item_9""#), offline.stderr)
    }

    // MARK: - Load errors

    func testValidateReportsABadPathOrRegexAt65WithItsPlace() throws {
        try writeSearch(
            expect: """
                body:
                  "$.items[?@.price >]": 1
                  "$.a": {matches: "(unclosed"}
                  "$.b": {bogus: 1}
                  "$.c": {type: text}
                status: 700
                """)
        let result = try sandbox.run(["validate", "targets/bin.yaml"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("bin.yaml:12:28: error: invalid JSONPath"), result.stderr)
        XCTAssertTrue(result.stderr.contains("invalid JSONPath '$.items[?@.price >]'"), result.stderr)
        XCTAssertTrue(result.stderr.contains("'(unclosed' is not a regular expression"), result.stderr)
        XCTAssertTrue(result.stderr.contains("unknown predicate 'bogus'"), result.stderr)
        XCTAssertTrue(result.stderr.contains("type is one of string, number"), result.stderr)
        XCTAssertTrue(result.stderr.contains("status '700'"), result.stderr)
        let check = try sandbox.run(["check", "bin"])
        XCTAssertEqual(check.status, 65, check.stderr)
    }

    // MARK: - list and help

    func testListAndCaseHelpShowTheExpectations() throws {
        try writeSearch(expect: #"body: {"$.args.q": "{q}", "$.items": {count: {">=": 1}}}"#)
        let list = try sandbox.run(["list", "bin"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("[expects 2 things]"), list.stdout)
        let json = try sandbox.run(["list", "bin", "--format", "json"])
        XCTAssertTrue(json.stdout.contains(#""$.args.q: \"{q}\"""#), json.stdout)
        let help = try sandbox.run(["call", "bin", "search", "--help"])
        XCTAssertTrue(help.stdout.contains("expect:"), help.stdout)
        XCTAssertTrue(help.stdout.contains("$.items: a count >= 1"), help.stdout)
    }

    // MARK: - call and request --expect

    func testCallAndRequestExpectExit8OnAFailureAnd0Otherwise() throws {
        try writeSearch(expect: "status: 200")
        let passing = try sandbox.run([
            "call", "bin", "search", "hello", "--expect", "$.args.q=hello", "--expect", "status=2xx",
            "--expect", "header:Content-Type~=json", "--expect", "$.json.count>=3", "--expect",
            #"$.items={count: {">": 2}}"#, "--expect", "$.items[?@.price == 5].name=pen", "--expect", "time<60000"
        ])
        XCTAssertEqual(passing.status, 0, passing.stderr)
        XCTAssertTrue(passing.stdout.contains(#""q":"hello""#), "the body is still printed: \(passing.stdout)")

        let failing = try sandbox.run(["call", "bin", "search", "hello", "--expect", "$.args.q=nope"])
        XCTAssertEqual(failing.status, 8, failing.stderr)
        XCTAssertTrue(failing.stderr.contains(#"$.args.q: expected "nope", found "hello""#), failing.stderr)

        let request = try sandbox.run([
            "request", "http://127.0.0.1:\(server.port)/httpbin-get?q=hi", "--expect", "$.args.q!=hi"
        ])
        XCTAssertEqual(request.status, 8, request.stderr)
        XCTAssertTrue(request.stderr.contains(#"$.args.q: expected not "hi", found "hi""#), request.stderr)
        let requestPassing = try sandbox.run([
            "request", "http://127.0.0.1:\(server.port)/httpbin-get?q=hi", "--expect", "$.args.q=hi"
        ])
        XCTAssertEqual(requestPassing.status, 0, requestPassing.stderr)

        let bad = try sandbox.run(["call", "bin", "search", "hello", "--expect", "$.a[=1"])
        XCTAssertEqual(bad.status, 64, bad.stderr)
        let badRegex = try sandbox.run(["call", "bin", "search", "hello", "--expect", "$.a~=(x"])
        XCTAssertEqual(badRegex.status, 64, badRegex.stderr)
        let headersOnly = try sandbox.run(["call", "bin", "search", "hello", "--headers-only", "--expect", "$.a=1"])
        XCTAssertEqual(headersOnly.status, 64, headersOnly.stderr)
        let nested = try sandbox.run(["call", "bin", "search", "hello", "--expect", "$.args.q~=^(h+)+$"])
        XCTAssertEqual(nested.status, 64, nested.stderr)
        XCTAssertTrue(nested.stderr.contains("exponential"), nested.stderr)
        XCTAssertEqual(server.receivedRequests.count, 4, "a bad --expect sends nothing")
    }

    // MARK: - Reports

    func testEveryReportNamesTheFailedAssertionWithSecretsRedacted() throws {
        try sandbox.write(
            "targets/bin.yaml",
            """
            api: bin
            baseURL: http://127.0.0.1:\(server.port)
            auth: {type: bearer, token: "${BIN_TOKEN}"}
            cases:
              search:
                path: /httpbin-get
                values: [{q: string}]
                task: {parameters: {q: "{q}"}, encoding: url}
                sample: {json: {args: {q: hello}}}
                examples: [[hello], [world]]
                expect:
                  body:
                    "$.args.q": "nope"
                    "$.headers.Authorization": "Bearer wrong"
              ok:
                path: /httpbin-get
                sample: {json: {}}
            """)
        let secret = "s3cret-token-value"
        let result = try sandbox.run(
            [
                "check", "bin", "--live", "--report", "junit:r.xml", "--report", "tap:r.tap", "--report", "json:r.json",
                "--report", "html:r.html"
            ], environment: ["BIN_TOKEN": secret])
        XCTAssertEqual(result.status, 8, result.stdout + result.stderr)
        for name in ["r.xml", "r.tap", "r.json", "r.html"] {
            let text = try String(contentsOfFile: sandbox.path(name), encoding: .utf8)
            XCTAssertFalse(text.contains(secret), "\(name) leaks the token")
            XCTAssertFalse(result.stderr.contains(secret))
            let path = name == "r.tap" || name == "r.json" ? "$.args.q" : "$.args.q"
            XCTAssertTrue(text.contains(path), "\(name) names the path")
        }
        let junit = try String(contentsOfFile: sandbox.path("r.xml"), encoding: .utf8)
        XCTAssertTrue(
            junit.contains(
                #"<failure message="$.args.q: expected &quot;nope&quot;, found &quot;hello&quot;" type="assertion">"#),
            junit)
        let tap = try String(contentsOfFile: sandbox.path("r.tap"), encoding: .utf8)
        XCTAssertTrue(
            tap.contains("    assertions:\n      - subject: \"$.args.q\"\n        expected: \"\\\"nope\\\"\""), tap)
        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: sandbox.path("r.json"))))
        let results = try XCTUnwrap((json as? [String: Any])?["results"] as? [[String: Any]])
        let first = try XCTUnwrap(results.first { $0["id"] as? String == "bin.search#1" })
        XCTAssertEqual(first["failure"] as? String, "assertion")
        let assertions = try XCTUnwrap(first["assertions"] as? [[String: Any]])
        XCTAssertEqual(assertions.first?["subject"] as? String, "$.args.q")
        XCTAssertEqual(assertions.first?["found"] as? String, #""hello""#)
        XCTAssertEqual(assertions.count, 2)
        XCTAssertTrue(
            (assertions[1]["found"] as? String ?? "").contains("[redacted]")
                || !(assertions[1]["found"] as? String ?? "").contains(secret))
    }

    func testTheHTMLReportOpensInABrowserFailedFirstWithEveryRow() throws {
        try writeSearch(
            expect: #"body: {"$.args.q": "nope", "$.url": {contains: "q="}}"#,
            examples: #"examples: [[hello], [nope], ["<script>document.title='owned'</script><img src=http://x/y>"]]"#)
        try sandbox.write(
            "targets/other.yaml",
            """
            api: other
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              fine: {path: /httpbin-get, sample: {json: {}}}
              gone: {path: /status/404, sample: {json: {}}}
              later: {method: DELETE, path: /delete}
            """)
        let result = try sandbox.run(["check", "--live", "--report", "html:report.html"])
        XCTAssertEqual(result.status, 8, result.stdout + result.stderr)
        let html = try String(contentsOfFile: sandbox.path("report.html"), encoding: .utf8)
        // Self-contained: nothing fetched, styles inline.
        XCTAssertFalse(html.contains("src=\"http"), html)
        XCTAssertFalse(html.contains("href=\"http"), html)
        XCTAssertFalse(html.contains("<link"), html)
        XCTAssertTrue(html.contains("default-src 'none'"), html)
        // Every row, failed first.
        let ids = ["bin.search#1", "bin.search#2", "other.fine", "other.gone", "other.later"]
        for id in ids { XCTAssertTrue(html.contains("<code>\(id)</code>"), "row \(id)") }
        let firstFailed = try XCTUnwrap(html.range(of: "<code>bin.search#1</code>")).lowerBound
        let gone = try XCTUnwrap(html.range(of: "<code>other.gone</code>")).lowerBound
        let passed = try XCTUnwrap(html.range(of: "<code>bin.search#2</code>")).lowerBound
        XCTAssertLessThan(firstFailed, passed)
        XCTAssertLessThan(gone, passed)
        XCTAssertTrue(html.contains("<td><code>$.args.q</code></td>"), html)
        XCTAssertTrue(html.contains("<details class=\"check\" data-outcome=\"failed\" open>"), html)
        // The server's echo of a hostile value is text in the page, never markup.
        XCTAssertFalse(html.contains("<script>document.title"), html)
        XCTAssertFalse(html.contains("<img src=http"), html)
        XCTAssertTrue(html.contains("&lt;script&gt;document.title"), html)

        // In a real browser: the DOM after scripts has the rows and the filter bar shown; the
        // filter from the address (#show=passed) hides the failed rows.
        let url = URL(fileURLWithPath: sandbox.path("report.html"))
        let dom = try HeadlessBrowser.dumpDOM(url)
        for id in ids { XCTAssertTrue(dom.contains("<code>\(id)</code>"), "browser row \(id)") }
        XCTAssertTrue(
            dom.contains("<p id=\"filters\">"), "the filter bar is shown when scripts run: \(dom.prefix(2000))")
        XCTAssertTrue(dom.contains("$.args.q"), dom)
        XCTAssertFalse(dom.contains("<title>owned</title>"), "the echoed script did not run")
        let filtered = try HeadlessBrowser.dumpDOM(URL(string: url.absoluteString + "#show=passed")!)
        XCTAssertTrue(filtered.contains("data-outcome=\"failed\" open=\"\" hidden=\"\""), filtered)
        XCTAssertFalse(filtered.contains("data-outcome=\"passed\" hidden"), filtered)
        let shot = URL(fileURLWithPath: sandbox.path("report.png"))
        let size = try HeadlessBrowser.screenshot(url, to: shot)
        XCTAssertGreaterThan(size, 10_000, "a rendered page, not a blank one")
    }
}
