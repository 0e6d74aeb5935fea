import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 26, items 3, 5, 6 and 9 (import): a spec is untrusted text. Whatever it writes stays
/// literal in the target file made from it, never a variable reference; what the import refuses
/// exits 65 with the place; variable names come from the name the user chose; JSON specs are
/// read as JSON; numbers keep their digits.
final class ImportTrustTests: XCTestCase {
    var sandbox: Sandbox!
    var server: HTTPTestServer!

    /// What `${HOME}` and `${secret:X}` would read: neither may ever appear in a request or an answer.
    static let homeCanary = "HOME-CANARY-5b1e"
    static let secretCanary = "SECRET-CANARY-93fd"

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// The environment of every run: the canaries set where `${HOME}` and `${secret:X}` read.
    var canaryEnvironment: [String: String] {
        let home = sandbox.home.appendingPathComponent(Self.homeCanary)
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return [
            "HOME": home.path, "X": Self.secretCanary, "MOYA_TARGETS_PATH": sandbox.path("targets"), "LIT2_KEY": "k",
            "LIT3_KEY": "k"
        ]
    }

    func assertNoCanary(_ text: String, _ place: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(text.contains(Self.homeCanary), "HOME was read into \(place):\n\(text)", file: file, line: line)
        XCTAssertFalse(text.contains(Self.secretCanary), "X was read into \(place):\n\(text)", file: file, line: line)
    }

    // MARK: - Item 3: `${...}` from a spec stays literal

    /// Every field of a spec that reaches the target file holds `${HOME}` and `${secret:X}`.
    func literalSpec(swagger: Bool) -> String {
        let port = server.port
        let servers =
            swagger
            ? """
            swagger: "2.0"
            info: {title: "Lit ${HOME}", version: "${secret:X}", description: "${HOME}"}
            schemes: [http]
            host: "127.0.0.1:\(port)"
            basePath: "/anything/${HOME}/${secret:X}"
            securityDefinitions:
              key: {type: apiKey, in: header, name: X-Key}
              cc: {type: oauth2, flow: application, tokenUrl: "https://a.example/${HOME}", scopes: {}}
            security: [{key: []}]
            """
            : """
            openapi: 3.0.3
            info: {title: "Lit ${HOME}", version: "${secret:X}", description: "${HOME}"}
            servers:
              - url: "http://127.0.0.1:\(port)/anything/${HOME}/{v}"
                description: "${HOME}"
                variables: {v: {default: "${secret:X}"}}
              - {url: "/rel/${HOME}/${secret:X}", description: relative}
            components:
              securitySchemes:
                key: {type: apiKey, in: header, name: X-Key}
                cc: {type: oauth2, flows: {clientCredentials: {tokenUrl: "https://a.example/${HOME}", scopes: {}}}}
            security: [{key: [], cc: ["${HOME}"]}]
            """
        let body =
            swagger
            ? """
                    - in: body
                      name: payload
                      required: true
                      schema:
                        type: object
                        required: [note, meta]
                        properties:
                          note: {type: string, example: "${HOME}", default: "${secret:X}"}
                          meta: {type: object, properties: {a: {type: string, example: "${secret:X}"}}}
                  responses:
                    '200':
                      description: "${HOME}"
                      examples: {application/json: {home: "${HOME}", secret: "${secret:X}", "${HOME}": 1}}
            """
            : """
                  requestBody:
                    required: true
                    content:
                      application/json:
                        schema:
                          type: object
                          required: [note, meta]
                          properties:
                            note: {type: string, example: "${HOME}", default: "${secret:X}"}
                            meta: {type: object, properties: {a: {type: string, example: "${secret:X}"}}}
                  responses:
                    '200':
                      description: "${HOME}"
                      content:
                        application/json: {example: {home: "${HOME}", secret: "${secret:X}", "${HOME}": 1}}
                    '404':
                      description: x
                      content:
                        text/plain: {example: "${HOME} ${secret:X}"}
            """
        let headerParameter =
            swagger
            ? #"- {name: X-Trace, in: header, required: true, type: string, default: "${HOME}", description: "${secret:X}"}"#
            : #"- {name: X-Trace, in: header, required: true, schema: {type: string, default: "${HOME}"}, description: "${secret:X}"}"#
        let queryParameter =
            swagger
            ? #"- {name: q, in: query, type: string, enum: ["${HOME}", "${secret:X}"], x-example: "${secret:X}"}"#
            : #"- {name: q, in: query, schema: {type: string, enum: ["${HOME}", "${secret:X}"]}, example: "${secret:X}"}"#
        let pathParameter =
            swagger
            ? #"- {name: id, in: path, required: true, type: string, x-example: "${HOME}"}"#
            : #"- {name: id, in: path, required: true, schema: {type: string}, example: "${HOME}"}"#
        let formOperation =
            swagger
            ? """
              /form:
                post:
                  operationId: form
                  consumes: ["multipart/form-data"]
                  parameters:
                    - {name: "${HOME}", in: formData, type: string, required: true, x-example: "${secret:X}"}
                  responses: {'201': {description: ok}}
            """
            : """
              /form:
                post:
                  operationId: form
                  requestBody:
                    content:
                      multipart/form-data:
                        schema: {type: object, required: ["${HOME}"], properties: {"${HOME}": {type: string, example: "${secret:X}"}}}
                        encoding: {"${HOME}": {contentType: "text/plain; x=${HOME}"}}
                  responses: {'201': {description: ok}}
              /text:
                put:
                  operationId: text
                  requestBody:
                    content:
                      "text/plain; charset=${HOME}": {example: "${secret:X}"}
                  responses: {'204': {description: ok}}
            """
        return """
            \(servers)
            paths:
              "/things/${HOME}/{id}/${secret:X}":
                post:
                  operationId: make
                  summary: "${HOME} ${secret:X}"
                  parameters:
                    \(pathParameter)
                    \(queryParameter)
                    \(headerParameter)
            \(body)
            \(formOperation)
            """
    }

    func testVariableReferencesInEverySpecFieldStayLiteralThroughEveryRequest() throws {
        for swagger in [false, true] {
            let name = swagger ? "lit2" : "lit3"
            try sandbox.write("\(name).yaml", literalSpec(swagger: swagger))
            let imported = try sandbox.run(
                ["import", "openapi", "\(name).yaml", "--api", name], environment: canaryEnvironment)
            XCTAssertEqual(imported.status, 0, imported.stderr)
            let text = try String(contentsOfFile: sandbox.path("targets/\(name).yaml"), encoding: .utf8)
            assertNoCanary(text, "the target file")

            // Every request the file can make, live, with the canaries set.
            let before = server.receivedRequests.count
            let live = try sandbox.run(["check", name, "--live", "--include-unsafe"], environment: canaryEnvironment)
            assertNoCanary(live.stdout + live.stderr, "check --live")
            let received = Array(server.receivedRequests.dropFirst(before))
            XCTAssertEqual(received.count, swagger ? 2 : 3, "\(name): every case was sent: \(live.stderr)")
            for request in received {
                assertNoCanary(String(decoding: request.rawHead + request.body, as: UTF8.self), "a request")
            }
            // The spec's text arrived as written (percent-escaped in the URL).
            let make = try XCTUnwrap(
                received.first { $0.method == "POST" && $0.target.contains("things") }, "\(received.map(\.target))")
            XCTAssertTrue(
                make.target.hasPrefix("/anything/%24%7BHOME%7D/") || make.target.hasPrefix("/anything/$%7BHOME%7D/")
                    || make.target.hasPrefix("/anything/${HOME}/"), make.target)
            // In a path, `{HOME}` is OpenAPI's placeholder: a value (its example `string`), after a literal `$`.
            XCTAssertTrue(
                make.target.contains("/things/%24string/%24%7BHOME%7D/%24string?q=%24%7Bsecret%3AX%7D"), make.target)
            XCTAssertEqual(make.headers.first { $0.name == "X-Trace" }?.value, "${HOME}")
            XCTAssertEqual(
                String(decoding: make.body, as: UTF8.self), #"{"note":"${HOME}","meta":{"a":"${secret:X}"}}"#)
            let form = try XCTUnwrap(received.first { $0.target.hasSuffix("/form") })
            XCTAssertTrue(
                String(decoding: form.body, as: UTF8.self).contains(#"name="${HOME}""#),
                String(decoding: form.body, as: UTF8.self))

            // The samples answer the spec's text as written.
            let values = ["--id", "x", "--HOME", "h", "--secret_X", "s"]
            let stubbed = try sandbox.run(["call", name, "make", "--stub"] + values, environment: canaryEnvironment)
            XCTAssertEqual(stubbed.status, 0, stubbed.stderr)
            XCTAssertEqual(stubbed.stdout, #"{"home":"${HOME}","secret":"${secret:X}","${HOME}":1}"#)
            // And the curl command is the same request, without the canaries.
            let curl = try sandbox.run(
                ["curl", name, "make", "--q", "${HOME}"] + values, environment: canaryEnvironment)
            XCTAssertEqual(curl.status, 0, curl.stderr)
            assertNoCanary(curl.stdout, "the curl command")
            XCTAssertTrue(curl.stdout.contains("X-Trace: ${HOME}"), curl.stdout)
        }
        let text404 = try sandbox.run(
            ["call", "lit3", "make", "--id", "x", "--HOME", "h", "--secret_X", "s", "--stub", "--sample", "notFound"],
            environment: canaryEnvironment)
        XCTAssertEqual(text404.stdout, "${HOME} ${secret:X}")
        // A relative server: the base URL's variable, then the spec's path percent-escaped.
        let relative = try sandbox.run(
            ["curl", "lit3", "text", "t", "--env", "relative"],
            environment: canaryEnvironment.merging(
                ["LIT3_BASE_URL": "http://127.0.0.1:\(server.port)"]) { _, new in new })
        XCTAssertEqual(relative.status, 0, relative.stderr)
        XCTAssertTrue(
            relative.stdout.contains("'http://127.0.0.1:\(server.port)/rel/%24%7BHOME%7D/%24%7Bsecret:X%7D/text'"),
            relative.stdout)
    }

    func testASwaggerBasePathAndHostNeverReadTheEnvironment() throws {
        try sandbox.write(
            "base.yaml",
            """
            swagger: "2.0"
            info: {title: Base, version: "1"}
            schemes: [http]
            host: "127.0.0.1:\(server.port)"
            basePath: "/anything/v1/${MOYA_RT_CANARY}/${secret:MY_TOKEN}"
            paths:
              /a: {get: {operationId: a, responses: {'200': {description: ok}}}}
            """)
        let imported = try sandbox.run(["import", "openapi", "base.yaml"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let text = try String(contentsOfFile: sandbox.path("targets/base.yaml"), encoding: .utf8)
        XCTAssertTrue(
            text.contains(
                #"baseURL: "http://127.0.0.1:\#(server.port)/anything/v1/%24%7BMOYA_RT_CANARY%7D/%24%7Bsecret:MY_TOKEN%7D""#
            ), text)
        let called = try sandbox.run(
            ["call", "base", "a"], environment: ["MOYA_RT_CANARY": "rt-canary", "MY_TOKEN": "tok-canary"])
        XCTAssertEqual(called.status, 0, called.stderr)
        XCTAssertEqual(
            server.receivedRequests.last?.target, "/anything/v1/%24%7BMOYA_RT_CANARY%7D/%24%7Bsecret:MY_TOKEN%7D/a")

        // A host that is not one (it carries a path or a reference) is not the base URL.
        try sandbox.write(
            "host.yaml",
            """
            swagger: "2.0"
            info: {title: Host, version: "1"}
            host: "${HOME}/x"
            paths:
              /a: {get: {operationId: a, responses: {'200': {description: ok}}}}
            """)
        let host = try sandbox.run(["import", "openapi", "host.yaml", "-o", "-"])
        XCTAssertEqual(host.status, 0, host.stderr)
        XCTAssertTrue(host.stdout.contains(#"baseURL: "${MOYA_HOST_BASE_URL:-http://localhost}""#), host.stdout)
        XCTAssertTrue(host.stderr.contains("import: api: host '${HOME}/x' is not a host name"), host.stderr)
    }

    // MARK: - Item 6: refusals are 65 with the place

    func testARelativeServerURLWithASpaceIsPercentEscapedAndCalls() throws {
        try sandbox.write(
            "space.yaml",
            """
            openapi: 3.0.0
            info: {title: Space, version: "1"}
            servers: [{url: "/any thing"}]
            paths:
              /x: {get: {operationId: x, responses: {'200': {description: ok}}}}
            """)
        let imported = try sandbox.run(["import", "openapi", "space.yaml"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let text = try String(contentsOfFile: sandbox.path("targets/space.yaml"), encoding: .utf8)
        XCTAssertTrue(text.contains(#"baseURL: "${MOYA_SPACE_BASE_URL:-http://localhost}/any%20thing""#), text)
        let called = try sandbox.run(
            ["call", "space", "x"], environment: ["MOYA_SPACE_BASE_URL": "http://127.0.0.1:\(server.port)/anything"])
        XCTAssertEqual(called.status, 0, called.stderr)
        XCTAssertEqual(server.receivedRequests.last?.target, "/anything/any%20thing/x")
    }

    func testATokenURLOnAHostStartingWith127IsNotLoopback() throws {
        for (host, isClientCredentials) in [
            ("127.evil.example", false), ("127.0.0.1.evil.example", false), ("127.0.0.1:9", true),
            ("localhost:9", true), ("[::1]:9", true), ("127.1", false)
        ] {
            try sandbox.write(
                "t.yaml",
                """
                openapi: 3.0.0
                info: {title: T, version: "1"}
                servers: [{url: "https://api.example"}]
                security: [{cc: []}]
                components:
                  securitySchemes:
                    cc: {type: oauth2, flows: {clientCredentials: {tokenUrl: "http://\(host)/token", scopes: {}}}}
                paths:
                  /a: {get: {operationId: a, responses: {'200': {description: ok}}}}
                """)
            let result = try sandbox.run(["import", "openapi", "t.yaml", "-o", "-"])
            XCTAssertEqual(result.status, 0, "\(host): \(result.stderr)")
            XCTAssertEqual(result.stdout.contains("type: oauth2"), isClientCredentials, "\(host):\n\(result.stdout)")
            XCTAssertEqual(result.stdout.contains("type: bearer"), !isClientCredentials, "\(host):\n\(result.stdout)")
        }
    }

    func testLineBreaksInAMultipartNameOrAMediaTypeExit65WithThePlace() throws {
        try sandbox.write(
            "crlf.yaml",
            """
            openapi: 3.0.0
            info: {title: Crlf, version: "1"}
            paths:
              /a:
                post:
                  requestBody:
                    content:
                      multipart/form-data:
                        schema: {type: object, properties: {"a\\r\\nX-Injected: 1": {type: string}}}
                  responses: {'200': {description: ok}}
              /b:
                post:
                  requestBody:
                    content:
                      "text/plain\\r\\nX-Injected: 1": {schema: {type: string}}
                  responses: {'200': {description: ok}}
              /c:
                get:
                  responses:
                    '200':
                      description: ok
                      content: {"application/json\\n": {example: {}}}
            """)
        let result = try sandbox.run(["import", "openapi", "crlf.yaml"])
        // Each at its place: the line and column of the offending member's value, and its pointer.
        assertRun(
            result, status: 65, stdout: "",
            stderr: #"""
                crlf.yaml:9:71: error: multipart form field 'a\r\nX-Injected: 1' holds a line break or NUL: a part's name is sent in a header line, which cannot hold one (at #/paths/~1a/post/requestBody/content/multipart~1form-data/schema/properties/a\r\nX-Injected: 1)
                                schema: {type: object, properties: {"a\r\nX-Injected: 1": {type: string}}}
                                                                                          ^
                crlf.yaml:15:42: error: media type 'text/plain\r\nX-Injected: 1' holds a control character or a line break: it is not a media type (at #/paths/~1b/post/requestBody/content/text~1plain\r\nX-Injected: 1)
                              "text/plain\r\nX-Injected: 1": {schema: {type: string}}
                                                             ^
                crlf.yaml:22:43: error: media type 'application/json\n' holds a control character or a line break: it is not a media type (at #/paths/~1c/get/responses/200/content/application~1json\n)
                              content: {"application/json\n": {example: {}}}
                                                              ^
                moya-cli: error: crlf.yaml is not a valid OpenAPI description (3 problems)

                """#)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.path("targets")), "nothing written")
    }

    func testAFileOverTheLoadersLimitIsRefusedWith65() throws {
        // A valid spec of about 20 MiB whose target file would be over 16 MiB: long descriptions
        // of long parameters, each kept in the target file.
        var spec = "openapi: 3.0.0\ninfo: {title: Huge, version: \"1\"}\npaths:\n"
        let description = String(repeating: "d", count: 150)
        var index = 0
        while spec.utf8.count < 20 << 20 {
            spec += "  /p\(index):\n    get:\n      operationId: p\(index)\n      parameters:\n"
            for parameter in 0..<20 {
                spec +=
                    "        - {name: q\(parameter), in: query, schema: {type: string, example: e\(parameter)}, description: \(description)}\n"
            }
            spec += "      responses: {'200': {description: ok}}\n"
            index += 1
        }
        try sandbox.write("huge.yaml", spec)
        // A debug binary on a busy machine takes a minute over 20 MiB: the timeout only guards a hang.
        let result = try CLIRunner.run(
            ["import", "openapi", "huge.yaml"], environment: ["HOME": sandbox.home.path],
            currentDirectory: sandbox.root, timeout: 600)
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(
            result.stderr.hasPrefix("moya-cli: error: the target file made from huge.yaml would be "), result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "over the 16 MiB and 100000 cases a target file may have; nothing was written: import part of it with --only TAG or --only /PATH-GLOB\n"
            ),
            result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.path("targets")), "nothing written")
        // Part of it imports.
        let part = try CLIRunner.run(
            ["import", "openapi", "huge.yaml", "--only", "/p1*"], environment: ["HOME": sandbox.home.path],
            currentDirectory: sandbox.root, timeout: 600)
        XCTAssertEqual(part.status, 0, part.stderr)
    }

    // MARK: - Item 9: variable names from the user's name

    static let awsSpec = """
        openapi: 3.0.0
        info: {title: AWS, version: "1"}
        servers: [{url: "https://aws.example"}]
        security: [{secretAccessKey: []}]
        components:
          securitySchemes:
            secretAccessKey: {type: apiKey, in: header, name: X-Amz-Key}
            session: {type: http, scheme: bearer}
        paths:
          /a: {get: {operationId: a, responses: {'200': {description: ok}}}}
        """

    func testVariableNamesComeFromTheNameTheUserChoseNeverFromTheSpecAlone() throws {
        try sandbox.write("aws.yaml", Self.awsSpec)
        let fromTitle = try sandbox.run(["import", "openapi", "aws.yaml", "-o", "-"])
        XCTAssertEqual(fromTitle.status, 0, fromTitle.stderr)
        XCTAssertFalse(fromTitle.stdout.contains("${secret:AWS_"), fromTitle.stdout)
        XCTAssertTrue(fromTitle.stdout.contains(#"key: "${secret:MOYA_AWS_SECRET_ACCESS_KEY}""#), fromTitle.stdout)
        XCTAssertTrue(
            fromTitle.stderr.contains(
                "import: credentials come from $MOYA_AWS_SECRET_ACCESS_KEY, $MOYA_AWS_SESSION_TOKEN; a file outside your trusted folders "
                    + "reads them only when you allow it: MOYA_ALLOW_ENV=MOYA_AWS_SECRET_ACCESS_KEY:MOYA_AWS_SESSION_TOKEN\n"
            ), fromTitle.stderr)

        let named = try sandbox.run(["import", "openapi", "aws.yaml", "-o", "-", "--api", "pet-store"])
        XCTAssertTrue(named.stdout.contains(#"key: "${secret:PET_STORE_SECRET_ACCESS_KEY}""#), named.stdout)
        XCTAssertFalse(named.stdout.contains("AWS_"), named.stdout)

        // The output file's name is a name the user chose too.
        let byFile = try sandbox.run(["import", "openapi", "aws.yaml", "-o", "targets/billing.yaml"])
        XCTAssertEqual(byFile.status, 0, byFile.stderr)
        let text = try String(contentsOfFile: sandbox.path("targets/billing.yaml"), encoding: .utf8)
        XCTAssertTrue(text.contains("\napi: billing\n"), text)
        XCTAssertTrue(text.contains(#""${secret:BILLING_SECRET_ACCESS_KEY}""#), text)

        // Only the user's own choice names the well-known variable.
        let aws = try sandbox.run(["import", "openapi", "aws.yaml", "-o", "-", "--api", "aws"])
        XCTAssertTrue(aws.stdout.contains(#"key: "${secret:AWS_SECRET_ACCESS_KEY}""#), aws.stdout)
    }

    // MARK: - Item 9: JSON specs are read as JSON

    func testAJSONSpecWithAKeyOf5000CharactersImports() throws {
        let key = String(repeating: "k", count: 5000)
        try sandbox.write(
            "long.json",
            #"""
            {"openapi": "3.0.0", "info": {"title": "Long", "version": "1"},
             "paths": {"/a": {"get": {"operationId": "a", "responses": {"200": {"description": "ok",
               "content": {"application/json": {"example": {"\#(key)": 12345678901234567890, "é\u00e9\ud83d\ude00": "\u0041"}}}}}}}}}
            """#)
        let imported = try sandbox.run(["import", "openapi", "long.json"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let stubbed = try sandbox.run(["call", "long", "a", "--stub"])
        XCTAssertEqual(stubbed.status, 0, stubbed.stderr)
        XCTAssertEqual(stubbed.stdout, #"{"\#(key)":12345678901234567890,"éé😀":"A"}"#)
    }

    func testHostileJSONSpecsExit65WithTheirPlace() throws {
        let cases: [(name: String, text: String, error: String)] = [
            (
                "deep.json", #"{"openapi": "3.0.0", "x": "# + String(repeating: "[", count: 100_000),
                "deep.json:1:282: error: objects and arrays nest more than 256 deep"
            ),
            (
                "open.json", #"{"openapi": "3.0.0", "paths": {"#,
                "open.json:1:32: error: the document ends early: expected a member name in double quotes"
            ),
            (
                "dup.json", "{\"openapi\": \"3.0.0\",\n \"openapi\": \"3.1.0\"}",
                "dup.json:2:2: error: duplicate key 'openapi'"
            ),
            (
                "ctrl.json", "{\"openapi\": \"3.0\u{01}\"}",
                "ctrl.json:1:17: error: a control character in a string must be escaped (\\n, \\t, \\u0000)"
            ),
            (
                "surrogate.json", #"{"openapi": "\ud800"}"#,
                "surrogate.json:1:20: error: a \\u escape is half of a surrogate pair without the other half"
            ),
            ("number.json", #"{"openapi": 01}"#, "number.json:1:13: error: '01' is not a JSON number"),
            (
                "trailing.json", #"{"openapi": "3.0.0"} x"#,
                "trailing.json:1:22: error: unexpected text after the JSON document"
            )
        ]
        for item in cases {
            try sandbox.write(item.name, item.text)
            let result = try sandbox.run(["import", "openapi", item.name])
            XCTAssertEqual(result.status, 65, "\(item.name): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix(item.error + "\n"), "\(item.name): \(result.stderr)")
            XCTAssertTrue(
                result.stderr.hasSuffix("moya-cli: error: \(item.name) is not a readable YAML or JSON document\n"),
                result.stderr)
        }
    }

    // MARK: - Item 5: numbers keep their digits through import, stub and check --live

    func testSpecNumbersAreStubbedAsWrittenAndMatchTheLiveServer() throws {
        let example = #"{"orderId":12345678901234567890,"delta":-0,"big":1e400,"price":2.50}"#
        try sandbox.write(
            "orders.yaml",
            """
            openapi: 3.0.0
            info: {title: Orders, version: "1"}
            servers: [{url: "http://127.0.0.1:\(server.port)"}]
            paths:
              /status/200:
                get:
                  operationId: order
                  parameters:
                    - {name: body, in: query, required: true, schema: {type: string}, example: '\(example)'}
                    - {name: header, in: query, required: true, schema: {type: string}, example: "Content-Type:application/json"}
                  responses:
                    '200':
                      description: the order
                      content:
                        application/json:
                          example: {orderId: 12345678901234567890, delta: -0, big: 1e400, price: 2.50}
            """)
        let imported = try sandbox.run(["import", "openapi", "orders.yaml"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let stubbed = try sandbox.run(["call", "orders", "order", "b", "h", "--stub"])
        XCTAssertEqual(stubbed.status, 0, stubbed.stderr)
        XCTAssertEqual(stubbed.stdout, example)
        // The server answers exactly the spec's example: no drift.
        let live = try sandbox.run(["check", "orders", "--live", "--strict"])
        XCTAssertEqual(live.status, 0, live.stdout + live.stderr)
        XCTAssertTrue(live.stderr.contains("check (live): 1 passed, 0 failed"), live.stderr)
        XCTAssertFalse((live.stdout + live.stderr).contains("drift"), live.stdout + live.stderr)
    }
}
