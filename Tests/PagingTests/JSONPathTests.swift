import MoyaKit
import OrderedJSON
import Paging
import TargetModel
import XCTest

final class JSONPathTests: XCTestCase {
    let document = try! JSONValue(
        parsing: #"{"data": [{"id": 1}, {"id": 2}], "meta": {"next cursor": "abc", "n": 12345678901234567890}}"#)

    func testSelectsMembersElementsAndQuotedNames() throws {
        XCTAssertEqual(try JSONPath(parsing: "$").value(in: document), document)
        XCTAssertEqual(try JSONPath(parsing: "$.data[1].id").value(in: document), .int(2))
        XCTAssertEqual(try JSONPath(parsing: "$.meta['next cursor']").value(in: document), .string("abc"))
        XCTAssertEqual(
            try JSONPath(parsing: #"$["meta"].n"#).value(in: document)?.numberValue?.text, "12345678901234567890")
        XCTAssertNil(try JSONPath(parsing: "$.data[5]").value(in: document))
        XCTAssertNil(try JSONPath(parsing: "$.meta.missing").value(in: document))
        XCTAssertNil(try JSONPath(parsing: "$.data.id").value(in: document))
    }

    func testRefusesPathsThatSelectManyOrAreMalformed() {
        let cases: [(String, String, Int)] = [
            ("data", "starts with '$'", 0),
            ("$..id", "'..'", 1),
            ("$.data[*]", "'[*]' selects many", 7),
            ("$.*", "'*' selects many", 2),
            ("$.data[-1]", "negative", 7),
            ("$.data[01]", "leading zeros", 7),
            ("$.data[0", "expected ']'", 8),
            ("$['open", "unclosed quote", 1),
            ("$.", "member name", 2),
            ("$ .a", "unexpected ' '", 1),
            ("$.data[9999999999]", "too large", 7)
        ]
        for (text, message, offset) in cases {
            XCTAssertThrowsError(try JSONPath(parsing: text), text) { error in
                guard let error = error as? JSONPathError else { return XCTFail("\(error)") }
                XCTAssertTrue(error.message.contains(message), "\(text): \(error.message)")
                XCTAssertEqual(error.offset, offset, text)
            }
        }
    }
}

final class LinkHeaderTests: XCTestCase {
    func testFindsNextAmongSeveralLinksAndFields() {
        let github =
            #"<https://api.github.com/user/9/repos?page=2>; rel="next", <https://api.github.com/user/9/repos?page=5>; rel="last""#
        XCTAssertEqual(LinkHeader.target(relation: "next", in: [github]), "https://api.github.com/user/9/repos?page=2")
        XCTAssertEqual(LinkHeader.target(relation: "last", in: [github]), "https://api.github.com/user/9/repos?page=5")
        XCTAssertEqual(
            LinkHeader.target(relation: "next", in: [#"</a>; rel="prev""#, #"</b?x=1,2>; rel=next"#]), "/b?x=1,2")
    }

    func testRelationListsCaseQuotedCommasAndMalformedLinks() {
        let value = #"</x>; title="a, \"b\"; c"; rel="prefetch NEXT", garbage, </y>; rel=next"#
        XCTAssertEqual(LinkHeader.target(relation: "next", in: [value]), "/x")
        let links = LinkHeader.links(in: [value])
        XCTAssertEqual(links.map(\.target), ["/x", "/y"])
        XCTAssertEqual(links[0].parameters.first?.value, #"a, "b"; c"#)
        XCTAssertNil(LinkHeader.target(relation: "next", in: [#"<https://x/2>; rel="nextpage""#]))
        XCTAssertNil(LinkHeader.target(relation: "next", in: [#"<https://x/2; rel="next""#]))
        XCTAssertNil(LinkHeader.target(relation: "next", in: [""]))
    }

    func testOnlyTheFirstRelCounts() {
        XCTAssertNil(LinkHeader.target(relation: "next", in: [#"</a>; rel="prev"; rel="next""#]))
    }
}

final class PageReaderTests: XCTestCase {
    func data(_ text: String) -> Data { Data(text.utf8) }

    func testLinkStyleResolvesRelativeLinksAndRefusesOtherOrigins() throws {
        let reader = PageReader(pagination: Pagination(next: .link), baseURL: "http://127.0.0.1:8080/api")
        let page = try reader.read(
            headers: [("Link", #"<?page=2>; rel="next""#)], body: data("[1, 2]"),
            requestURL: "http://127.0.0.1:8080/api/items?page=1")
        XCTAssertEqual(page.items, [.int(1), .int(2)])
        XCTAssertEqual(page.next?.url, "http://127.0.0.1:8080/api/items?page=2")
        let up = try reader.read(
            headers: [("link", #"<../other/3#frag>; rel=next"#)], body: data("[]"),
            requestURL: "http://127.0.0.1:8080/api/items")
        XCTAssertEqual(up.next?.url, "http://127.0.0.1:8080/other/3")
        for hostile in [
            "http://evil.example/steal", "http://127.0.0.1:8081/api/items", "https://127.0.0.1:8080/x",
            "//evil.example/x"
        ] {
            let page = try reader.read(
                headers: [("Link", "<\(hostile)>; rel=next")], body: data("[7]"),
                requestURL: "http://127.0.0.1:8080/api/items")
            XCTAssertEqual(page.items, [.int(7)], hostile)
            XCTAssertNil(page.next, hostile)
            XCTAssertTrue(page.nextProblem.map { "\($0)".contains("leaves the API's origin") } ?? false, hostile)
        }
        let file = try reader.read(
            headers: [("Link", "<file:///etc/passwd>; rel=next")], body: data("[]"),
            requestURL: "http://127.0.0.1:8080/api/items")
        XCTAssertTrue(file.nextProblem.map { "\($0)".contains("not an http(s) URL") } ?? false)
        let last = try reader.read(
            headers: [("Link", #"</api/items?page=1>; rel="prev""#)], body: data("[3]"),
            requestURL: "http://127.0.0.1:8080/api/items")
        XCTAssertNil(last.next)
    }

    func testDefaultPortsAreTheSameOrigin() {
        XCTAssertTrue(PageURL.isSameOrigin("https://API.github.com:443/x", as: "https://api.github.com"))
        XCTAssertFalse(PageURL.isSameOrigin("http://api.github.com/x", as: "https://api.github.com"))
    }

    func testBodyStyleAndItemsPath() throws {
        let reader = PageReader(
            pagination: Pagination(
                next: .bodyURL(try JSONPath(parsing: "$.next")), items: try JSONPath(parsing: "$.results")),
            baseURL: "https://x.example")
        let page = try reader.read(
            headers: [], body: data(#"{"results": [{"a": 1}], "next": "https://x.example/p?page=2"}"#),
            requestURL: "https://x.example/p")
        XCTAssertEqual(page.items.count, 1)
        XCTAssertEqual(page.next?.url, "https://x.example/p?page=2")
        XCTAssertNil(
            try reader.read(
                headers: [], body: data(#"{"results": [], "next": null}"#), requestURL: "https://x.example/p"
            ).next)
        XCTAssertThrowsError(
            try reader.read(
                headers: [], body: data(#"{"results": {}, "next": null}"#), requestURL: "https://x.example/p")
        ) {
            XCTAssertEqual("\($0)", "the items at $.results are an object, not an array")
        }
        XCTAssertEqual(
            try reader.read(headers: [], body: data(#"{"results": [], "next": 5}"#), requestURL: "https://x.example/p")
                .nextProblem,
            .nextNotString("$.next", found: "a number"))
        XCTAssertThrowsError(try reader.read(headers: [], body: data("<html>"), requestURL: "https://x.example/p")) {
            XCTAssertTrue("\($0)".hasPrefix("the body is not JSON"))
        }
    }

    func testCursorStyleSetsTheParameter() throws {
        let reader = PageReader(
            pagination: Pagination(
                next: .cursor(from: try JSONPath(parsing: "$.meta.next_cursor"), parameter: "cursor"),
                items: try JSONPath(parsing: "$.data")), baseURL: "https://x.example")
        let page = try reader.read(
            headers: [], body: data(#"{"data": [1], "meta": {"next_cursor": "a b&c"}}"#),
            requestURL: "https://x.example/items?limit=2&cursor=old#x")
        XCTAssertEqual(page.next, NextPage(url: "https://x.example/items?limit=2&cursor=a%20b%26c", cursor: "a b&c"))
        let numeric = try reader.read(
            headers: [], body: data(#"{"data": [], "meta": {"next_cursor": 40}}"#),
            requestURL: "https://x.example/items")
        XCTAssertEqual(numeric.next?.url, "https://x.example/items?cursor=40")
        XCTAssertNil(
            try reader.read(
                headers: [], body: data(#"{"data": [], "meta": {"next_cursor": ""}}"#),
                requestURL: "https://x.example/i"
            ).next)
        XCTAssertNil(
            try reader.read(headers: [], body: data(#"{"data": [], "meta": {}}"#), requestURL: "https://x.example/i")
                .next)
    }

    func testRunStopsAtLimitsAndLoops() {
        var run = PagingRun(maximumPages: 3, firstURL: "https://x/1")
        XCTAssertEqual(run.advance(next: NextPage(url: "https://x/2")), .fetch(NextPage(url: "https://x/2")))
        XCTAssertEqual(run.advance(next: NextPage(url: "https://x/1")), .loop(NextPage(url: "https://x/1")))
        var limited = PagingRun(maximumPages: 2, firstURL: "https://x/1")
        _ = limited.advance(next: NextPage(url: "https://x/2"))
        XCTAssertEqual(limited.advance(next: NextPage(url: "https://x/3")), .reachedLimit(2))
        var cursors = PagingRun(maximumPages: 10, firstURL: "https://x/?")
        _ = cursors.advance(next: NextPage(url: "https://x/?c=a&n=1", cursor: "a"))
        XCTAssertEqual(
            cursors.advance(next: NextPage(url: "https://x/?c=a&n=2", cursor: "a")),
            .loop(NextPage(url: "https://x/?c=a&n=2", cursor: "a")))
        var done = PagingRun(maximumPages: 1, firstURL: "https://x/1")
        XCTAssertEqual(done.advance(next: nil), .finished)
    }
}

final class CaptureTests: XCTestCase {
    func testCapturesBodyAndHeaderValues() throws {
        let captures = [
            Capture(name: "id", source: .body(try JSONPath(parsing: "$.id"))),
            Capture(name: "big", source: .body(try JSONPath(parsing: "$.n"))),
            Capture(name: "ok", source: .body(try JSONPath(parsing: "$.ok"))),
            Capture(name: "location", source: .header("Location"), isSecret: true)
        ]
        let result = Capture.values(
            of: captures, headers: [("location", "/items/7")],
            body: Data(#"{"id": "7", "n": 1.50, "ok": true}"#.utf8))
        XCTAssertEqual(result.problems, [])
        let values = result.values
        XCTAssertEqual(values.values.map(\.value), ["7", "1.50", "true", "/items/7"])
        XCTAssertEqual(values.secretValues, ["/items/7"])
    }

    func testReportsEveryMissingOrUnusableCapture() throws {
        let captures = [
            Capture(name: "id", source: .body(try JSONPath(parsing: "$.id"))),
            Capture(name: "tags", source: .body(try JSONPath(parsing: "$.tags"))),
            Capture(name: "loc", source: .header("Location"))
        ]
        let result = Capture.values(of: captures, headers: [], body: Data(#"{"id": null, "tags": []}"#.utf8))
        XCTAssertEqual(
            result.problems.map(\.description),
            [
                "capture 'id': the response has nothing at $.id",
                "capture 'tags': $.tags is an array; a capture is one string, number or bool",
                "capture 'loc': the response has nothing at header Location"
            ])
    }

    func testShellLinesQuoteEverything() throws {
        XCTAssertEqual(
            try ShellAssignment.line(name: "id", value: "it's $(rm -rf /)\n`x`"), #"id='it'\''s $(rm -rf /)"# + "\n`x`'"
        )
        XCTAssertThrowsError(try ShellAssignment.line(name: "id", value: "a\u{0}b"))
    }

    func testRetryAfterReadsSecondsAndDates() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        XCTAssertEqual(RetryAfter.seconds(" 3 "), 3)
        XCTAssertEqual(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:40 GMT", now: now), 3)
        XCTAssertEqual(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:00 GMT", now: now), 0)
        XCTAssertNil(RetryAfter.seconds("soon", now: now))
        XCTAssertNil(RetryAfter.seconds("-1", now: now))
        XCTAssertNil(RetryAfter.seconds("Sun, 06 Nov 1994 25:49:00 GMT", now: now))
    }
}
