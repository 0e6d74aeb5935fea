import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 47, item 6: streams. JSON lines and server-sent events are printed as each item arrives
/// (on a pseudo-terminal, the server sends the second item only once the first was seen on the
/// screen: no clock involved), `--keypath` per event, `--max-events`, `--format jsonl`, `-S`.
final class StreamEventTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
    }

    override func tearDown() {
        server.stop()
    }

    static func hex(_ text: String) -> String {
        text.utf8.map { String(format: "%02x", $0) }.joined()
    }

    /// `/trickle/GATE`: `first`, then `rest` once GATE opens (or after `wait` milliseconds).
    func trickle(_ gate: String, _ first: String, _ rest: String, type: String, wait: Int? = nil) -> String {
        var path = "/trickle/\(gate)?first=\(Self.hex(first))&rest=\(Self.hex(rest))&length=none&type=\(type)"
        if let wait { path += "&wait=\(wait)" }
        return server.url(path).absoluteString
    }

    func onTerminal(_ url: String, _ arguments: [String], first: String, then second: String, gate: String) throws
        -> PseudoTerminalRun
    {
        try PseudoTerminalRun(
            ["request", "GET", url] + arguments, in: sandbox.root,
            steps: [.waitFor(first), .open(server.url("/gate/\(gate)")), .waitFor(second)],
            environment: ["HOME": sandbox.home.path, "NO_COLOR": "1"])
    }

    /// Each row: the type, the first and second items, what the screen shows of each.
    func testItemsAppearAsTheyArriveOnATerminal() throws {
        let rows: [(String, String, String, [String], String)] = [
            ("application/x-ndjson", "{\"n\":1}\n", "{\"n\":2}\n", [], #"\{\r\n  "n": 1\r\n\}"#),
            ("application/jsonl", "{\"n\":1}\n", "{\"n\":2}\n", [], #"\{\r\n  "n": 1\r\n\}"#),
            ("application/json-seq", "\u{1E}{\"n\":1}\n", "\u{1E}{\"n\":2}\n", [], #"\{\r\n  "n": 1\r\n\}"#),
            ("text/event-stream", "data: {\"n\":\"one\"}\n\n", "data: {\"n\":\"two\"}\n\n", ["--keypath", "n"], "one"),
            ("application/x-ndjson", "{\"n\":\"one\"}\n", "{\"n\":\"two\"}\n", ["--keypath", "n"], "one"),
            ("application/json", "[\"one\",\n", "\"two\"]\n", ["-S"], "one"),
            (
                "text/event-stream", "id: 7\ndata: one\n\n", "data: two\n\n", ["--format", "jsonl"],
                #"\{"event":null,"id":"7","data":"one"\}"#
            )
        ]
        for (index, (type, first, second, arguments, shown)) in rows.enumerated() {
            let gate = "pty\(index)"
            let run = try onTerminal(
                trickle(gate, first, second, type: type), arguments, first: shown,
                then: shown.replacingOccurrences(of: "1", with: "2").replacingOccurrences(of: "one", with: "two"),
                gate: gate)
            XCTAssertTrue(run.sawEverything, "\(type) \(arguments): \(run.text.debugDescription)")
            XCTAssertEqual(run.status, 0, "\(type) \(arguments): \(run.text)")
        }
    }

    /// On a pipe, one result a line; each row: the type, the body, the arguments, stdout.
    func testPerEventResultsOnAPipe() throws {
        let events =
            "event: tick\nid: 1\ndata: {\"n\":\"a\"}\n\n: a comment\ndata: {\"n\":\n\ndata: {\"n\":\"c\"}\r\n\r\n"
        let lines = "{\"n\":\"a\"}\n\n{\"n\":[1, 2]}\r\n{\"n\":\"c\"}"
        let rows: [(String, String, [String], String)] = [
            ("text/event-stream", events, ["--keypath", "n"], "a\nc\n"),
            ("application/x-ndjson", lines, ["--keypath", "$.n"], "a\n[1,2]\nc\n"),
            (
                "text/event-stream", events, ["--format", "jsonl"],
                #"{"event":"tick","id":"1","data":"{\"n\":\"a\"}"}"# + "\n"
                    + #"{"event":null,"id":"1","data":"{\"n\":"}"# + "\n"
                    + #"{"event":null,"id":"1","data":"{\"n\":\"c\"}"}"# + "\n"
            ),
            (
                "application/x-ndjson", lines, ["--format", "jsonl", "--max-events", "1"],
                #"{"event":null,"id":null,"data":"{\"n\":\"a\"}"}"# + "\n"
            ),
            ("text/plain", "a\nb", ["--format", "jsonl"], #"{"event":null,"id":null,"data":"a\nb"}"# + "\n")
        ]
        for (type, body, arguments, expected) in rows {
            let result = try sandbox.run(["request", "GET", trickle("pipe", body, "", type: type, wait: 1)] + arguments)
            XCTAssertEqual(result.status, 0, "\(type) \(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, expected, "\(type) \(arguments)")
        }
        // A key path an event lacks is said on stderr, and the others still print.
        let missed = try sandbox.run(
            ["request", "GET", trickle("pipe", events, "", type: "text/event-stream", wait: 1), "--keypath", "n"])
        XCTAssertTrue(missed.stderr.contains("moya-cli: event 2: key path 'n' not found"), missed.stderr)
    }

    /// `--max-events N` ends the transfer after N events, though the server would hold the rest
    /// (its gate is never opened); exit 0.
    func testMaxEventsEndsTheTransfer() throws {
        let three = "data: 1\n\ndata: 2\n\ndata: 3\n\n"
        let result = try sandbox.run(
            ["request", "GET", trickle("never", three, "data: 4\n\n", type: "text/event-stream"), "--max-events", "2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "data: 1\n\ndata: 2\n\n")
        let lines = try sandbox.run(
            ["request", "GET", trickle("never", "1\n2\n3\n", "4\n", type: "application/x-ndjson"), "--max-events", "3"])
        XCTAssertEqual(lines.stdout, "1\n2\n3\n")
        let zero = try sandbox.run(["request", "GET", server.url("/get").absoluteString, "--max-events", "0"])
        XCTAssertEqual(zero.status, 64)
        XCTAssertTrue(zero.stderr.contains("--max-events must be 1 or more"), zero.stderr)
    }

    /// A stub's event stream is read the same way: `--max-events` ends it with exit 0.
    func testStubbedEvents() throws {
        try sandbox.write(
            "targets/ev.yaml",
            """
            api: ev
            baseURL: http://127.0.0.1:9
            cases:
              ticks:
                path: /ticks
                sample: {text: "data: {\\"n\\":1}\\n\\ndata: {\\"n\\":2}\\n\\ndata: {\\"n\\":3}\\n\\n", headers: {Content-Type: text/event-stream}}
            """)
        let result = try sandbox.run(["call", "ev", "ticks", "--stub", "--max-events", "2", "--keypath", "n"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "1\n2\n")
    }

    /// A line without end fails at --max-body-size instead of filling memory.
    func testAnEndlessLineFailsAtTheLimit() throws {
        let result = try sandbox.run(
            [
                "request", "GET", server.url("/endless/line?type=application/x-ndjson").absoluteString, "--keypath",
                "a",
                "--max-body-size", "64K"
            ])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("a line of the stream is longer than 64 KiB"), result.stderr)
    }
}
