import CLITestSupport
import Foundation
import TestServers
import XCTest

/// `moya-cli request`: one request no case declares, on an API or at a URL, through the binary
/// against the loopback server.
final class RequestCommandTests: WebTargetTestCase {
    override func webTarget(port: UInt16) -> String {
        """
        api: web
        baseURL: http://127.0.0.1:\(port)/anything
        headers:
          X-From-File: file
          X-Removable: gone
        auth:
          default: token
          schemes:
            token: {type: bearer, token: "${secret:WEB_TOKEN}"}
            basic: {type: basic, username: me, password: "${secret:WEB_PASSWORD}"}
        environments:
          staging: {baseURL: "http://127.0.0.1:\(port)/anything/staging"}
        cases:
          user: {values: [{id: int}], path: "/users/{id}", sample: ok}
          zen: {path: /zen, sample: ok}
          again: {path: /zen, method: POST, sample: ok}
        """
    }

    override var extraEnvironment: [String: String] { ["WEB_TOKEN": "t0ken-value", "WEB_PASSWORD": "pa55word"] }

    private var last: ReceivedRequest? { server.receivedRequests.last }
    private var url: String { "http://127.0.0.1:\(server.port)" }

    func testEachItemKindOnTheWire() throws {
        let result = try run([
            "request", "web", "POST", "/items/1", "name=Ann", "age:=42", "tags:=[\"a\",1]",
            "q==x", "q==y", "first==1", "X-Extra: two words", "Accept:text/plain"
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try XCTUnwrap(last)
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(request.target, "/anything/items/1?q=x&q=y&first=1")
        XCTAssertEqual(String(decoding: request.body, as: UTF8.self), #"{"name":"Ann","age":42,"tags":["a",1]}"#)
        XCTAssertEqual(request.value(of: "Content-Type"), "application/json")
        XCTAssertEqual(request.value(of: "X-Extra"), "two words")
        XCTAssertEqual(request.value(of: "Accept"), "text/plain")
        XCTAssertEqual(request.value(of: "X-From-File"), "file", "the API's headers are sent")
        XCTAssertEqual(
            request.value(of: "Authorization"), "Bearer t0ken-value",
            "the API's default auth, as a case without auth: gets")
        XCTAssertTrue(result.stdout.contains(#""method":"POST""#), result.stdout)
    }

    func testFormFieldsEscapesAndHeaderRemoval() throws {
        let result = try run([
            "request", "web", "put", "/form", "--form", "b=2 3", "a\\=b=c&d", "X-Removable:", "X-From-File:",
            "X-From-File:again"
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try XCTUnwrap(last)
        XCTAssertEqual(request.method, "PUT", "the method is upper-cased as HTTPie and xh do")
        XCTAssertEqual(String(decoding: request.body, as: UTF8.self), "b=2%203&a%3Db=c%26d")
        XCTAssertEqual(request.value(of: "Content-Type"), "application/x-www-form-urlencoded")
        XCTAssertEqual(request.values(of: "X-Removable"), [], "'Header:' removes the API's header")
        XCTAssertEqual(request.values(of: "X-From-File"), ["again"], "a later item of a name wins")
    }

    func testMultipartParts() throws {
        try folder.write("avatar.png", "PNGDATA")
        let result = try run(["request", "web", "POST", "/upload", "title=Me", "avatar@avatar.png"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let echoed = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let parts = try XCTUnwrap(echoed["parts"] as? [[String: Any]])
        XCTAssertEqual(parts.map { $0["name"] as? String }, ["title", "avatar"])
        XCTAssertEqual(parts[0]["text"] as? String, "Me")
        XCTAssertEqual(parts[1]["filename"] as? String, "avatar.png")
        XCTAssertEqual(parts[1]["content_type"] as? String, "image/png")
        XCTAssertEqual(parts[1]["text"] as? String, "PNGDATA")
    }

    func testEnvAuthChoiceAndRawBodyOptions() throws {
        var result = try run(["request", "web", "GET", "/who", "--env", "staging", "--auth", "basic"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(last?.target, "/anything/staging/who")
        XCTAssertEqual(last?.value(of: "Authorization"), "Basic " + Data("me:pa55word".utf8).base64EncodedString())
        result = try run(["request", "web", "DELETE", "/who", "--auth", "none"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertNil(last?.value(of: "Authorization"))
        result = try run([
            "request", "web", "PATCH", "/raw", "--data", "plain bytes", "-H", "Content-Type: text/plain", "--query",
            "k=v"
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(last.map { String(decoding: $0.body, as: UTF8.self) }, "plain bytes")
        XCTAssertEqual(last?.target, "/anything/raw?k=v")
        result = try run(["request", "web", "POST", "/raw", "--json", #"{"z":1}"#])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(last.map { String(decoding: $0.body, as: UTF8.self) }, #"{"z":1}"#)
    }

    func testSecretsAreRedactedInVerboseOutput() throws {
        let result = try run(["request", "web", "GET", "/secret", "-v"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("t0ken-value"), result.stderr)
        XCTAssertTrue(result.stderr.contains("GET /anything/secret"), result.stderr)
        XCTAssertTrue(result.stderr.contains("> Authorization: Bearer <redacted>"), result.stderr)
    }

    func testAURLWithoutATargetFile() throws {
        let empty = try TemporaryFolder()
        let result = try CLIRunner.run(
            ["request", "post", url + "/anything/x%20y/ü?a=1&a=2#frag", "k=v", "b==3"],
            currentDirectory: empty.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(last?.target, "/anything/x%20y/%C3%BC?a=1&a=2&b=3")
        XCTAssertEqual(last.map { String(decoding: $0.body, as: UTF8.self) }, #"{"k":"v"}"#)
        XCTAssertEqual(last?.value(of: "Authorization"), nil)
    }

    func testWithoutATargetFileStatusCodesFail() throws {
        let empty = try TemporaryFolder()
        for (status, code) in [(302, 0), (404, 4), (500, 5), (204, 0)] {
            let result = try CLIRunner.run(["request", "GET", url + "/status/\(status)"], currentDirectory: empty.url)
            XCTAssertEqual(result.status, Int32(code), "HTTP \(status): \(result.stderr)")
        }
        let noFollow = try CLIRunner.run(
            ["request", "GET", url + "/status/302", "--no-follow"], currentDirectory: empty.url)
        XCTAssertEqual(noFollow.status, 3, noFollow.stderr)
    }

    func testOutputOptionsAndTheValidationMessage() throws {
        let empty = try TemporaryFolder()
        let keypath = try CLIRunner.run(
            ["request", "GET", url + "/anything/k", "--keypath", "method"], currentDirectory: empty.url)
        XCTAssertEqual(keypath.status, 0, keypath.stderr)
        XCTAssertEqual(keypath.stdout, "GET\n")
        let failed = try CLIRunner.run(["request", "GET", url + "/status/404?x=1"], currentDirectory: empty.url)
        XCTAssertEqual(failed.status, 4)
        XCTAssertEqual(
            failed.stderr, "moya-cli: error: request.GET /status/404?x=1: HTTP 404 failed the case's validation\n")
        let output = try run(["request", "web", "GET", "/k", "-o", "out.json"])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(output.stdout, "")
        let written = try String(contentsOf: folder.url.appendingPathComponent("out.json"), encoding: .utf8)
        XCTAssertTrue(written.contains(#""path":"/anything/k""#), written)
    }

    /// Paths that look like another host stay paths on the API's origin.
    func testPathsStayOnTheAPIsOrigin() throws {
        for (path, target) in [
            ("/@evil.example/x", "/anything/@evil.example/x"), ("evil.example/x", "/anything/evil.example/x"),
            ("/a\\b", "/anything/a%5Cb"), ("/%2F%2Fevil.example", "/anything/%2F%2Fevil.example"),
            ("/x y?a b=c+d", "/anything/x%20y?a%20b=c%20d")
        ] {
            let result = try run(["request", "web", "GET", path])
            XCTAssertEqual(result.status, 0, "\(path): \(result.stderr)")
            XCTAssertEqual(last?.target, target, path)
        }
    }

    func testAPasswordInAURLIsSentAndRedacted() throws {
        let empty = try TemporaryFolder()
        let result = try CLIRunner.run(
            ["request", "GET", "http://ann:pw-s3cret@127.0.0.1:\(server.port)/anything/u", "-v", "--curl"],
            currentDirectory: empty.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(last?.value(of: "Authorization"), "Basic " + Data("ann:pw-s3cret".utf8).base64EncodedString())
        XCTAssertFalse(result.stderr.contains("pw-s3cret"), result.stderr)
    }

    func testRefusals() throws {
        let cases: [([String], String)] = [
            (
                ["request", "web", "GET", "/x", "X-Evil:a\r\nInjected: 1"],
                "request item 'X-Evil:a\\r\\nInjected: 1' holds CR, LF or NUL; it would inject a line into the request"
            ),
            (
                ["request", "web", "GET", "/x", "X-Evil:a\nb"],
                "request item 'X-Evil:a\\nb' holds CR, LF or NUL; it would inject a line into the request"
            ),
            (
                ["request", "web", "GET", "/x", "X\rEvil:a"],
                "request item 'X\\rEvil:a' has a header name that is not an HTTP token"
            ),
            (
                ["request", "web", "G(ET", "/x"],
                "METHOD 'G(ET' is not an HTTP method (a token: letters, digits and !#$%&'*+-.^_`|~)"
            ),
            (
                ["request", "web", "GET", "/x", "a=b"],
                "a GET request cannot carry a body; 'a=b' sends one; use POST, PUT or PATCH"
            ),
            (
                ["request", "web", "HEAD", "/x", "--json", "{}"],
                "a HEAD request cannot carry a body; --json sends one; use POST, PUT or PATCH"
            ),
            (
                ["request", "web", "TRACE", "/x", "f@nowhere"],
                "a TRACE request cannot carry a body; 'f@nowhere' sends one; use POST, PUT or PATCH"
            ),
            (
                ["request", "web", "GET", "//evil.example/x"],
                "PATH '//evil.example/x' would leave API 'web''s origin; give a path on it (/users/1), or a full URL without the API: moya-cli request METHOD URL"
            ),
            (
                ["request", "web", "GET", "http://evil.example/x"],
                "PATH 'http://evil.example/x' would leave API 'web''s origin; give a path on it (/users/1), or a full URL without the API: moya-cli request METHOD URL"
            ),
            (
                ["request", "web", "GET", "\\\\evil.example/x"],
                "PATH '\\\\evil.example/x' would leave API 'web''s origin; give a path on it (/users/1), or a full URL without the API: moya-cli request METHOD URL"
            ),
            (
                ["request", "web", "POST", "/x", "f@nowhere.txt"],
                "request item 'f@nowhere.txt': cannot read file '\(folder.url.path)/nowhere.txt'"
            ),
            (["request", "web", "POST", "/x", "n:={bad"], "request item 'n:={bad' is not JSON after ':='"),
            (
                ["request", "web", "POST", "/x", "justaword"],
                "request item 'justaword' is not an item: NAME=VALUE, NAME:=JSON, NAME==VALUE, Header:value, Header: or FIELD@FILE"
            ),
            (
                ["request", "web", "POST", "/x", "--form", "n:=1"],
                "request item 'n:=1' is raw JSON, which a --form body cannot hold; give NAME=VALUE"
            ),
            (
                ["request", "web", "POST", "/x", "a=1", "--data", "x"],
                "request item 'a=1' sends a body, and so does --json or --data; give one of them"
            ),
            (
                ["request", "web", "GET", "/x", "--auth", "oauth"],
                "--auth 'oauth': API 'web' has no auth scheme of that name; its schemes: token, basic, or none"
            ),
            (
                ["request", "GET", "ftp://127.0.0.1/x"],
                "URL 'ftp://127.0.0.1/x' has scheme 'ftp'; only http and https are allowed"
            ),
            (["request", "GET", "http:///x"], "URL 'http:///x' has no host"),
            (
                ["request", "GET", url + "/get", "--env", "staging"],
                "--env needs an API (moya-cli request API METHOD PATH); a URL has no target file to take it from"
            ),
            (
                ["request", "web", "GET"],
                "missing PATH; give API METHOD PATH [ITEM...], or METHOD URL [ITEM...] with an absolute http(s) URL (see 'moya-cli request --help')"
            ),
            (["request", "nope", "GET", "/x"], "unknown API 'nope'")
        ]
        for (arguments, message) in cases {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("moya-cli: error: " + message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
        XCTAssertEqual(server.receivedRequests.count, 0, "nothing refused was sent")
    }

    func testFilePartsMustBeRegularReadableFiles() throws {
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("adir"), withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(folder.url.appendingPathComponent("fifo").path, 0o600), 0)
        for (item, message) in [
            (
                "f@adir",
                "request item 'f@adir': cannot send '\(folder.url.path)/adir': it is a folder, not a regular file"
            ),
            ("f@fifo", "request item 'f@fifo': cannot send '\(folder.url.path)/fifo': it is a FIFO, not a regular file")
        ] {
            let result = try run(["request", "web", "POST", "/x", item])
            XCTAssertEqual(result.status, 64, result.stderr)
            XCTAssertEqual(result.stderr, "moya-cli: error: " + message + "\n")
        }
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    func testLineBreaksInQueryAndBodyItemsAreEncodedNotInjected() throws {
        let result = try run(["request", "web", "POST", "/x", "q==a\r\nX-Injected: 1", "k=line\r\nbreak"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(last?.target, "/anything/x?q=a%0D%0AX-Injected%3A%201")
        XCTAssertEqual(last.map { String(decoding: $0.body, as: UTF8.self) }, #"{"k":"line\r\nbreak"}"#)
        XCTAssertEqual(last?.values(of: "X-Injected"), [])
    }

    func testRetriesAsCallDoes() throws {
        let empty = try TemporaryFolder()
        let result = try CLIRunner.run(
            ["request", "GET", url + "/status/503?header=Retry-After:0", "--retry", "1"], currentDirectory: empty.url)
        XCTAssertEqual(result.status, 5, result.stderr)
        XCTAssertEqual(server.receivedRequests.count, 2, "retried once")
        XCTAssertTrue(result.stderr.hasPrefix("moya-cli: HTTP 503; retrying in"), result.stderr)
    }

    func testAHugeItemIsSent() throws {
        // The kernel caps one argument at 128 KiB; a larger body comes from a file (FIELD@FILE, --data @FILE).
        let big = String(repeating: "x", count: 120_000)
        let result = try run(["request", "web", "POST", "/big", "blob=" + big])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(last?.bodyLength, big.count + #"{"blob":""}"#.count)
    }

    func testCompletionOffersAPIsMethodsAndTheAPIsPaths() throws {
        /// The candidates for the last of `words` (typed after `moya-cli request`), the cursor at its end.
        func complete(_ words: [String]) throws -> [String] {
            let line = ["moya-cli", "request"] + words
            let result = try run(
                [
                    "---completion", "request", "--", "positional@0", String(line.count - 1),
                    String(line[line.count - 1].count)
                ] + line)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(try complete([""]), ["web", "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
        XCTAssertEqual(try complete(["w"]), ["web"])
        XCTAssertEqual(try complete(["web", "P"]), ["POST", "PUT", "PATCH"])
        XCTAssertEqual(try complete(["web", "GET", ""]), ["/users/{id}", "/zen"], "each path once, sorted")
        XCTAssertEqual(try complete(["web", "GET", "/z"]), ["/zen"])
        XCTAssertEqual(try complete(["GET", ""]), [], "a URL is typed, not completed")
        XCTAssertEqual(try complete(["web", "GET", "/zen", ""]), [], "items are free text")

        /// The candidates for `option`'s value, after `words`.
        func completeValue(of option: String, after words: [String]) throws -> [String] {
            let line = ["moya-cli", "request"] + words + [option, ""]
            let result = try run(["---completion", "request", "--", option, String(line.count - 1), "0"] + line)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(try completeValue(of: "--auth", after: ["web", "GET", "/zen"]), ["token", "basic"])
        XCTAssertEqual(try completeValue(of: "--env", after: ["web", "GET", "/zen"]), ["staging"])
    }
}
