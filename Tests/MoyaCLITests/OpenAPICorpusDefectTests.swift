import CLITestSupport
import Foundation
import XCTest

@testable import TestServers

/// Issue 39: the classes of defect the corpus (`CorpusTests`) found in `import openapi`, each on
/// a fixture of its own (`Tests/Fixtures/openapi/fidelity/`), imported by the binary and sent to
/// the loopback server `PORT_A` stands for.
final class OpenAPICorpusDefectTests: XCTestCase {
    var sandbox: Sandbox!
    var server: HTTPTestServer!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// Copies the fixture file or folder `name` to `spec/` in the sandbox, the port filled in.
    private func copyFixture(_ name: String) throws {
        let source = CLIRunner.repositoryRoot.appendingPathComponent("Tests/Fixtures/openapi/fidelity/\(name)")
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: source.path, isDirectory: &isFolder))
        let files = isFolder.boolValue ? try FileManager.default.subpathsOfDirectory(atPath: source.path) : [""]
        for file in files where file.isEmpty || file.hasSuffix(".yaml") {
            let url = file.isEmpty ? source : source.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
                .replacingOccurrences(of: "PORT_A", with: String(server.port))
            try sandbox.write("spec/" + (file.isEmpty ? name : file), text)
        }
    }

    // MARK: Operations and path items in other files

    /// DigitalOcean writes each operation in a file of its own (`get: {$ref: "resources/…"}`):
    /// they were cases made of nothing. They are followed as other relative references are.
    func testOperationsAndPathItemsInOtherFilesAreFollowed() throws {
        try copyFixture("split-operations")
        let imported = try sandbox.run(["import", "openapi", "spec/openapi.yaml"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(
            imported.stderr.hasPrefix(
                "import: wrote targets/split-operations.yaml: API 'split-operations', 3 cases from 3 operations\n"),
            imported.stderr)
        let text = try String(contentsOfFile: sandbox.path("targets/split-operations.yaml"), encoding: .utf8)
        XCTAssertTrue(
            text.contains("    samples: {ok: {status: 200, json: {id: 512190, name: My SSH Public Key}}}\n"), text)

        let listed = try sandbox.run(["call", "split-operations", "listKeys", "--per_page", "5"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertEqual(server.receivedRequests.last?.target, "/anything/keys?per_page=5")
        let deleted = try sandbox.run(["call", "split-operations", "deleteKey", "7"])
        XCTAssertEqual(deleted.status, 0, deleted.stderr)
        XCTAssertEqual(server.receivedRequests.last.map { "\($0.method) \($0.target)" }, "DELETE /anything/keys/7")
        let checked = try sandbox.run(["check", "split-operations"])
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
    }

    /// From standard input there is no folder to read the operation's file from: refused with
    /// the place (65), never a case without its request.
    func testAnOperationInAnotherFileIsRefusedFromStandardInput() throws {
        try copyFixture("split-operations")
        let spec = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("spec/openapi.yaml")))
        let imported = try CLIRunner.run(
            ["import", "openapi", "-", "-o", "-"], currentDirectory: sandbox.root, stdin: spec)
        XCTAssertEqual(imported.status, 65, imported.stderr)
        XCTAssertEqual(imported.stdout, "")
        for line in [
            "<stdin>:8:11: error: path item '/anything/keys' is a $ref to another file ('resources/keys/item.yaml'), read only when the spec is imported from its file, not from standard input (at #/paths/~1anything~1keys/$ref)\n",
            "<stdin>:11:13: error: operation GET /anything/keys/{key_id} is a $ref to another file ('resources/keys/get.yaml'), read only when the spec is imported from its file, not from standard input (at #/paths/~1anything~1keys~1{key_id}/get/$ref)\n"
        ] {
            XCTAssertTrue(imported.stderr.contains(line), imported.stderr)
        }
        XCTAssertTrue(
            imported.stderr.hasSuffix("moya-cli: error: <stdin> is not a valid OpenAPI description (3 problems)\n"),
            imported.stderr)
    }

    // MARK: A value named like a key of the format

    /// OpenAI's cursor pagination names a parameter `after`: its example `{after: skillver_123}`
    /// was read as a chained step, and the import ended in 70. A case with a value named `after`
    /// reads such a map as values.
    func testAValueNamedAfterIsAValueNotAChainedStep() throws {
        try copyFixture("cursor-after.yaml")
        let imported = try sandbox.run(["import", "openapi", "spec/cursor-after.yaml"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let text = try String(contentsOfFile: sandbox.path("targets/cursor-after.yaml"), encoding: .utf8)
        XCTAssertTrue(text.contains("    examples: [{skill_id: skill_123, after: skillver_123}]\n"), text)
        XCTAssertEqual(
            try checkedURLs("cursor-after"),
            ["http://127.0.0.1:\(server.port)/anything/skills/skill_123/versions?after=skillver_123&limit=20"])
        let called = try sandbox.run([
            "call", "cursor-after", "listSkillVersions", "s", "--after", "v 2", "--with", "w"
        ])
        XCTAssertEqual(called.status, 0, called.stderr)
        XCTAssertEqual(server.receivedRequests.last?.target, "/anything/skills/s/versions?after=v%202&limit=20&with=w")
    }

    /// The rule is the loader's, so a file written by hand keeps it: by name when the case has a
    /// value `after` (its `with` is then a value too), a step when `with` is a map.
    func testHandWrittenExamplesWithAfterAreValuesOrStepsByTheirShape() throws {
        try sandbox.write(
            "targets/paged.yaml",
            """
            api: paged
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              first:
                path: /anything/first
                captures: {cursor: "$.url"}
                sample: {json: {url: next-1}}
              page:
                values: [{after: string}, {with: {type: string, default: none}}]
                path: /anything/page
                task: {parameters: {after: "{after}", with: "{with}"}, encoding: url}
                sample: {json: {}}
                examples:
                  - {after: item_9}
                  - {after: item_9, with: both}
                  - {after: first, with: {after: "{cursor}"}}
              other:
                values: [{id: string}]
                path: /anything/other/{id}
                sample: {json: {}}
                examples:
                  - {after: first, with: {id: "{cursor}"}}
            """)
        let base = "http://127.0.0.1:\(server.port)/anything"
        XCTAssertEqual(
            try checkedURLs("paged"),
            [
                "\(base)/first", "\(base)/page?after=item_9&with=none", "\(base)/page?after=item_9&with=both",
                "\(base)/page?after=next-1&with=none", "\(base)/other/next-1"
            ])
        // In a case without a value `after`, the map is a step, as it always was.
        try sandbox.write(
            "targets/paged.yaml",
            String(contentsOfFile: sandbox.path("targets/paged.yaml"), encoding: .utf8)
                + "\n      - {after: item_9, with: {id: x}}\n")
        let validated = try sandbox.run(["validate", "targets/paged.yaml"])
        XCTAssertEqual(validated.status, 65)
        XCTAssertTrue(
            validated.stderr.contains("error: example 2 of case 'other': 'after' names no case 'item_9'"),
            validated.stderr)
    }

    /// The URLs `check` (offline) builds for the API's examples, in order.
    private func checkedURLs(_ api: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let checked = try sandbox.run(["check", api, "--report", "json:-"])
        XCTAssertEqual(checked.status, 0, checked.stderr, file: file, line: line)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: checked.stdoutData) as? [String: Any])
        return (report["results"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String }
    }

    // MARK: Booleans in the query of a body's operation

    /// moya-cli-import(1) says a query's booleans are sent as OpenAPI sends them, `true` and
    /// `false`; with a body (Moya's composite tasks) they went as `1` and `0`.
    func testBooleansInTheQueryOfABodysOperationAreTrueAndFalse() throws {
        try copyFixture("query-bools.yaml")
        let imported = try sandbox.run(["import", "openapi", "spec/query-bools.yaml"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let run = try sandbox.run(["call", "query-bools", "createRun", "false", "--notify", "true", "--name", "n"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(server.receivedRequests.last?.target, "/anything/runs?dry_run=false&notify=true")
        XCTAssertEqual(server.receivedRequests.last.map { String(decoding: $0.body, as: UTF8.self) }, #"{"name":"n"}"#)
        let optionalLeftOut = try sandbox.run(["call", "query-bools", "createRun", "true"])
        XCTAssertEqual(optionalLeftOut.status, 0, optionalLeftOut.stderr)
        XCTAssertEqual(server.receivedRequests.last?.target, "/anything/runs?dry_run=true")
        let form = try sandbox.run(["call", "query-bools", "putForm", "--agree", "false"])
        XCTAssertEqual(form.status, 0, form.stderr)
        XCTAssertEqual(server.receivedRequests.last?.target, "/anything/forms?strict=false")
        XCTAssertEqual(server.receivedRequests.last.map { String(decoding: $0.body, as: UTF8.self) }, "agree=false")
    }

    /// A file that does not say `boolEncoding: literal` keeps Moya's `1` and `0`; one that says
    /// it next to a `query` gets `true` and `false` there, literal booleans too.
    func testBoolEncodingGoesWithAQuery() throws {
        try sandbox.write(
            "targets/bools.yaml",
            """
            api: bools
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              moya:
                method: POST
                values: [{flag: bool}]
                path: /anything/moya
                task: {json: {a: 1}, query: {flag: "{flag}", fixed: true}}
              openapi:
                method: POST
                values: [{flag: bool}]
                path: /anything/openapi
                task: {data: "x", query: {flag: "{flag}", fixed: true}, boolEncoding: literal}
              misplaced:
                method: POST
                path: /anything/misplaced
                task: {json: {a: 1}, boolEncoding: literal}
            """)
        let validated = try sandbox.run(["validate", "targets/bools.yaml"])
        XCTAssertEqual(validated.status, 65)
        XCTAssertTrue(
            validated.stderr.contains(
                "targets/bools.yaml:17:26: error: 'boolEncoding' goes with 'parameters' or 'query'\n"),
            validated.stderr)
        try sandbox.write(
            "targets/bools.yaml",
            String(contentsOfFile: sandbox.path("targets/bools.yaml"), encoding: .utf8)
                .replacingOccurrences(
                    of: "task: {json: {a: 1}, boolEncoding: literal}", with: "task: {json: {a: 1}}"))
        for (name, expected) in [
            ("moya", "/anything/moya?fixed=1&flag=1"), ("openapi", "/anything/openapi?fixed=true&flag=true")
        ] {
            let called = try sandbox.run(["call", "bools", name, "true"])
            XCTAssertEqual(called.status, 0, called.stderr)
            XCTAssertEqual(server.receivedRequests.last?.target, expected)
        }
    }

    // MARK: Unions of scalars

    /// 3.1's nullable string (`anyOf: [{type: string}, {type: 'null'}]`) was dropped, an open enum
    /// fixed to its example, a multipart operation with one skipped: each is a value.
    func testUnionsOfScalarsAreValues() throws {
        try copyFixture("scalar-unions.yaml")
        let imported = try sandbox.run(["import", "openapi", "spec/scalar-unions.yaml"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let text = try String(contentsOfFile: sandbox.path("targets/scalar-unions.yaml"), encoding: .utf8)
        XCTAssertTrue(
            text.contains(
                """
                    values:
                      - model:
                          type: string
                          description: "The model. (for example gpt-4o, gpt-4o-mini; any other text is accepted)"
                      - prompt: string
                      - user: {type: string, optional: true}
                      - seed: {type: int, optional: true}
                      - mode: {enum: [fast, slow], optional: true}

                """), text)
        XCTAssertTrue(
            text.contains(
                "      - purpose: {type: string, description: \"(for example assistants, batch; any other text is accepted)\"}\n"
            ), text)
        XCTAssertTrue(text.contains("    examples: [{model: gpt-4o, prompt: Say hi, user: user-1}]\n"), text)

        let called = try sandbox.run([
            "call", "scalar-unions", "createCompletion", "my-model", "Hi", "--seed", "3", "--mode", "slow"
        ])
        XCTAssertEqual(called.status, 0, called.stderr)
        XCTAssertEqual(
            server.receivedRequests.last.map { String(decoding: $0.body, as: UTF8.self) },
            #"{"model":"my-model","prompt":"Hi","seed":3,"mode":"slow"}"#)
        try sandbox.write("doc.txt", "a document\n")
        let uploaded = try sandbox.run(["call", "scalar-unions", "uploadFile", "doc.txt", "fine-tune"])
        XCTAssertEqual(uploaded.status, 0, uploaded.stderr)
        let parts = try XCTUnwrap(
            server.receivedRequests.last.flatMap {
                MultipartParser.parts(of: $0.body, contentType: $0.value(of: "Content-Type"))
            })
        XCTAssertEqual(parts.map { $0.name ?? "-" }, ["file", "purpose"])
        XCTAssertEqual(parts.last.map { String(decoding: $0.content, as: UTF8.self) }, "fine-tune")
    }
}
