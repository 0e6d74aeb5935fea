import RequestImport
import TargetSpec
import XCTest

/// curl's rules for what a command sends, read without running curl (the end-to-end comparison
/// with the real curl is ImportCurlTests).
final class CurlRequestBuilderTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("request-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("line1\r\nline2\n".utf8).write(to: folder.appendingPathComponent("body.txt"))
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: folder)
    }

    private func request(_ text: String) throws -> ImportedRequest {
        let line = try XCTUnwrap(ShellWordsReader.commands(in: Array(text.utf8)).first)
        return try CurlRequestBuilder(files: ReferencedFiles(folder: folder.path)).request(from: CurlCommand(line))
    }

    private func body(_ request: ImportedRequest) -> String? {
        if case .bytes(let bytes) = request.body { return String(decoding: bytes, as: UTF8.self) }
        return nil
    }

    func testMethodAndURL() throws {
        let plain = try request("curl 'https://API.example.com:8443/v1/./a/../users?b=2&a=x+y%21#frag'")
        XCTAssertEqual(plain.method, "GET")
        XCTAssertEqual(plain.url.origin, "https://api.example.com:8443")
        XCTAssertEqual(plain.url.path, "/v1/users")
        XCTAssertEqual(plain.query.map { "\($0.name)=\($0.value)" }, ["b=2", "a=x y!"])
        XCTAssertEqual(try request("curl -I http://h/x").method, "HEAD")
        XCTAssertEqual(try request("curl -XPATCH http://h/x -d a").method, "PATCH")
        XCTAssertEqual(try request("curl -T f.bin http://h/x").method, "PUT")
        XCTAssertEqual(try request("curl -F a=b http://h/x").method, "POST")
        XCTAssertEqual(try request("curl h/x").url.origin, "http://h")
    }

    func testDataFollowsCurl() throws {
        XCTAssertEqual(body(try request("curl -d a=1 -d b=2 http://h")), "a=1&b=2")
        XCTAssertEqual(body(try request("curl -d @body.txt http://h")), "line1line2")
        XCTAssertEqual(body(try request("curl --data-binary @body.txt http://h")), "line1\r\nline2\n")
        XCTAssertEqual(body(try request("curl --data-raw @body.txt http://h")), "@body.txt")
        XCTAssertEqual(
            body(try request("curl --data-urlencode 'q=a b&c' --data-urlencode =x~y --data-urlencode 'z z' http://h")),
            "q=a+b%26c&x~y&z+z")
        XCTAssertEqual(body(try request("curl --json '{\"a\":' --json '1}' http://h")), "{\"a\":1}")
        let json = try request("curl --json '{}' http://h")
        XCTAssertEqual(json.headers.map(\.name), ["Content-Type", "Accept"])
        let form = try request("curl -d x http://h")
        XCTAssertEqual(form.headers.map(\.value), ["application/x-www-form-urlencoded"])
        let get = try request("curl -G -d a=1 --data-urlencode 'b=c d' 'http://h/s?z=0'")
        XCTAssertEqual(get.method, "GET")
        XCTAssertEqual(get.query.map { "\($0.name)=\($0.value)" }, ["z=0", "a=1", "b=c d"])
    }

    func testCredentialsAreSecretHeaders() throws {
        let basic = try request("curl -u ada:pw -b 'a=1' -b 'b=2' http://h")
        XCTAssertEqual(basic.headers.map(\.name), ["Cookie", "Authorization"])
        XCTAssertEqual(basic.headers.map(\.isSecret), [true, true])
        XCTAssertEqual(basic.headers[0].value, "a=1;b=2", "curl joins -b with a bare ;")
        XCTAssertEqual(basic.headers[1].value, "Basic YWRhOnB3")
        XCTAssertEqual(try request("curl http://ada:p%40w@h/x").headers.first?.value, "Basic YWRhOnBAdw==")
        let given = try request("curl -u ada:pw -H 'authorization: Bearer t' http://h")
        XCTAssertEqual(given.headers.map(\.value), ["Bearer t"], "-H replaces what -u would send, as in curl")
    }

    func testMultipartParts() throws {
        let made = try request(
            "curl -F 'a=b;type=text/x' -F 'f=@dir/p.png;filename=q.png' -F 'n=\"x;y\"' --form-string 'l=@z' -F 't=<body.txt' http://h"
        )
        guard case .multipart(let parts) = made.body else { return XCTFail("not multipart") }
        XCTAssertEqual(parts.map(\.name), ["a", "f", "n", "l", "t"])
        XCTAssertEqual(parts[0].mimeType, "text/x")
        XCTAssertEqual(parts[1].fileName, "q.png")
        guard case .file(let path) = parts[1].content else { return XCTFail("not a file part") }
        XCTAssertEqual(path, "dir/p.png")
        guard case .text(let quoted) = parts[2].content, case .text(let literal) = parts[3].content,
            case .text(let read) = parts[4].content
        else { return XCTFail("not text parts") }
        XCTAssertEqual(String(decoding: quoted, as: UTF8.self), "x;y")
        XCTAssertEqual(String(decoding: literal, as: UTF8.self), "@z")
        XCTAssertEqual(String(decoding: read, as: UTF8.self), "line1\r\nline2\n")
    }

    func testRefusedCommandsNameTheirPlace() throws {
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("link"), withDestinationURL: URL(fileURLWithPath: "/etc/passwd"))
        for (text, fragment) in [
            ("curl -d @/etc/passwd http://h", "outside the folder"),
            ("curl -d @../x http://h", "outside the folder"),
            ("curl -d @link http://h", "outside the folder"),
            ("curl -d @- http://h", "standard input"),
            ("curl -K cfg http://h", "reads options from a file"),
            ("curl --frobnicate http://h", "unknown curl option"),
            ("curl -H 'Bad Name: x' http://h", "not a header name"),
            ("curl -H $'X: a\\r\\nY: b' http://h", "CR, LF or NUL"),
            ("curl $'http://h/a\\r\\nb'", "control characters"),
            ("curl 'http://h/{a,b}'", "--globoff"),
            ("curl ftp://h/x", "not http"),
            ("curl http://a http://b", "2 URLs"),
            ("curl -d a -F b=c http://h", "only select one"),
            ("curl -X 'GE T' http://h", "not an HTTP method"),
            ("wget http://h", "not a curl command"),
            ("curl -H", "needs an argument"),
            ("curl -F 'a=b;headers=X: y' http://h", "not imported")
        ] {
            XCTAssertThrowsError(try request(text), text) { error in
                let failure = error as? RequestImportError
                XCTAssertNotNil(failure?.place, text)
                XCTAssertTrue(failure?.message.contains(fragment) == true, "\(text): \(String(describing: failure))")
            }
        }
    }

    func testOptionsThatDoNotMapAreNoted() throws {
        let made = try request(#"curl -k --proxy http://p:1 -o out -s -H "X-U: $(whoami)" http://h/x"#)
        XCTAssertEqual(made.notes.count, 5, "\(made.notes.map(\.message))")
        XCTAssertTrue(made.notes.contains { $0.message.contains("--proxy is not imported") })
    }
}
