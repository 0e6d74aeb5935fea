import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 14: `moya-cli import openapi`, round trip through the binary — import, then validate,
/// list, call --stub and check, offline and live against the loopback server.
final class ImportCommandTests: XCTestCase {
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
    }

    static var fixtures: URL {
        CLIRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/openapi")
    }

    func testPetstoreRoundTripWorksOfflineOnDayOne() throws {
        let spec = Self.fixtures.appendingPathComponent("petstore.yaml").path
        let imported = try sandbox.run(["import", "openapi", spec])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(
            imported.stderr.contains(
                "import: wrote targets/pet-store.yaml: API 'pet-store', 9 cases from 9 operations"), imported.stderr)
        XCTAssertTrue(
            imported.stderr.contains("import: listPets: the default response has no status: no sample for it"),
            imported.stderr)
        XCTAssertTrue(
            imported.stderr.contains("import: credentials come from $MOYA_PET_STORE_BEARER_AUTH_TOKEN"), imported.stderr
        )
        XCTAssertTrue(FileManager.default.fileExists(atPath: sandbox.path("targets/samples/moya-import-upload.txt")))

        let validated = try sandbox.run(["validate"])
        XCTAssertEqual(validated.status, 0, validated.stderr)
        XCTAssertTrue(
            validated.stdout.contains("targets/pet-store.yaml: ok (API 'pet-store', 9 cases)"), validated.stdout)
        let listed = try sandbox.run(["list", "pet-store"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("updatePetWithForm"))
        let stubbed = try sandbox.run(["call", "pet-store", "createPet", "Rex", "--stub"])
        XCTAssertEqual(stubbed.status, 0, stubbed.stderr)
        XCTAssertEqual(stubbed.stdout, #"{"id":10,"name":"Rex {the dog}","price":12.50}"#)
        let missing = try sandbox.run(["call", "pet-store", "showPetById", "42", "--stub", "--sample", "notFound"])
        XCTAssertEqual(missing.status, 4, "the 404 sample fails validation [200]")
        let checked = try sandbox.run(["check", "pet-store"])
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
        XCTAssertTrue(checked.stderr.contains("check (offline): 9 passed, 0 failed"), checked.stderr)
    }

    func testImportedFileChecksLiveAgainstTheServerItDescribes() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        try sandbox.write(
            "echo.yaml",
            """
            openapi: 3.1.0
            info: {title: Echo, version: "1"}
            servers: [{url: "http://127.0.0.1:\(server.port)"}]
            paths:
              /get:
                get:
                  operationId: echo
                  parameters: [{name: q, in: query, required: true, schema: {type: string}, example: moya}]
                  responses:
                    '200':
                      description: the request
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              args: {type: array, items: {type: array, items: {type: string}}}
                              url: {type: string}
              /anything/{id}:
                post:
                  operationId: createThing
                  parameters: [{name: id, in: path, required: true, schema: {type: integer}, example: 7}]
                  requestBody:
                    required: true
                    content:
                      application/json:
                        schema:
                          type: object
                          required: [name]
                          properties: {name: {type: string, example: box}, count: {type: integer}}
                  responses: {'200': {description: echoed}}
              /status/404:
                get:
                  operationId: missing
                  responses: {'404': {description: not found}}
              /json:
                get:
                  operationId: slideshow
                  responses:
                    '200':
                      description: a document
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              slideshow:
                                type: object
                                properties: {author: {type: string}, title: {type: string}}
            """)
        let imported = try sandbox.run(["import", "openapi", "echo.yaml"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let live = try sandbox.run(["check", "echo", "--live", "--include-unsafe"])
        XCTAssertEqual(live.status, 0, live.stdout + live.stderr)
        XCTAssertTrue(live.stderr.contains("check (live): 4 passed, 0 failed"), live.stderr)
        XCTAssertEqual(server.receivedRequests.filter { $0.path == "/anything/7" }.count, 1)
        let request = try XCTUnwrap(server.receivedRequests.first { $0.path == "/anything/7" })
        XCTAssertEqual(String(decoding: request.body, as: UTF8.self), #"{"name":"box"}"#)
        let called = try sandbox.run(["call", "echo", "echo", "hello"])
        XCTAssertEqual(called.status, 0, called.stderr)
        XCTAssertTrue(called.stdout.contains(#""args":[["q","hello"]]"#), called.stdout)
    }

    func testAnOAuth2ClientCredentialsSchemeGetsItsTokenFromTheTokenEndpoint() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        try sandbox.write(
            "oauth.yaml",
            """
            openapi: 3.0.3
            info: {title: Guarded, version: "1"}
            servers: [{url: "http://127.0.0.1:\(server.port)"}]
            security: [{cc: [read]}]
            components:
              securitySchemes:
                cc:
                  type: oauth2
                  flows:
                    clientCredentials:
                      tokenUrl: "http://127.0.0.1:\(server.port)/oauth/token"
                      scopes: {read: Read things}
                code:
                  type: oauth2
                  flows:
                    authorizationCode: {authorizationUrl: "https://a.example/auth", tokenUrl: "https://a.example/token", scopes: {}}
            paths:
              /oauth/protected:
                get:
                  operationId: protected
                  responses: {'200': {description: ok}}
            """)
        let imported = try sandbox.run(["import", "openapi", "oauth.yaml"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let text = try String(contentsOfFile: sandbox.path("targets/guarded.yaml"), encoding: .utf8)
        XCTAssertTrue(text.contains(#"clientSecret: "${secret:MOYA_GUARDED_CC_CLIENT_SECRET}""#), text)
        XCTAssertTrue(text.contains("scopes: [read]"), text)
        XCTAssertTrue(
            imported.stderr.contains("security scheme 'code' (oauth2) is sent as a bearer token"), imported.stderr)
        let environment = [
            "MOYA_GUARDED_CC_CLIENT_ID": "moya-client", "MOYA_GUARDED_CC_CLIENT_SECRET": "client-s3cret-value",
            "XDG_CACHE_HOME": sandbox.path("cache")
        ]
        let called = try sandbox.run(["call", "guarded", "protected", "-v"], environment: environment)
        XCTAssertEqual(called.status, 0, called.stderr)
        XCTAssertFalse(called.stderr.contains("client-s3cret-value"), called.stderr)
        XCTAssertEqual(server.receivedRequests.filter { $0.path == "/oauth/token" }.count, 1)
        XCTAssertEqual(try sandbox.run(["check", "guarded"]).status, 0, "offline: no token needed")
    }

    func testStandardInputAndOutput() throws {
        let spec = try Data(contentsOf: Self.fixtures.appendingPathComponent("swagger2.json"))
        let result = try CLIRunner.run(
            ["import", "openapi", "-", "--output", "-", "--api", "users"], currentDirectory: sandbox.root, stdin: spec)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("# Imported by moya-cli import openapi from 'Users'"), result.stdout)
        XCTAssertTrue(result.stdout.contains("\napi: users\n"))
        XCTAssertTrue(result.stderr.contains("import: wrote standard output"), result.stderr)
        // Without a file beside it, the upload case has no example: said, not hidden.
        XCTAssertTrue(result.stderr.contains("has no example: check reports the case as not covered"), result.stderr)
        try sandbox.write("targets/users.yaml", result.stdout)
        XCTAssertEqual(try sandbox.run(["validate", "targets/users.yaml"]).status, 0)
    }

    func testAnExistingFileIsReplacedOnlyWithForce() throws {
        let spec = Self.fixtures.appendingPathComponent("swagger2.json").path
        XCTAssertEqual(try sandbox.run(["import", "openapi", spec, "-o", "targets/u.yaml"]).status, 0)
        try sandbox.write("targets/u.yaml", "mine\n")
        let refused = try sandbox.run(["import", "openapi", spec, "-o", "targets/u.yaml"])
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("targets/u.yaml exists; give --force to replace it"), refused.stderr)
        XCTAssertEqual(try String(contentsOfFile: sandbox.path("targets/u.yaml"), encoding: .utf8), "mine\n")
        XCTAssertEqual(try sandbox.run(["import", "openapi", spec, "-o", "targets/u.yaml", "--force"]).status, 0)
        // The output file's name is the API's name the user chose.
        XCTAssertTrue(
            try String(contentsOfFile: sandbox.path("targets/u.yaml"), encoding: .utf8).contains("\napi: u\n"))
    }

    func testInvalidSpecsExit65WithTheirPlace() throws {
        try sandbox.write(
            "bad.yaml",
            """
            openapi: 3.0.0
            info: {title: Bad, version: "1"}
            paths:
              /users:
                get:
                  parameters: [{in: query}]
                  responses: {'200': {description: ok}}
            """)
        let result = try sandbox.run(["import", "openapi", "bad.yaml"])
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(
            result.stderr.contains(
                "bad.yaml:6:20: error: parameter has no 'name' or no 'in' (at #/paths/~1users/get/parameters/0)"),
            result.stderr)
        XCTAssertTrue(
            result.stderr.contains("moya-cli: error: bad.yaml is not a valid OpenAPI description (1 problem)"),
            result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.path("targets")), "nothing written")

        try sandbox.write("broken.json", #"{"openapi": "3.0.0", "paths": {"#)
        let broken = try sandbox.run(["import", "openapi", "broken.json"])
        XCTAssertEqual(broken.status, 65)
        XCTAssertTrue(
            broken.stderr.contains(
                "broken.json:1:32: error: the document ends early: expected a member name in double quotes\n"),
            broken.stderr)
    }

    func testUsageErrorsExit64() throws {
        let spec = Self.fixtures.appendingPathComponent("petstore.yaml").path
        let none = try sandbox.run(["import", "openapi", spec, "--only", "nothing"])
        XCTAssertEqual(none.status, 64)
        XCTAssertTrue(none.stderr.contains("--only nothing matches no operation"), none.stderr)
        XCTAssertEqual(try sandbox.run(["import", "openapi", spec, "--api", "9lives"]).status, 64)
        XCTAssertEqual(try sandbox.run(["import", "openapi", "missing.yaml"]).status, 64)
        XCTAssertEqual(try sandbox.run(["import", "openapi", "."]).status, 64)
        let unknown = try sandbox.run(["import", "swagger", spec])
        XCTAssertEqual(unknown.status, 64, unknown.stderr)
    }

    func testAThousandOperationSpecRoundTrips() throws {
        var paths = ""
        for index in 0..<1000 {
            paths += """
                  /items\(index)/{id}:
                    get:
                      operationId: getItem\(index)
                      tags: [group\(index % 10)]
                      parameters:
                        - {name: id, in: path, required: true, schema: {type: integer}}
                        - {name: expand, in: query, schema: {type: array, items: {type: string, enum: [owner, tags]}}}
                      responses:
                        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
                        '404': {description: missing}
                    put:
                      operationId: putItem\(index)
                      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
                      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
                      responses: {'204': {description: stored}}

                """
        }
        try sandbox.write(
            "big.yaml",
            """
            openapi: 3.0.3
            info: {title: Big, version: "1"}
            servers: [{url: "https://big.example/api"}]
            paths:
            \(paths)
            components:
              schemas:
                Item:
                  type: object
                  required: [name]
                  properties:
                    id: {type: integer, readOnly: true}
                    name: {type: string}
                    price: {type: number}
                    tags: {type: array, items: {type: string}}
            """)
        let imported = try sandbox.run(["import", "openapi", "big.yaml"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stderr.contains("2000 cases from 2000 operations"), imported.stderr)
        let checked = try sandbox.run(["check", "big"])
        XCTAssertEqual(checked.status, 0, String(checked.stderr.suffix(2000)))
        XCTAssertTrue(
            checked.stderr.contains("check (offline): 2000 passed, 0 failed"), String(checked.stderr.suffix(300)))
        let tagged = try sandbox.run(["import", "openapi", "big.yaml", "--only", "group3", "-o", "-"])
        XCTAssertEqual(tagged.status, 0)
        XCTAssertTrue(tagged.stderr.contains("100 cases from 100 operations"), tagged.stderr)
    }

    func testASpecFromAPipeIsRead() throws {
        let fifo = sandbox.path("spec.fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let spec = try Data(contentsOf: Self.fixtures.appendingPathComponent("swagger2.json"))
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(spec)
                try? handle.close()
            }
        }
        writer.start()
        let result = try sandbox.run(["import", "openapi", fifo, "-o", "targets/users.yaml"])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testAFullDiskLeavesNothingAndExits74() throws {
        try XCTSkipUnless(getuid() == 0, "device nodes need root")
        let device = sandbox.path("full")
        XCTAssertEqual(mknod(device, S_IFCHR | 0o666, dev_t((1 << 8) | 7)), 0)
        let spec = Self.fixtures.appendingPathComponent("swagger2.json").path
        let result = try sandbox.run(["import", "openapi", spec, "-o", device])
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stderr.contains("moya-cli: error:"), result.stderr)
        // A device gets the file only: no example upload is made beside it.
        let null = sandbox.path("null")
        XCTAssertEqual(mknod(null, S_IFCHR | 0o666, dev_t((1 << 8) | 3)), 0)
        let petstore = Self.fixtures.appendingPathComponent("petstore.yaml").path
        let toDevice = try sandbox.run(["import", "openapi", petstore, "-o", null])
        XCTAssertEqual(toDevice.status, 0, toDevice.stderr)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: sandbox.path("samples")), "no samples folder beside the device")
    }

    func testTerminalEscapesFromTheSpecNeverReachStderr() throws {
        try sandbox.write(
            "evil.yaml",
            """
            openapi: 3.0.0
            info: {title: Evil, version: "1"}
            servers: [{url: "https://example.com"}]
            paths:
              /a:
                get:
                  operationId: a
                  parameters: [{name: "\\e]0;pwned\\a", in: cookie, schema: {type: string}}]
                  responses: {'200': {description: ok}}
            """)
        let result = try sandbox.run(["import", "openapi", "evil.yaml"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("\u{1B}"), result.stderr)
        XCTAssertFalse(
            try String(contentsOfFile: sandbox.path("targets/evil.yaml"), encoding: .utf8).contains("\u{1B}"))
    }
}
