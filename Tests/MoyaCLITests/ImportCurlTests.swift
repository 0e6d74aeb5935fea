import CLITestSupport
import Foundation
import XCTest

@testable import TestServers

/// `moya-cli import curl`: each command is sent twice to the loopback server — by the real
/// /usr/bin/curl, and as the imported case by `moya-cli call` — and what arrived is compared:
/// method, path, query, headers and body byte for byte.
///
/// What is compared differently, as moya-cli(1) and moya-cli-import(1) document it: the query's
/// parameters in name order (moya-cli sends them sorted, decoded values equal); repeated header
/// fields as one joined with `, ` (the case sends them so); multipart bodies by their parts
/// (boundaries are random); and these fields are left out: `User-Agent` (moya-cli's own),
/// `Accept-Encoding` (moya-cli always asks for compressed bodies, as curl `--compressed`: compared
/// for commands that give `--compressed`), `Expect` (moya-cli never waits for 100-continue) and,
/// for multipart bodies, `Content-Length` (the boundary's length differs).
final class ImportCurlTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    static let binaryBytes: [UInt8] = [0, 1, 0x27, 0x22, 0x5C, 0x0A, 0x0D, 0xFF, 0xFE, 0x80, 0x41, 0x7F]

    override func setUpWithError() throws {
        try XCTSkipIf(!FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "curl is not installed")
        try XCTSkipIf(!FileManager.default.isExecutableFile(atPath: "/bin/bash"), "bash is not installed")
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write("body.txt", "line one\r\nline 'two' & three\n")
        try folder.write("notes.json", #"{"a": [1, 2], "b": "c;d"}"#)
        try Data(Self.binaryBytes).write(to: folder.url.appendingPathComponent("data.bin"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2]).write(to: folder.url.appendingPathComponent("photo.png"))
    }

    override func tearDown() {
        server?.stop()
    }

    var base: String { "http://127.0.0.1:\(server.port)" }

    /// One command, with the values its case takes and the secrets its call reads.
    struct Sent {
        var command: String
        var values: [String] = []
        var environment: [String: String] = [:]
        /// Header fields known to differ, each with its reason at the command.
        var differingHeaders: Set<String> = []
    }

    // MARK: The commands

    func testMethodsAndURLs() throws {
        try assertImportedCasesSendWhatCurlSends(
            [
                Sent(command: "curl '\(base)/anything/plain'"),
                Sent(command: "curl -X DELETE '\(base)/anything/items/7'"),
                Sent(command: "curl -I '\(base)/anything/head'"),
                Sent(command: "curl --request PATCH \(base)/anything/patch -d 'a=1'"),
                Sent(command: "curl -XPUT \(base)/anything/put --data-raw 'x=y'"),
                Sent(command: "curl \(base)/anything/dots/./a/../b"),
                Sent(command: "curl -g '\(base)/anything/q?b=2&a=1&a=3&c'"),
                Sent(command: "curl '\(base)/anything/enc?q=a%20b&r=x+y&e=%E2%82%AC&s=%2F%26'"),
                Sent(command: "curl '\(base)/anything/frag?x=1#section'"),
                Sent(command: "curl -G \(base)/anything/get -d 'q=moya' --data-urlencode 'name=Ada & Bob'"),
                Sent(command: "curl -G -I \(base)/anything/gethead --data-urlencode 'x=1 2'"),
                Sent(command: "curl --url-query 'page=2' --url-query '+raw=a%2Cb' '\(base)/anything/urlquery?z=0'"),
                Sent(command: "curl -L -k -s -S -v -o out.txt --max-time 10 --retry 2 \(base)/anything/flags"),
                Sent(command: "curl '\(base)/anything/qs?access_token=abc&page=1'", values: ["abc"])
            ], api: "methods")
    }

    func testHeadersAndCredentials() throws {
        try assertImportedCasesSendWhatCurlSends(
            [
                Sent(command: "curl -H 'X-Trace: t-1' -H 'Accept: text/plain' \(base)/anything/h"),
                Sent(command: "curl -H 'X-Empty;' \(base)/anything/empty"),
                Sent(command: "curl -H 'X-Dup: a' -H 'X-Dup: b' \(base)/anything/dup"),
                Sent(command: "curl -A 'Mozilla/5.0 (X11)' -e 'https://example.com/page' \(base)/anything/ua"),
                Sent(command: "curl --compressed -H 'X-Z: 1' \(base)/anything/compressed"),
                Sent(
                    command: "curl -H 'Authorization: Bearer t0k3n' \(base)/anything/auth",
                    environment: ["MOYA_HEADERS_AUTHORIZATION": "Bearer t0k3n"]),
                Sent(
                    command: "curl -u 'ada:s3cr3t' \(base)/anything/basic",
                    environment: ["MOYA_HEADERS_AUTHORIZATION": "Basic YWRhOnMzY3IzdA=="]),
                Sent(
                    command: "curl --oauth2-bearer abc \(base)/anything/oauth",
                    environment: ["MOYA_HEADERS_AUTHORIZATION": "Bearer abc"]),
                Sent(
                    command: "curl -b 'session=abc; theme=dark' -b 'x=1' \(base)/anything/cookie",
                    environment: ["MOYA_HEADERS_COOKIE": "session=abc; theme=dark;x=1"]),
                Sent(
                    command: "curl -H 'X-API-Key: k-123' \(base)/anything/key",
                    environment: ["MOYA_HEADERS_X_API_KEY": "k-123"]),
                Sent(
                    command: "curl -H 'X-Goog-Api-Key: g00g' \(base)/anything/goog",
                    environment: ["MOYA_HEADERS_X_GOOG_API_KEY": "g00g"]),
                Sent(
                    command: "curl 'http://ada:p%40ss@127.0.0.1:\(server.port)/anything/userinfo'",
                    environment: ["MOYA_HEADERS_AUTHORIZATION": "Basic YWRhOnBAc3M="])
            ], api: "headers")
    }

    func testDataBodies() throws {
        try assertImportedCasesSendWhatCurlSends(
            [
                Sent(command: "curl -d 'a=1' -d 'b=2' \(base)/anything/form"),
                Sent(command: "curl -d @body.txt \(base)/anything/datafile"),
                Sent(command: "curl --data-binary @body.txt \(base)/anything/binary"),
                Sent(command: "curl --data-raw '@not-a-file' \(base)/anything/raw"),
                Sent(command: "curl --data-ascii 'x=1' --data 'y=2' \(base)/anything/ascii"),
                Sent(
                    command:
                        "curl --data-urlencode 'q=a b&c' --data-urlencode '=only' --data-urlencode 'plain text' --data-urlencode 'f@body.txt' \(base)/anything/urlencode"
                ),
                Sent(command: #"curl --json '{"name":"moya","n":1}' \#(base)/anything/json"#),
                Sent(command: #"curl --json '{"a":' --json '1}' \#(base)/anything/json2"#),
                Sent(command: "curl --json @notes.json \(base)/anything/json3"),
                Sent(
                    command:
                        #"curl '\#(base)/anything/chrome' -H 'content-type: application/json' --data-raw '{"id": 7, "tags": ["a", "{b}"]}'"#
                ),
                Sent(command: "curl -X PUT -H 'Content-Type: text/plain' -d 'hello' \(base)/anything/text"),
                Sent(command: "curl -d '' \(base)/anything/empty-body"),
                Sent(command: "curl -X DELETE -d 'gone' \(base)/anything/delete-body")
            ], api: "data")
    }

    func testMultipartAndUploads() throws {
        try assertImportedCasesSendWhatCurlSends(
            [
                Sent(command: "curl -F 'title=Hello' -F 'doc=@photo.png' \(base)/anything/mp", values: ["photo.png"]),
                Sent(
                    command:
                        "curl -F 'meta=<notes.json;type=application/json' -F 'raw=@data.bin;filename=renamed.bin;type=application/x-thing' \(base)/anything/mp2",
                    values: ["data.bin"]),
                Sent(
                    command:
                        "curl --form-string 'literal=@not-a-file' -F 'note=a;type=text/x-note' \(base)/anything/mp3"),
                Sent(
                    command: "curl -X PUT -F 'x=1' -F 'file=@notes.json' \(base)/anything/mp4", values: ["notes.json"]),
                Sent(command: "curl -F 'q=\"semi;colon\"' -F 'body=<body.txt' '\(base)/anything/mp5?page=2'"),
                Sent(command: "curl -T data.bin \(base)/anything/upload", values: ["data.bin"]),
                Sent(command: "curl -T notes.json \(base)/anything/folder/", values: ["notes.json"]),
                // moya-cli sends a POST upload with libcurl's CURLOPT_POST, which labels it
                // application/x-www-form-urlencoded; curl -X POST -T sends it as a PUT renamed, unlabelled.
                Sent(
                    command: "curl -X POST -T data.bin \(base)/anything/upload-post", values: ["data.bin"],
                    differingHeaders: ["content-type"])
            ], api: "uploads")
    }

    func testQuotingAsBrowsersWriteIt() throws {
        try assertImportedCasesSendWhatCurlSends(
            [
                Sent(command: "curl $'\(base)/anything/ansi' -H $'X-Tab: a\\tb' --data-raw $'x=\\u20ac\\x41'"),
                Sent(command: "curl '\(base)/anything/cont' \\\n  -H 'X-A: 1' \\\n  --data-raw 'z=1'"),
                Sent(command: #"curl "\#(base)/anything/dq" -H "X-Quote: it's \"quoted\" \$HOME \`id\`""#),
                Sent(command: "curl '\(base)/anything/single' -H 'X-Q: it'\"'\"'s'"),
                Sent(command: "curl '\(base)/anything/s1' -H 'X-S: 1' ; curl '\(base)/anything/s2' -H 'X-S: 2'"),
                // Chrome's "Copy as cURL (bash)", and Firefox's "Copy as cURL (POSIX)".
                Sent(
                    command: """
                        curl '\(base)/anything/api/items?limit=10' \\
                          -H 'Accept: application/json, text/plain, */*' \\
                          -H 'Accept-Language: en-US,en;q=0.9' \\
                          -H 'Connection: keep-alive' \\
                          -H 'Content-Type: application/json' \\
                          -H 'Origin: \(base)' \\
                          -H 'Sec-Fetch-Mode: cors' \\
                          -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/118.0.0.0' \\
                          -H 'sec-ch-ua: "Chromium";v="118", "Google Chrome";v="118"' \\
                          --data-raw $'{"name":"it\\'s","n":1}' \\
                          --compressed
                        """),
                Sent(
                    command:
                        "curl '\(base)/anything/ff' -X POST -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/115.0' -H 'Accept: */*' -H 'Accept-Language: en-US,en;q=0.5' -H 'Accept-Encoding: gzip, deflate, br' -H 'Content-Type: application/x-www-form-urlencoded; charset=UTF-8' -H 'Origin: \(base)' -H 'DNT: 1' -H 'Connection: keep-alive' -H 'Cookie: a=b' -H 'Sec-Fetch-Dest: empty' --data-raw 'q=1&r=2'",
                    environment: ["MOYA_QUOTING_COOKIE": "a=b"])
            ], api: "quoting")
    }

    // MARK: Shared by the tests above

    /// Imports `commands` (one per line) as `api`, then sends each both ways and compares.
    func assertImportedCasesSendWhatCurlSends(
        _ commands: [Sent], api: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try folder.write("\(api).sh", commands.map(\.command).joined(separator: "\n") + "\n")
        let imported = try CLIRunner.run(
            ["import", "curl", "\(api).sh", "--api", api, "--case", "c"], currentDirectory: folder.url)
        XCTAssertEqual(imported.status, 0, imported.stderr, file: file, line: line)
        guard imported.status == 0 else { return }
        // `;` makes two commands of one line: each a case.
        let split = commands.flatMap { sent in
            sent.command.components(separatedBy: " ; ").map {
                Sent(
                    command: $0, values: sent.values, environment: sent.environment,
                    differingHeaders: sent.differingHeaders)
            }
        }
        for (index, sent) in split.enumerated() {
            let name = index == 0 ? "c" : "c\(index + 1)"
            let before = server.receivedRequests.count
            try folder.write("run.sh", sent.command + "\n")
            // A browser writes $'\u20ac' for €: bash reads it so in a UTF-8 locale.
            let curl = try CLIRunner.runShell("bash run.sh", in: folder.url, environment: ["LC_ALL": "C.UTF-8"])
            XCTAssertEqual(curl.status, 0, "\(sent.command)\n\(curl.stderr)", file: file, line: line)
            let called = try CLIRunner.run(
                ["call", api, name] + sent.values,
                environment: sent.environment.merging([CLIRunner.allowedVariablesName: "*"]) { given, _ in given },
                currentDirectory: folder.url)
            XCTAssertEqual(called.status, 0, "call \(api) \(name): \(called.stderr)", file: file, line: line)
            let received = server.receivedRequests.dropFirst(before)
            guard received.count == 2, let viaCurl = received.first, let viaCall = received.last else {
                XCTFail("\(sent.command): expected two requests, got \(received.count)", file: file, line: line)
                continue
            }
            let comparesEncoding = sent.command.contains("--compressed")
            var (call, sentByCurl) = (
                Wire(viaCall, comparingAcceptEncoding: comparesEncoding),
                Wire(viaCurl, comparingAcceptEncoding: comparesEncoding)
            )
            for name in sent.differingHeaders {
                XCTAssertNotEqual(
                    call.headers[name], sentByCurl.headers[name], "\(name) no longer differs", file: file, line: line)
                (call.headers[name], sentByCurl.headers[name]) = (nil, nil)
            }
            XCTAssertEqual(
                call, sentByCurl,
                "\(api) \(name): \(sent.command)", file: file, line: line)
        }
    }

    /// What must arrive the same from curl and from the case.
    struct Wire: Equatable, CustomStringConvertible {
        var method: String
        var path: String
        var query: [String]
        var headers: [String: String]
        var body: Data
        var parts: [[String]]?

        init(_ request: ReceivedRequest, comparingAcceptEncoding: Bool) {
            method = request.method
            path = request.path
            // Stable: the values of one name keep their order.
            query = request.queryItems.enumerated()
                .sorted { ($0.element.name, $0.offset) < ($1.element.name, $1.offset) }
                .map { "\($0.element.name)=\($0.element.value)" }
            let parsed = MultipartParser.parts(of: request.body, contentType: request.value(of: "Content-Type"))
            var left: Set<String> = ["user-agent", "expect"]
            if !comparingAcceptEncoding { left.insert("accept-encoding") }
            if parsed != nil { left.insert("content-length") }
            // Moya's session sends a bodiless POST with Content-Length: 0, curl -X POST with none
            // (moya-cli-import(1) lists the difference).
            if request.method == "POST", request.body.isEmpty, request.value(of: "Content-Length") == "0" {
                left.insert("content-length")
            }
            var headers: [String: String] = [:]
            for field in request.headers where !left.contains(field.name.lowercased()) {
                var value = field.value
                if field.name.lowercased() == "content-type", let range = value.range(of: "; boundary=") {
                    value = String(value[..<range.lowerBound])
                }
                let name = field.name.lowercased()
                headers[name] = headers[name].map { $0 + ", " + value } ?? value
            }
            self.headers = headers
            parts = parsed?.map {
                [$0.name ?? "-", $0.fileName ?? "-", $0.contentType ?? "-", $0.content.base64EncodedString()]
            }
            body = parsed == nil ? request.body : Data()
        }

        var description: String {
            "\(method) \(path) \(query)\n  \(headers.sorted { $0.key < $1.key })\n  \(parts.map { "\($0)" } ?? String(decoding: body, as: UTF8.self))"
        }
    }
}
