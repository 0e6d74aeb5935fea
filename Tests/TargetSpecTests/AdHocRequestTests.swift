import OrderedJSON
import TargetModel
import TargetSpec
import XCTest

/// `AdHocRequest` and `RequestItem`: the value `--save-as` renders back as a case, from the words of
/// `moya-cli request` (what reaches the wire is tested through the binary in `RequestCommandTests`).
final class AdHocRequestTests: XCTestCase {
    func testItemsSplitAtTheFirstSeparatorTheLongerWinning() throws {
        XCTAssertEqual(try RequestItem(parsing: "a=b"), .field(name: "a", value: "b"))
        XCTAssertEqual(try RequestItem(parsing: "a==b=c"), .query(name: "a", value: "b=c"))
        XCTAssertEqual(
            try RequestItem(parsing: "n:=[1,{\"k\":null}]"),
            .jsonField(name: "n", value: .array([.int(1), .object([("k", .null)])])))
        XCTAssertEqual(try RequestItem(parsing: "X-A:  v=1:2"), .header(name: "X-A", value: "v=1:2"))
        XCTAssertEqual(try RequestItem(parsing: "X-A:"), .header(name: "X-A", value: nil))
        XCTAssertEqual(try RequestItem(parsing: "f@dir/a=b.txt"), .file(name: "f", path: "dir/a=b.txt"))
        XCTAssertEqual(try RequestItem(parsing: "url=http://x:1/@y"), .field(name: "url", value: "http://x:1/@y"))
    }

    /// HTTPie's file forms: at one place the longest separator wins (`:=@` before `:=`, `==@` before `==`).
    func testFileItemsTakeTheLongestSeparator() throws {
        XCTAssertEqual(try RequestItem(parsing: "t=@a.txt"), .fieldFile(name: "t", path: "a.txt"))
        XCTAssertEqual(try RequestItem(parsing: "o:=@a.json"), .jsonFieldFile(name: "o", path: "a.json"))
        XCTAssertEqual(try RequestItem(parsing: "X-T:@t.txt"), .headerFile(name: "X-T", path: "t.txt"))
        XCTAssertEqual(try RequestItem(parsing: "q==@q.txt"), .queryFile(name: "q", path: "q.txt"))
        XCTAssertEqual(try RequestItem(parsing: #"t=\@a"#), .field(name: "t", value: "@a"), "an escaped '@' is text")
        XCTAssertEqual(try RequestItem(parsing: "u[a]=@x"), .fieldFile(name: "u[a]", path: "x"))
    }

    func testBackslashesEscapeSeparators() throws {
        XCTAssertEqual(try RequestItem(parsing: #"a\=b=c"#), .field(name: "a=b", value: "c"))
        XCTAssertEqual(try RequestItem(parsing: #"a\:b\@c=d\=e"#), .field(name: "a:b@c", value: "d=e"))
        XCTAssertEqual(try RequestItem(parsing: #"a\\=b"#), .field(name: #"a\"#, value: "b"))
        XCTAssertEqual(
            try RequestItem(parsing: #"path=C:\dir"#), .field(name: "path", value: #"C:\dir"#), "other backslashes stay"
        )
        XCTAssertEqual(
            try RequestItem(parsing: #"a\==b"#), .field(name: "a=", value: "b"), "an escaped '=' does not start '=='")
    }

    func testBadItemsNameThemselves() {
        for (text, message) in [
            (
                "plain",
                "request item 'plain' is not an item: NAME=VALUE, NAME:=JSON, NAME==VALUE, Header:value, Header: or FIELD@FILE"
            ),
            ("=v", "request item '=v' has no name before '='"),
            ("X:a\rb", "request item 'X:a\\rb' holds CR, LF or NUL; it would inject a line into the request"),
            ("X:a\u{0}b", "request item 'X:a\\0b' holds CR, LF or NUL; it would inject a line into the request"),
            ("X Y:1", "request item 'X Y:1' has a header name that is not an HTTP token"),
            ("f\n@x", "request item 'f\\n@x' holds CR, LF or NUL; it would inject a line into the request"),
            ("f@", "request item 'f@' names no file after '@'")
        ] {
            XCTAssertThrowsError(try RequestItem(parsing: text), text) { error in
                XCTAssertEqual((error as? AdHocRequestError)?.message, message)
            }
        }
    }

    func testTheRequestKeepsOrderRepeatsAndRemovals() throws {
        let request = try AdHocRequest(
            method: "patch", path: "/p", query: [.init(name: "a", value: "1")],
            items: ["b==2", "a==3", "X-A:1", "X-B:", "X-A:", "X-A:2", "k=v", "n:=1"], fileBaseDirectory: "/")
        XCTAssertEqual(request.method, "PATCH")
        XCTAssertEqual(request.query.map(\.name), ["a", "b", "a"])
        XCTAssertEqual(request.encodedQuery, "?a=1&b=2&a=3")
        XCTAssertEqual(request.sent.headers, [.init(name: "X-A", value: "2")])
        XCTAssertEqual(request.removedHeaderNames, ["X-B"])
        XCTAssertEqual(request.sent.body, .json(.object([("k", .string("v")), ("n", .int(1))])))
        XCTAssertNil(request.rawBody)
        XCTAssertEqual(request.caseName, "PATCH /p?a=1&b=2&a=3")
    }

    func testPathsAreEncodedAndKeptOnTheOrigin() throws {
        XCTAssertEqual(
            try AdHocPath.split(apiPath: "users/ä b%2F?q=a+b&r#frag", apiName: "x").path, "/users/%C3%A4%20b%2F")
        XCTAssertEqual(
            try AdHocPath.split(apiPath: "/p?q=a+b&r", apiName: "x").query,
            [.init(name: "q", value: "a b"), .init(name: "r", value: "")])
        for hostile in [
            "//evil.example", "http://evil.example", "HTTPS://evil.example", "\\\\evil.example", "/\\evil.example"
        ] {
            XCTAssertThrowsError(try AdHocPath.split(apiPath: hostile, apiName: "x"), hostile)
        }
        let split = try AdHocPath.split(url: "HTTPS://user:pw@Host.example:8443/a/b?c=d")
        XCTAssertEqual(split.origin, "https://user:pw@Host.example:8443")
        XCTAssertEqual(split.path, "/a/b")
        XCTAssertEqual(try AdHocPath.split(url: "http://h").path, "/")
    }

    /// The request is held as the case `--save-as` writes: the same model, with the file part's
    /// path and a raw body beside what a case says.
    func testTheRequestIsTheCaseToSave() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("adhoc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("x".utf8).write(to: folder.appendingPathComponent("a.txt"))
        let multipart = try AdHocRequest(
            method: "post", path: "/up", query: [], items: ["note=hi", "doc@a.txt", "X-A:1"], auth: .scheme("basic"),
            fileBaseDirectory: folder.path)
        XCTAssertEqual(
            multipart.sent.body,
            .multipart([
                .init(name: "note", content: .text("hi")),
                .init(
                    name: "doc", content: .file(fileName: nil, mimeType: nil),
                    path: folder.appendingPathComponent("a.txt").path)
            ]))
        var expected = NewCase(method: "POST", path: "/up")
        expected.headers = [
            .init(name: "X-A", value: "1"), .init(name: "Authorization", value: "Basic x", isSecret: true)
        ]
        expected.body = .multipart([
            .init(name: "note", content: .text("hi")), .init(name: "doc", content: .file(fileName: nil, mimeType: nil))
        ])
        expected.auth = .scheme("basic")
        XCTAssertEqual(
            try NewCase(multipart, credentials: [.init(name: "Authorization", value: "Basic x")]), expected,
            "the path on the command line is not written")

        let raw = try AdHocRequest(
            method: "PUT", path: "/r", query: [], items: [], rawBody: .init(argument: "@body.json", isJSON: true),
            fileBaseDirectory: "/")
        XCTAssertEqual(raw.sent.body, .none)
        XCTAssertEqual(try NewCase(raw, sentBody: Array(#"{"a":1}"#.utf8)).body, .json(.object([("a", .int(1))])))
        XCTAssertEqual(try NewCase(raw, sentBody: Array("not json".utf8)).body, .text("not json"))
        XCTAssertThrowsError(try NewCase(raw, sentBody: [0xFF, 0xFE]))
        let removing = try AdHocRequest(method: "GET", path: "/", query: [], items: ["X-B:"], fileBaseDirectory: "/")
        XCTAssertThrowsError(try NewCase(removing)) { error in
            XCTAssertTrue("\(error)".contains("removes the header X-B"), "\(error)")
        }
    }
}
