import CLITestSupport
import Foundation
import XCTest

@testable import TestServers

/// `moya-cli curl` prints a command that sends what `moya-cli call` sends: each case is called,
/// then its curl command is run by `/bin/sh` with the real curl, and the server compares the two.
final class CurlEquivalenceTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    /// Bytes no shell argument can carry: NUL, quotes, backslashes, `%`, newlines, invalid UTF-8.
    static let binaryBytes = Data([
        0, 1, 2, 0x27, 0x22, 0x5C, 0x25, 0x0A, 0x0D, 0xFF, 0xFE, 0x80, 0x41, 0x00, 0x7F, 0x30
    ])

    override func setUpWithError() throws {
        try XCTSkipIf(
            !FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")
                && !FileManager.default.isExecutableFile(atPath: "/bin/curl"),
            "curl is not installed")
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write("targets/eq.yaml", Self.targetFile(port: server.port))
        for (type, fields) in [
            ("bearer", "token: \"${TOKEN}\""), ("basic", "username: \"${USER_NAME}\", password: \"${TOKEN}\""),
            ("custom", "scheme: Token, token: \"${TOKEN}\"")
        ] {
            try folder.write(
                "targets/auth-\(type).yaml",
                """
                api: auth-\(type)
                baseURL: http://127.0.0.1:\(server.port)
                auth: {type: \(type), \(fields)}
                cases:
                  me:
                    path: /anything/me
                    sample: ok
                """)
        }
        try folder.write("text.txt", "line one\nline 'two' \"quoted\" $HOME `tick` \\ back\n")
        try Self.binaryBytes.write(to: folder.url.appendingPathComponent("binary.bin"))
        try folder.write("semi;colon name.txt", "file with an odd name")
    }

    override func tearDown() {
        server?.stop()
    }

    static func targetFile(port: UInt16) -> String {
        """
        api: eq
        baseURL: http://127.0.0.1:\(port)
        headers:
          X-Client: moya-cli-tests
          Accept: application/json
        timeout: 10
        cases:
          plain:
            values: [{name: string}]
            path: /anything/users/{name}
          query:
            values: [{q: string}, {page: {type: int, default: 1}}, {flag: {type: bool, default: false}}]
            path: /anything/search
            task: {parameters: {q: "{q}", page: "{page}", flag: "{flag}", list: [1, 2], nested: {a: "x y"}}, encoding: url}
          data:
            method: POST
            values: [{text: string}]
            path: /anything/data
            task: {data: "{text}"}
          dataFile:
            method: POST
            values: [{file: file}]
            path: /anything/data-file
            task: {dataFile: "{file}"}
          json:
            method: POST
            values: [{name: string}, {count: int}]
            path: /anything/json
            task: {json: {name: "{name}", count: "{count}", tags: ["it's", "a \\"test\\""]}}
          formBody:
            method: POST
            values: [{a: string}]
            path: /anything/form
            task: {parameters: {a: "{a}", list: [1, 2]}, encoding: url}
          formQuery:
            method: POST
            values: [{a: string}]
            path: /anything/form-query
            task: {parameters: {a: "{a}"}, encoding: url, destination: queryString}
          formPut:
            method: PUT
            values: [{a: string}]
            path: /anything/form-put
            task: {parameters: {a: "{a}"}, encoding: url, destination: httpBody, boolEncoding: literal}
          jsonParameters:
            method: PATCH
            values: [{a: string}]
            path: /anything/json-parameters
            task: {parameters: {a: "{a}", n: 1}, encoding: json}
          plist:
            method: POST
            values: [{a: string}]
            path: /anything/plist
            task: {parameters: {a: "{a}", n: 1}, encoding: propertyList}
          plistBinary:
            method: POST
            values: [{a: string}]
            path: /anything/plist-binary
            task: {parameters: {a: "{a}", n: 1}, encoding: propertyList, format: binary}
          compositeData:
            method: POST
            values: [{text: string}, {q: string}]
            path: /anything/composite-data
            task: {data: "{text}", query: {q: "{q}"}}
          compositeParameters:
            method: PUT
            values: [{a: string}, {q: string}]
            path: /anything/composite-parameters
            task: {parameters: {a: "{a}"}, encoding: json, query: {q: "{q}", n: 2}}
          upload:
            method: PUT
            values: [{file: file}]
            path: /anything/upload
            task: {upload: "{file}"}
          uploadToFolder:
            method: PATCH
            values: [{file: file}]
            path: /anything/upload/
            task: {upload: "{file}"}
          uploadPost:
            method: POST
            values: [{file: file}]
            path: /anything/upload-post
            task: {upload: "{file}"}
          multipart:
            method: POST
            values: [{title: string}, {file: file}]
            path: /anything/multipart
            task:
              multipart:
                - {name: title, value: "{title}"}
                - {name: doc, file: "{file}", mimeType: application/octet-stream}
                - {name: meta, data: '{"a": "b;c"}', mimeType: application/json}
                - {name: renamed, file: "{file}", fileName: other name.txt}
          multipartQuery:
            method: PUT
            values: [{title: string}, {file: file}, {q: string}]
            path: /anything/multipart-query
            task:
              multipart:
                - {name: title, value: "{title}"}
                - {name: doc, file: "{file}"}
              query: {q: "{q}"}
          download:
            values: [{size: int}]
            path: /bytes/{size}
            task: {download: "download.bin"}
          downloadParameters:
            values: [{q: string}]
            path: /anything/download
            task: {download: "download.json", parameters: {q: "{q}"}, encoding: url}
          head:
            method: HEAD
            path: /get
          delete:
            method: DELETE
            values: [{id: int}]
            path: /anything/items/{id}
            task: {parameters: {cascade: true}, encoding: url}
          options:
            method: OPTIONS
            path: /anything/options
          optionsUpload:
            method: OPTIONS
            values: [{file: file}]
            path: /anything/options-upload
            task: {upload: "{file}"}
          deleteMultipart:
            method: DELETE
            values: [{title: string}, {file: file}]
            path: /anything/delete-multipart
            task:
              multipart:
                - {name: title, value: "{title}"}
                - {name: doc, file: "{file}"}
          deleteUpload:
            method: DELETE
            values: [{file: file}]
            path: /anything/delete-upload
            task: {upload: "{file}"}
          headers:
            values: [{trace: string}]
            path: /anything/headers
            headers:
              X-Trace: "{trace}"
              X-Empty: ""
        """
    }

    // MARK: Tasks

    func testPlainAndQuery() throws {
        try assertEquivalent(["eq", "plain", "a b/c"])
        try assertEquivalent(["eq", "query", "moya & cli", "--page", "3", "--flag", "true"])
    }

    func testDataBodies() throws {
        try assertEquivalent(["eq", "data", "it's \"text\" with $dollar and \\backslash"])
        try assertEquivalent(["eq", "data", "@text.txt"], note: "a body starting with @ is not a file for curl")
        try assertEquivalent(["eq", "data", "<text.txt"])
        try assertEquivalent(["eq", "dataFile", "text.txt"])
        try assertEquivalent(["eq", "dataFile", "binary.bin"], note: "binary bodies round-trip through printf")
        XCTAssertEqual(server.receivedRequests.last?.body, Self.binaryBytes)
    }

    func testJSONBody() throws {
        try assertEquivalent(["eq", "json", "it's", "42"])
    }

    func testURLEncodedParameters() throws {
        try assertEquivalent(["eq", "formBody", "x&y=z"])
        try assertEquivalent(["eq", "formQuery", "x&y"])
        try assertEquivalent(["eq", "formPut", "x y"])
    }

    func testJSONAndPropertyListEncodings() throws {
        try assertEquivalent(["eq", "jsonParameters", "x"])
        try assertEquivalent(["eq", "plist", "<x & 'y'>"])
        try assertEquivalent(["eq", "plistBinary", "x"])
    }

    func testCompositeTasks() throws {
        try assertEquivalent(["eq", "compositeData", "body text", "q&r"])
        try assertEquivalent(["eq", "compositeParameters", "x", "q r"])
    }

    func testUploads() throws {
        try assertEquivalent(["eq", "upload", "binary.bin"])
        XCTAssertEqual(server.receivedRequests.last?.body, Self.binaryBytes)
        try assertEquivalent(["eq", "uploadPost", "text.txt"])
        try assertEquivalent(
            ["eq", "uploadToFolder", "text.txt"], note: "curl -T would append the file name to a URL ending in /")
    }

    func testMultipart() throws {
        try assertEquivalent(["eq", "multipart", "Hello; it's me", "binary.bin"])
        try assertEquivalent(["eq", "multipart", "@text.txt", "semi;colon name.txt"])
        try assertEquivalent(["eq", "multipartQuery", "title", "text.txt", "q q"])
    }

    func testDownloads() throws {
        try assertEquivalent(
            ["eq", "download", "70000"], callOptions: ["-o", "call.bin"], curlOptions: ["-o", "curl.bin"])
        let expected = TestBytes.data(count: 70_000)
        XCTAssertEqual(try Data(contentsOf: folder.url.appendingPathComponent("call.bin")), expected)
        XCTAssertEqual(try Data(contentsOf: folder.url.appendingPathComponent("curl.bin")), expected)

        try assertEquivalent(["eq", "downloadParameters", "a&b"])
        let downloaded = try EchoedRequest(from: Data(contentsOf: folder.url.appendingPathComponent("download.json")))
        XCTAssertEqual(downloaded.args, [["q", "a&b"]], "curl's -o wrote where the case downloads to")
    }

    // MARK: Methods, headers, auth

    func testHeadAndDelete() throws {
        try assertEquivalent(["eq", "head"])
        try assertEquivalent(["eq", "delete", "7"])
    }

    /// Issue 26, item 7: curl posts whatever has `--data` or `-F` and puts what has `-T`, so the
    /// command says `-X` whenever the case's method is another; HEAD goes without its body. (A
    /// target file cannot give a GET a body; `--data` and `--json` can.)
    func testMethodsWithBodiesStayTheirMethod() throws {
        try assertEquivalent(["eq", "plain", "x", "--data", "hello"], method: "GET")
        try assertEquivalent(["eq", "plain", "x", "--data", ""], method: "GET")
        try assertEquivalent(["eq", "plain", "x", "--data", "@text.txt"], method: "GET")
        try assertEquivalent(["eq", "plain", "x", "--json", #"{"a": 1}"#], method: "GET")
        try assertEquivalent(["eq", "head", "--data", "hello"], method: "HEAD")
        XCTAssertEqual(server.receivedRequests.last?.body, Data(), "the transport sends a HEAD without its body")
        try assertEquivalent(["eq", "delete", "7", "--data", "gone"], method: "DELETE")
        XCTAssertEqual(server.receivedRequests.last?.body, Data("gone".utf8))
        try assertEquivalent(["eq", "options"], method: "OPTIONS")
        try assertEquivalent(["eq", "options", "--data", "x"], method: "OPTIONS")
        try assertEquivalent(["eq", "optionsUpload", "text.txt"], method: "OPTIONS")
        try assertEquivalent(["eq", "optionsUpload", "binary.bin"], method: "OPTIONS")
        XCTAssertEqual(server.receivedRequests.last?.body, Self.binaryBytes)
        try assertEquivalent(["eq", "deleteMultipart", "t", "semi;colon name.txt"], method: "DELETE")
        try assertEquivalent(["eq", "deleteUpload", "text.txt"], method: "DELETE")
    }

    func testHeadersAndOverrides() throws {
        try assertEquivalent([
            "eq", "headers", "t-1", "-H", "X-Extra: it's", "-H", "X-Client:", "-H", "Accept: text/plain"
        ])
        XCTAssertEqual(server.receivedRequests.last?.values(of: "X-Empty"), [""])
    }

    func testAuthorization() throws {
        let environment = ["TOKEN": "s3cr'et", "USER_NAME": "ash"]
        for api in ["auth-bearer", "auth-basic", "auth-custom"] {
            try assertEquivalent([api, "me", "--show-secrets"], environment: environment)
            XCTAssertNotNil(server.receivedRequests.last?.value(of: "Authorization"), api)
        }
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Authorization"), "Token s3cr'et")
    }

    // MARK: Shared by the tests above

    /// What the server received that must be the same for `call` and for the curl command.
    struct Observed: Equatable, CustomStringConvertible {
        var method: String
        var target: String
        var isChunked: Bool
        var headers: [String: [String]]
        var body: Data
        var parts: [[String]]?

        var description: String {
            let text = String(data: body, encoding: .utf8) ?? "<\(body.count) bytes>"
            return
                "\(method) \(target) chunked=\(isChunked)\n  headers: \(headers.sorted { $0.key < $1.key })\n  body: \(parts.map { "\($0)" } ?? text)"
        }

        init(_ request: ReceivedRequest) {
            method = request.method
            target = request.target
            isChunked = request.isChunked
            var headers: [String: [String]] = [:]
            for field in request.headers {
                let name = field.name.lowercased()
                guard name.hasPrefix("x-") || ["content-type", "authorization", "accept", "expect"].contains(name)
                else { continue }
                var value = field.value
                // A multipart boundary is random; the type and the parts are what matter.
                if name == "content-type", let range = value.range(of: "; boundary=") {
                    value = String(value[..<range.lowerBound])
                }
                headers[name, default: []].append(value)
            }
            self.headers = headers
            if let parsed = MultipartParser.parts(of: request.body, contentType: request.value(of: "Content-Type")) {
                parts = parsed.map {
                    [$0.name ?? "-", $0.fileName ?? "-", $0.contentType ?? "-", $0.content.base64EncodedString()]
                }
                body = Data()
            } else {
                body = request.body
            }
        }
    }

    /// Calls `arguments` with `call`, then runs the command `curl` prints, and compares what arrived.
    func assertEquivalent(
        _ arguments: [String], callOptions: [String] = [], curlOptions: [String] = [],
        environment: [String: String] = [:],
        method: String? = nil, note: String = "", file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let before = server.receivedRequests.count
        let called = try CLIRunner.run(
            ["call"] + arguments + callOptions + ["--force"], environment: environment,
            currentDirectory: folder.url, timeout: 30, file: file, line: line)
        XCTAssertEqual(called.status, 0, "call \(arguments): \(called.stderr)", file: file, line: line)
        let printed = try CLIRunner.run(
            ["curl"] + arguments + curlOptions + ["--show-secrets"], environment: environment,
            currentDirectory: folder.url, timeout: 30, file: file, line: line)
        XCTAssertEqual(printed.status, 0, "curl \(arguments): \(printed.stderr)", file: file, line: line)
        let command = printed.stdout.trimmingCharacters(in: .newlines)
        let shell = try CLIRunner.runShell(command, in: folder.url, environment: environment)
        XCTAssertEqual(shell.status, 0, "\(command)\n\(shell.stderr)", file: file, line: line)
        XCTAssertFalse(
            shell.stderr.contains("Warning") || shell.stderr.contains("Note:"),
            "curl warned: \(command)\n\(shell.stderr)",
            file: file, line: line)

        let received = server.receivedRequests.dropFirst(before)
        guard received.count == 2, let fromCall = received.first, let fromCurl = received.last else {
            return XCTFail(
                "expected one request from call and one from curl, got \(received.count)\n\(command)", file: file,
                line: line)
        }
        let (viaCall, viaCurl) = (Observed(fromCall), Observed(fromCurl))
        XCTAssertEqual(
            viaCall, viaCurl, "\(note)\ncall: \(viaCall)\ncurl: \(viaCurl)\ncommand: \(command)", file: file, line: line
        )
        if let method {
            XCTAssertEqual(fromCall.method, method, "call sent another method", file: file, line: line)
        }
    }
}
