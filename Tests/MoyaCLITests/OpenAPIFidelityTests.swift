import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 29, "OpenAPI fidelity": each class of loss on a fixture of its own, imported by the
/// binary and sent to the loopback servers the fixture's `PORT_A` and `PORT_B` stand for.
final class OpenAPIFidelityTests: XCTestCase {
    var sandbox: Sandbox!
    var serverA: HTTPTestServer!
    var serverB: HTTPTestServer!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        serverA = try HTTPTestServer()
        serverB = try HTTPTestServer()
    }

    override func tearDown() {
        serverA.stop()
        serverB.stop()
    }

    /// Imports `Tests/Fixtures/openapi/fidelity/NAME` with the servers' ports in it; the result.
    private func importFixture(_ name: String, arguments: [String] = []) throws -> CLIResult {
        let fixture = CLIRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/openapi/fidelity/\(name)")
        let text = try String(contentsOf: fixture, encoding: .utf8)
            .replacingOccurrences(of: "PORT_A", with: String(serverA.port))
            .replacingOccurrences(of: "PORT_B", with: String(serverB.port))
        try sandbox.write(name, text)
        return try sandbox.run(["import", "openapi", name] + arguments)
    }

    private func targetText(_ api: String) throws -> String {
        try String(contentsOfFile: sandbox.path("targets/\(api).yaml"), encoding: .utf8)
    }

    // MARK: Item 2: positional order

    func testPositionalValuesArePathValuesThenRequiredThenOptional() throws {
        let imported = try importFixture("positional-order.yaml")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let listed = try sandbox.run(["list", "positional-order", "--format", "json"])
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: listed.stdoutData) as? [String: Any])
        let cases = try XCTUnwrap(document["cases"] as? [[String: Any]])
        let order = Dictionary(
            uniqueKeysWithValues: cases.map {
                (
                    $0["name"] as? String ?? "",
                    ($0["values"] as? [[String: Any]] ?? []).map { $0["name"] as? String ?? "" }
                )
            })
        XCTAssertEqual(order["getCard"], ["account", "card", "expand", "verbose"])
        XCTAssertEqual(order["deletePet"], ["petId", "api_key"])
        XCTAssertEqual(
            order["createCharge"], ["amount", "currency", "Idempotency_Key", "description", "metadata_note", "settle"])

        let card = try sandbox.run(["call", "positional-order", "getCard", "acct_1", "ba_2"])
        XCTAssertEqual(card.status, 0, card.stderr)
        XCTAssertEqual(serverA.receivedRequests.last?.target, "/anything/accounts/acct_1/cards/ba_2?verbose=false")
        let deleted = try sandbox.run(["call", "positional-order", "deletePet", "3"])
        XCTAssertEqual(deleted.status, 0, deleted.stderr)
        XCTAssertEqual(serverA.receivedRequests.last?.target, "/anything/pets/3")
        XCTAssertNil(serverA.receivedRequests.last?.value(of: "api_key"))
        let charged = try sandbox.run(["call", "positional-order", "createCharge", "500", "eur", "--settle", "true"])
        XCTAssertEqual(charged.status, 0, charged.stderr)
        XCTAssertEqual(
            String(decoding: try XCTUnwrap(serverA.receivedRequests.last).body, as: UTF8.self),
            #"{"amount":500,"settle":true,"currency":"eur"}"#)
        // Named use is unchanged.
        let named = try sandbox.run(["call", "positional-order", "getCard", "--card", "c", "--account", "a"])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(serverA.receivedRequests.last?.target, "/anything/accounts/a/cards/c?verbose=false")
    }

    // MARK: Item 3: path and operation servers

    func testPathAndOperationServersAreTheCasesBaseURL() throws {
        let imported = try importFixture("operation-servers.yaml")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let text = try targetText("operation-servers")
        XCTAssertTrue(
            text.contains(
                "  listFiles:\n    baseURL: \"http://127.0.0.1:\(serverB.port)/anything\"\n    path: /files\n"), text)
        XCTAssertTrue(
            imported.stderr.contains("the operation's other 1 server(s) are left out: the case sends to the first"),
            imported.stderr)
        XCTAssertTrue(
            imported.stderr.contains("server URL has a user name or password: it is not the base URL"),
            imported.stderr)
        XCTAssertFalse(text.contains("user:pass"), text)

        for name in ["listItems", "listFiles", "uploadFile", "sameHost"] {
            let called = try sandbox.run(["call", "operation-servers", name])
            XCTAssertEqual(called.status, 0, "\(name): \(called.stderr)")
        }
        XCTAssertEqual(serverA.receivedRequests.map(\.target), ["/anything/items", "/anything/same"])
        XCTAssertEqual(
            serverB.receivedRequests.map { "\($0.method) \($0.target)" },
            ["GET /anything/files", "POST /anything/files"])
        let hostile = try sandbox.run(["curl", "operation-servers", "hostileServer"])
        XCTAssertEqual(hostile.status, 0, hostile.stderr)
        XCTAssertTrue(hostile.stdout.contains("'http://localhost/hostile'"), hostile.stdout)
    }

    func testHostileOperationServersNeverBecomeAHost() throws {
        let imported = try importFixture("hostile-servers.yaml")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertFalse(imported.stderr.utf8.contains(0x1B), imported.stderr)
        XCTAssertTrue(
            imported.stderr.contains(
                "import: fileScheme: server URL 'file:///etc/passwd' is not http or https: the base URL comes from ${MOYA_HOSTILE_SERVERS_BASE_URL}\n"
            ), imported.stderr)
        XCTAssertTrue(
            imported.stderr.contains(
                "import: variableDefault: server URL has a user name or password: it is not the base URL, which comes from ${MOYA_HOSTILE_SERVERS_BASE_URL}\n"
            ), imported.stderr)
        let text = try targetText("hostile-servers")
        let baseURLs = text.split(separator: "\n").filter { $0.hasPrefix("    baseURL:") }
        XCTAssertEqual(
            baseURLs,
            Array(repeating: #"    baseURL: "${MOYA_HOSTILE_SERVERS_BASE_URL:-http://localhost}""#, count: 3)
                + [#"    baseURL: "https://$${HOME}}.example""#])
        for (name, url) in [
            ("fileScheme", "http://localhost/a"), ("escapes", "http://localhost/b"),
            ("variableDefault", "http://localhost/c"), ("dollar", "https://$%7BHOME%7D.example/d")
        ] {
            let curl = try sandbox.run(["curl", "hostile-servers", name], environment: ["HOME": sandbox.path("home")])
            XCTAssertEqual(curl.status, 0, "\(name): \(curl.stderr)")
            XCTAssertTrue(curl.stdout.contains(url), "\(name): \(curl.stdout)")
        }
    }

    // MARK: Item 4: binary bodies

    func testBinaryBodiesAreFileValuesSentAsBytes() throws {
        let imported = try importFixture("binary-bodies.yaml")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let bytes: [UInt8] = [0x50, 0x4B, 0x03, 0x04, 0x00, 0xFF, 0x0A, 0x0D, 0x7B]
        try sandbox.write("asset.zip", bytes: bytes)
        let expectations = [
            ("uploadAsset", "POST", "/anything/assets", "application/octet-stream"),
            ("putBlob", "PUT", "/anything/blob", "application/octet-stream"),
            ("putAvatar", "PUT", "/anything/avatar", "image/png")
        ]
        for (name, method, target, contentType) in expectations {
            let called = try sandbox.run(["call", "binary-bodies", name, "./asset.zip"])
            XCTAssertEqual(called.status, 0, "\(name): \(called.stderr)")
            let request = try XCTUnwrap(serverA.receivedRequests.last)
            XCTAssertEqual("\(request.method) \(request.target)", "\(method) \(target)")
            XCTAssertEqual(request.value(of: "Content-Type"), contentType, name)
            XCTAssertEqual(Array(request.body), bytes, name)
        }
        // A JSON object under */* stays JSON.
        let note = try sandbox.run(["call", "binary-bodies", "addNote", "hello"])
        XCTAssertEqual(note.status, 0, note.stderr)
        let request = try XCTUnwrap(serverA.receivedRequests.last)
        XCTAssertEqual(String(decoding: request.body, as: UTF8.self), #"{"text":"hello"}"#)
        XCTAssertEqual(request.value(of: "Content-Type"), "application/json")
        // A missing file is the user's mistake, named.
        let missing = try sandbox.run(["call", "binary-bodies", "uploadAsset", "./absent.zip"])
        XCTAssertEqual(missing.status, 64, missing.stderr)
    }

    // MARK: Item 5: enums of every scalar type

    func testEnumsOfEveryScalarTypeAreKept() throws {
        let imported = try importFixture("scalar-enums.yaml")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let text = try targetText("scalar-enums")
        for line in [
            #"- state: {enum: ["", open, closed]}"#,
            "- priority: {type: int, enum: [10, 20, 30]}",
            "- weight: {type: double, enum: [0.5, 1.5]}",
            "- urgent: {type: bool, enum: [true]}",
            "- size: {type: int, enum: [5, 6], optional: true}"
        ] {
            XCTAssertTrue(text.contains(line), "\(line) in\n\(text)")
        }
        XCTAssertTrue(
            imported.stderr.contains("fileTicket: the default of 'level' does not fit its type: left out"),
            imported.stderr)
        XCTAssertTrue(
            imported.stderr.contains("fileTicket: the enum of 'tags''s elements is not kept: any int is accepted"),
            imported.stderr)

        let filed = try sandbox.run(["call", "scalar-enums", "fileTicket", "", "20", "1.5", "true"])
        XCTAssertEqual(filed.status, 0, filed.stderr)
        let request = try XCTUnwrap(serverA.receivedRequests.last)
        XCTAssertEqual(request.target, "/anything/tickets?state=")
        XCTAssertEqual(String(decoding: request.body, as: UTF8.self), #"{"priority":20,"weight":1.5,"urgent":true}"#)

        let notACase = try sandbox.run(["call", "scalar-enums", "fileTicket", "open", "25", "1.5", "true"])
        assertRun(
            notACase, status: 64, stdout: "",
            stderr: "moya-cli: error: '25' is not one of 10, 20, 30 for value 'priority'\n"
                + "usage: moya-cli call scalar-enums fileTicket <state> <priority> <weight> <urgent> [--level <1|2|3>] [--tags <[int]>] [--size <5|6>]\n"
        )
        let level = try sandbox.run(["call", "scalar-enums", "fileTicket", "open", "10", "0.5", "true", "--level", "4"])
        XCTAssertEqual(level.status, 64, level.stderr)
        XCTAssertEqual(serverA.receivedRequests.count, 1)
        let checked = try sandbox.run(["check", "scalar-enums"])
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
    }

    // MARK: Item 6: callbacks, links and webhooks

    func testCallbacksLinksAndWebhooksAreEachNotedOnce() throws {
        let imported = try importFixture("callbacks-links-webhooks.yaml")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let expected = [
            "import: api: webhook 'subscriptionEnded' (POST) is a request the API sends, not one a client makes: not imported\n",
            "import: subscribe: callback 'onEvent' is a request the API sends back, not one a client makes: not imported\n",
            "import: subscribe: callback 'onCancel' is a request the API sends back, not one a client makes: not imported\n",
            "import: subscribe: link 'GetSubscription' of response 200 is not imported (a chained example with captures can do what it says)\n"
        ]
        for line in expected {
            XCTAssertEqual(imported.stderr.components(separatedBy: line).count, 2, "once: \(line)\(imported.stderr)")
        }
        let text = try targetText("events")
        XCTAssertTrue(
            text.contains(
                "  # import: callback 'onEvent' is a request the API sends back, not one a client makes: not imported\n"
            ),
            text)
        XCTAssertTrue(
            text.contains(
                "#   webhook 'subscriptionEnded' (POST) is a request the API sends, not one a client makes: not imported (#/webhooks/subscriptionEnded)\n"
            ), text)
        let called = try sandbox.run(["call", "events", "subscribe", "http://127.0.0.1:1/hook"])
        XCTAssertEqual(called.status, 0, called.stderr)
    }

    func testAWebhooksOnlyDocumentImportsAsAnAPIWithNoCases() throws {
        let imported = try importFixture("webhooks-only.yaml")
        assertRun(
            imported, status: 0, stdout: "",
            stderr: """
                import: wrote targets/only-webhooks.yaml: API 'only-webhooks', 0 cases from 0 operations
                import: api: no 'servers': the base URL comes from ${MOYA_ONLY_WEBHOOKS_BASE_URL} (default http://localhost)
                import: api: webhook 'newPet' (POST) is a request the API sends, not one a client makes: not imported
                import: api: webhook 'evil\\e[2J' (PUT) is a request the API sends, not one a client makes: not imported
                import: api: webhook 'junk' is a request the API sends, not one a client makes: not imported
                import: api: the document describes no operations, only 3 webhook(s): the API has no cases
                import: next: moya-cli list only-webhooks; moya-cli check only-webhooks

                """)
        let text = try targetText("only-webhooks")
        XCTAssertTrue(text.hasSuffix("\ncases: {}\n"), text)
        XCTAssertFalse(text.utf8.contains(0x1B), text)
        let validated = try sandbox.run(["validate"])
        XCTAssertEqual(validated.status, 0, validated.stderr)
        XCTAssertEqual(validated.stdout, "targets/only-webhooks.yaml: ok (API 'only-webhooks', 0 cases, 1 warning)\n")
        XCTAssertTrue(
            validated.stderr.hasPrefix(
                "targets/only-webhooks.yaml:11:8: warning: 'cases' is empty; the API has no cases to call\n"),
            validated.stderr)
        XCTAssertEqual(try sandbox.run(["check", "only-webhooks"]).status, 0)
    }

    // MARK: Item 7: note hygiene and names

    func testNotesAreSaidOnceAndNamesReadAsWritten() throws {
        let imported = try importFixture("note-hygiene.yaml")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let noteLines = imported.stderr.split(separator: "\n").filter { !$0.hasPrefix("import:   ") }
        XCTAssertEqual(noteLines.count, Set(noteLines).count, "no line twice:\n\(imported.stderr)")
        XCTAssertTrue(
            imported.stderr.contains(
                """
                import: wrote targets/github-v3-rest-api.yaml: API 'github-v3-rest-api', 23 cases from 23 operations
                import: api: the default response has no status: no sample for it (23 cases: listRepos, longDescription, named1, …)
                import: 24 notes on cases, by kind (each is a comment at its case in targets/github-v3-rest-api.yaml):
                import:   24 × query parameter '…' is value '…' (e.g. listRepos)
                import: credentials come from $MOYA_GITHUB_V3_REST_API_TOKEN;
                """), imported.stderr)
        let text = try targetText("github-v3-rest-api")
        XCTAssertEqual(text.components(separatedBy: "the default response has no status").count, 2, text)
        XCTAssertTrue(
            text.contains(
                #"    description: "Lists the repositories of a user, sorted by name. Private ones need a token.""#),
            text)
        XCTAssertTrue(
            text.contains(
                #"    description: "Returns the long list of everything the service knows about the account, with its history.""#
            ), text)
        XCTAssertTrue(text.contains(#"      - StartTime_lt: {type: string, optional: true}"#), text)
        XCTAssertTrue(text.contains(#"      - StartTime_gt: {type: string, optional: true}"#), text)
        XCTAssertTrue(text.contains(#"      - size_ge: {type: int, optional: true}"#), text)

        let called = try sandbox.run(
            ["call", "github-v3-rest-api", "listRepos", "--StartTime_lt", "2026", "--size_ge", "3"],
            environment: ["MOYA_ALLOW_ENV": "MOYA_GITHUB_V3_REST_API_TOKEN", "MOYA_GITHUB_V3_REST_API_TOKEN": "t0ken"])
        XCTAssertEqual(called.status, 0, called.stderr)
        let request = try XCTUnwrap(serverA.receivedRequests.last)
        XCTAssertEqual(request.target, "/anything/repos?StartTime%3C=2026&size%3E%3D=3")
        XCTAssertEqual(request.value(of: "Authorization"), "Bearer t0ken")
    }

    // MARK: Item 8: list encodings

    func testFormEncodingAndQueryStylesChooseTheListEncoding() throws {
        let imported = try importFixture("list-encodings.yaml")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(
            imported.stderr.contains(
                "import: pipes: query parameter 'tags' in style 'pipeDelimited' (not exploded) has no list encoding here: it is sent comma-separated\n"
            ), imported.stderr)
        XCTAssertTrue(
            imported.stderr.contains(
                "import: mixed: list parameters of this case use different styles: all are sent as noBrackets, not comma\n"
            ), imported.stderr)
        let expectations: [(arguments: [String], target: String, body: String)] = [
            (["deepForm", "1,2"], "/anything/deep-form", "ids%5B%5D=1&ids%5B%5D=2"),
            (["commaForm", "1,2"], "/anything/comma-form", "ids=1,2"),
            (["deepQuery", "x,y"], "/anything/deep-query?tags%5B%5D=x&tags%5B%5D=y", ""),
            (["pipes", "x,y"], "/anything/pipes?tags=x,y", ""),
            (["mixed", "x,y", "z"], "/anything/mixed?a=x&a=y&b=z", "")
        ]
        for expectation in expectations {
            let called = try sandbox.run(["call", "list-encodings"] + expectation.arguments)
            XCTAssertEqual(called.status, 0, called.stderr)
            let request = try XCTUnwrap(serverA.receivedRequests.last)
            XCTAssertEqual(request.target, expectation.target, "\(expectation.arguments)")
            XCTAssertEqual(String(decoding: request.body, as: UTF8.self), expectation.body, "\(expectation.arguments)")
        }
    }

    // MARK: Item 9: lesser losses

    func testBodyExamplesProblemJSONAndStringJSONExamplesAreKept() throws {
        let imported = try importFixture("lesser-losses.yaml")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let text = try targetText("lesser-losses")
        XCTAssertTrue(text.contains("    examples: [{name: widget, count: 3}]\n"), text)
        XCTAssertTrue(text.contains("    examples: [{name: gadget, count: 2}]\n"), text)

        let stubbed = try sandbox.run(["call", "lesser-losses", "createItem", "x", "--stub"])
        XCTAssertEqual(stubbed.status, 0, stubbed.stderr)
        XCTAssertEqual(stubbed.stdout, #"{"id":7,"name":"widget {x}"}"#)
        let problem = try sandbox.run(
            ["call", "lesser-losses", "createItem", "x", "--stub", "--sample", "badRequest", "-i"])
        XCTAssertEqual(problem.status, 4, problem.stderr)
        XCTAssertTrue(problem.stdout.contains("\nContent-Type: application/problem+json\n"), problem.stdout)
        XCTAssertTrue(
            problem.stdout.hasSuffix(#"{"type":"about:blank","title":"Bad Request","status":400}"#), problem.stdout)

        // The example is what check covers the case with, offline.
        let checked = try sandbox.run(["check", "lesser-losses"])
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
    }

    func testAnOperationsOwnOAuthScopesGetAScheme() throws {
        let imported = try importFixture("oauth-scopes.yaml")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let text = try targetText("scoped")
        XCTAssertTrue(text.contains("    ccReadWrite:\n      type: oauth2\n"), text)
        XCTAssertTrue(text.contains("      scopes: [read, write]\n"), text)
        XCTAssertEqual(text.components(separatedBy: "    auth: ccReadWrite\n").count, 3, text)
        let environment = [
            "MOYA_ALLOW_ENV": "MOYA_SCOPED_CLIENT_ID:MOYA_SCOPED_CLIENT_SECRET", "MOYA_SCOPED_CLIENT_ID": "moya-client",
            "MOYA_SCOPED_CLIENT_SECRET": "client-s3cret-value", "XDG_CACHE_HOME": sandbox.path("cache")
        ]
        for name in ["readThings", "writeThings", "readAgain"] {
            let called = try sandbox.run(["call", "scoped", name], environment: environment)
            XCTAssertEqual(called.status, 0, "\(name): \(called.stderr)")
        }
        XCTAssertEqual(serverA.receivedRequests.filter { $0.path == "/oauth/protected" }.count, 3)
        let tokenRequests = serverA.receivedRequests.filter { $0.path == "/oauth/token" }.map {
            String(decoding: $0.body, as: UTF8.self)
        }
        XCTAssertEqual(tokenRequests.count, 2, "one token per set of scopes, cached: \(tokenRequests)")
        XCTAssertEqual(
            tokenRequests,
            ["grant_type=client_credentials&scope=read", "grant_type=client_credentials&scope=read%20write"])
    }

    // MARK: Item 10: specs split over local files

    /// Copies `Tests/Fixtures/openapi/fidelity/FOLDER` to `spec/` in the sandbox, ports filled in.
    private func copyFixtureFolder(_ name: String) throws {
        let source = CLIRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/openapi/fidelity/\(name)")
        let files = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: source.path))
        for file in files where file.hasSuffix(".yaml") {
            let text = try String(contentsOf: source.appendingPathComponent(file), encoding: .utf8)
                .replacingOccurrences(of: "PORT_A", with: String(serverA.port))
            try sandbox.write("spec/" + file, text)
        }
    }

    func testASpecSplitOverLocalFilesImports() throws {
        try copyFixtureFolder("multi-file")
        let imported = try sandbox.run(["import", "openapi", "spec/openapi.yaml"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let text = try targetText("split-spec")
        XCTAssertTrue(text.contains("      - role: {enum: [admin, member]}\n"), text)
        XCTAssertTrue(
            text.contains("      ok: {status: 200, json: {id: 42, name: Ada, role: admin, address: {city: Lyon}}}\n"),
            text)
        let called = try sandbox.run(["call", "split-spec", "createUser", "Grace", "member", "--id", "7"])
        XCTAssertEqual(called.status, 0, called.stderr)
        let request = try XCTUnwrap(serverA.receivedRequests.last)
        XCTAssertEqual(request.path, "/anything/users")
        XCTAssertEqual(String(decoding: request.body, as: UTF8.self), #"{"id":7,"name":"Grace","role":"member"}"#)
    }

    func testACycleAcrossFilesIsRefused() throws {
        try copyFixtureFolder("multi-file-cycle")
        let imported = try sandbox.run(["import", "openapi", "spec/openapi.yaml"])
        assertRun(
            imported, status: 65, stdout: "",
            stderr: """
                spec/b.yaml:1:11: error: $ref cycle: ./a.yaml#/P -> ./b.yaml#/P -> ./a.yaml#/P (at b.yaml#/P/$ref)
                    P: {$ref: "./a.yaml#/P"}
                              ^
                moya-cli: error: spec/openapi.yaml is not a valid OpenAPI description (1 problem)

                """)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.path("targets")))
    }

    func testReferencesThatLeaveTheSpecFolderAreRefused() throws {
        try sandbox.write("secret.yaml", "Secret: {type: string, example: the-secret-value}\n")
        try sandbox.write("spec/schemas/ok.yaml", "Ok: {type: string}\n")
        try FileManager.default.createSymbolicLink(
            atPath: sandbox.path("spec/schemas/link.yaml"), withDestinationPath: "../../secret.yaml")
        try FileManager.default.createSymbolicLink(
            atPath: sandbox.path("spec/out"), withDestinationPath: sandbox.root.path)
        let folder = try XCTUnwrap(CanonicalFolder.of(sandbox.path("spec")))
        let refused: [(String, String)] = [
            ("../secret.yaml#/Secret", "leaves the spec's folder (\(folder)): refused"),
            ("./schemas/../../secret.yaml#/Secret", "leaves the spec's folder (\(folder)): refused"),
            ("./schemas/link.yaml#/Secret", "leaves the spec's folder (\(folder)): refused"),
            ("out/secret.yaml#/Secret", "leaves the spec's folder (\(folder)): refused"),
            ("\(sandbox.path("secret.yaml"))#/Secret", "is an absolute path: only files in the spec's folder are read"),
            ("file:///etc/passwd#/x", "is a URL: only files in the spec's folder are read, never over the network"),
            (
                "http://127.0.0.1:\(serverA.port)/x.yaml#/x",
                "is a URL: only files in the spec's folder are read, never over the network"
            ),
            ("//127.0.0.1/x.yaml#/x", "is a URL: only files in the spec's folder are read, never over the network"),
            ("./schemas/absent.yaml#/X", "cannot be read: "),
            ("./schemas#/X", "cannot be read: ")
        ]
        for (reference, message) in refused {
            try sandbox.write(
                "spec/openapi.yaml",
                """
                openapi: 3.0.3
                info: {title: Refused, version: "1"}
                paths:
                  /a:
                    post:
                      operationId: postA
                      requestBody:
                        content:
                          application/json:
                            schema: {$ref: "\(reference)"}
                      responses: {'200': {description: ok}}
                """)
            let imported = try sandbox.run(["import", "openapi", "spec/openapi.yaml"])
            XCTAssertEqual(imported.status, 65, "\(reference): \(imported.stderr)")
            XCTAssertTrue(
                imported.stderr.hasPrefix(
                    "spec/openapi.yaml:10:28: error: $ref '\(reference.prefix { $0 != "#" })' \(message)"),
                "\(reference): \(imported.stderr)")
            XCTAssertFalse(imported.stderr.contains("the-secret-value"), imported.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.path("targets")), reference)
        }
        XCTAssertTrue(serverA.receivedRequests.isEmpty, "nothing is fetched")
        // The same spec from standard input has no folder: the reference is noted, not followed.
        let piped = try CLIRunner.run(
            ["import", "openapi", "-", "-o", "-"], currentDirectory: sandbox.root,
            stdin: Data(try String(contentsOfFile: sandbox.path("spec/openapi.yaml"), encoding: .utf8).utf8))
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertTrue(piped.stderr.contains("is not followed"), piped.stderr)
    }
}

/// A folder as the system resolves it (links followed), as the import's messages name it.
enum CanonicalFolder {
    static func of(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
