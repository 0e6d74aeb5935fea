import Foundation
import Synchronization
import TargetServe
import TargetSpec
import XCTest

/// How `serve` reads what a client writes, as clients write it: `Prefer` preferences in any case
/// and quoted or not (RFC 7240: names are case-insensitive, values may be quoted strings), and
/// `+` (a space) against `%2B` (a plus) in query strings and form bodies.
final class ServeRequestReadingTests: XCTestCase {
    static let notes = """
        api: notes
        baseURL: https://example.com/api
        cases:
          note:
            values: [{id: string}]
            path: /notes/{id}
            samples:
              ok: {json: {id: "{id}"}}
              gone: {status: 410, json: {message: Gone}}
              teapot: {status: 418, text: short and stout}
          search:
            values: [{q: string}, {tag: {type: string, default: none}}]
            path: /search
            task: {parameters: {q: "{q}", tag: "{tag}"}, encoding: url}
            sample: {json: {q: "{q}", tag: "{tag}"}}
          post:
            values: [{title: string}, {body: string}]
            path: /posts
            method: POST
            task: {parameters: {title: "{title}", body: "{body}"}, encoding: url, destination: httpBody}
            sample: {status: 201, json: {title: "{title}", body: "{body}"}}
        """

    private var server: SampleServer?

    override func setUpWithError() throws {
        let result = TargetFileLoader.load(text: Self.notes, file: "notes.yaml")
        let api = try XCTUnwrap(result.api, result.diagnostics.map(\.message).joined(separator: "\n"))
        var configuration = SampleServer.Configuration()
        configuration.port = 0
        server = try SampleServer(
            builders: [TargetBuilder(api: api, processEnvironment: [:], isStubbed: true)],
            configuration: configuration
        ) { _ in }
    }

    override func tearDown() {
        server?.stop()
        server?.waitUntilStopped()
    }

    private func send(_ head: String, body: String = "") throws -> (head: String, body: String) {
        let connection = try RawConnection(port: server?.port ?? 0)
        connection.send(head + "Host: x\r\nConnection: close\r\n\r\n" + body)
        return try XCTUnwrap(connection.readResponse(), head)
    }

    private func get(_ target: String, prefer: String) throws -> (head: String, body: String) {
        try send("GET \(target) HTTP/1.1\r\nPrefer: \(prefer)\r\n")
    }

    func testPreferNamesAreCaseInsensitiveAndValuesMayBeQuoted() throws {
        for prefer in [
            "example=gone", "Example=gone", "EXAMPLE=gone", "eXaMpLe=gone", #"example="gone""#, #"Example="gone""#,
            " example = gone ", "respond-async, example=gone", "return=minimal,example=gone", "\texample=\"gone\"\t",
            "code=410", "Code=410", "CODE=\"410\"", "wait=5, Code = 410"
        ] {
            let (head, body) = try get("/api/notes/n1", prefer: prefer)
            XCTAssertTrue(head.hasPrefix("HTTP/1.1 410 Gone\r\n"), "Prefer: \(prefer)\n\(head)")
            XCTAssertEqual(body, #"{"message":"Gone"}"#, "Prefer: \(prefer)")
        }
        // The header's own name is case-insensitive too.
        let shouted = try send("GET /api/notes/n1 HTTP/1.1\r\nPREFER: Example=\"teapot\"\r\n")
        XCTAssertTrue(shouted.head.hasPrefix("HTTP/1.1 418"), shouted.head)
        XCTAssertEqual(shouted.body, "short and stout")
    }

    func testAnUnknownPreferredSampleIsNamedWithoutItsQuotes() throws {
        for prefer in [#"example="missing""#, "Example=missing"] {
            let (head, body) = try get("/api/notes/n1", prefer: prefer)
            XCTAssertTrue(head.hasPrefix("HTTP/1.1 404"), head)
            XCTAssertEqual(
                body,
                #"{"error":"case 'notes.note' has no sample named 'missing'","samples":["ok","gone","teapot"]}"# + "\n",
                prefer)
        }
        // Other preferences, and ones without a value, leave the default sample.
        for prefer in ["return=representation", "examples=gone", "example", "handling=lenient, xexample=gone"] {
            let (head, body) = try get("/api/notes/n1", prefer: prefer)
            XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 OK\r\n"), "Prefer: \(prefer)\n\(head)")
            XCTAssertEqual(body, #"{"id":"n1"}"#, prefer)
        }
    }

    func testAPlusInAQueryIsASpaceAndAnEscapedPlusIsAPlus() throws {
        let cases: [(query: String, q: String, tag: String)] = [
            ("q=ada+lovelace", "ada lovelace", "none"),
            ("q=ada%2Blovelace", "ada+lovelace", "none"),
            ("q=a%2Bb+c&tag=c%2B%2B", "a+b c", "c++"),
            ("q=%20+%20&tag=+", "   ", " "),
            ("q=1+%2B+1+%3D+2", "1 + 1 = 2", "none"),
            ("q%2B=x&q=y", "y", "none")
        ]
        for (query, q, tag) in cases {
            let (head, body) = try send("GET /api/search?\(query) HTTP/1.1\r\n")
            XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(query)\n\(head)")
            let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String]
            XCTAssertEqual(json, ["q": q, "tag": tag], query)
        }
    }

    func testAPlusInAFormBodyIsASpaceAndAnEscapedPlusIsAPlus() throws {
        let cases: [(form: String, title: String, body: String)] = [
            ("title=ada+lovelace&body=x", "ada lovelace", "x"),
            ("title=ada%2Blovelace&body=x", "ada+lovelace", "x"),
            ("title=a%2Bb+c&body=c%2B%2B+rocks", "a+b c", "c++ rocks"),
            ("body=%2B&title=+", " ", "+")
        ]
        for (form, title, body) in cases {
            let response = try send(
                "POST /api/posts HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    + "Content-Length: \(form.utf8.count)\r\n", body: form)
            XCTAssertTrue(response.head.hasPrefix("HTTP/1.1 201 Created\r\n"), "\(form)\n\(response.head)")
            let json = try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: String]
            XCTAssertEqual(json, ["title": title, "body": body], form)
        }
    }
}
