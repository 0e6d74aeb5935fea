import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 29: a case's own `baseURL` (Moya's `TargetType.baseURL` is per case), sent to, shown and
/// checked as the API's is.
final class CaseBaseURLTests: XCTestCase {
    var apiServer: HTTPTestServer!
    var uploadServer: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        apiServer = try HTTPTestServer()
        uploadServer = try HTTPTestServer()
        sandbox = try Sandbox()
        try sandbox.write(
            "targets/files.yaml",
            """
            api: files
            baseURL: "http://127.0.0.1:${API_PORT}"
            environments:
              local:
                variables: {UPLOADS: "http://127.0.0.1:${UPLOAD_PORT}/anything"}
            cases:
              listFiles:
                path: /anything/files
              upload:
                baseURL: "http://127.0.0.1:${UPLOAD_PORT}/anything"
                values: [{name: string}]
                method: POST
                path: /up/{name}
                task: {json: {name: "{name}"}}
              envUpload:
                baseURL: "${UPLOADS}"
                path: /env/e
              secretHost:
                baseURL: "http://${secret:UPLOAD_HOST}"
                path: /anything/s
            """)
    }

    override func tearDown() {
        apiServer.stop()
        uploadServer.stop()
    }

    private var ports: [String: String] {
        ["API_PORT": String(apiServer.port), "UPLOAD_PORT": String(uploadServer.port)]
    }

    func testACaseIsSentToItsOwnBaseURLAndTheOthersToTheAPIs() throws {
        let listed = try sandbox.run(["call", "files", "listFiles"], environment: ports)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        let uploaded = try sandbox.run(["call", "files", "upload", "a.zip"], environment: ports)
        XCTAssertEqual(uploaded.status, 0, uploaded.stderr)

        XCTAssertEqual(apiServer.receivedRequests.map(\.target), ["/anything/files"])
        let upload = try XCTUnwrap(uploadServer.receivedRequests.last)
        XCTAssertEqual(uploadServer.receivedRequests.count, 1)
        XCTAssertEqual(upload.method, "POST")
        XCTAssertEqual(upload.target, "/anything/up/a.zip")
        XCTAssertEqual(upload.value(of: "Host"), "127.0.0.1:\(uploadServer.port)")
        XCTAssertEqual(String(decoding: upload.body, as: UTF8.self), #"{"name":"a.zip"}"#)
    }

    func testEnvironmentVariablesAndSecretsWorkInACaseBaseURL() throws {
        let fromEnvironment = try sandbox.run(["call", "files", "envUpload", "--env", "local"], environment: ports)
        XCTAssertEqual(fromEnvironment.status, 0, fromEnvironment.stderr)
        XCTAssertEqual(uploadServer.receivedRequests.last?.target, "/anything/env/e")

        let host = "127.0.0.1:\(uploadServer.port)"
        let secret = try sandbox.run(
            ["call", "files", "secretHost", "--curl"], environment: ports.merging(["UPLOAD_HOST": host]) { $1 })
        XCTAssertEqual(secret.status, 0, secret.stderr)
        XCTAssertEqual(uploadServer.receivedRequests.last?.target, "/anything/s")
        XCTAssertFalse(secret.stderr.contains(host), secret.stderr)
        XCTAssertTrue(secret.stderr.contains("'http://<redacted>/anything/s'"), secret.stderr)
        XCTAssertTrue(apiServer.receivedRequests.isEmpty)
    }

    func testTheCommandLineBaseURLReplacesACasesOwn() throws {
        let result = try sandbox.run(
            ["call", "files", "upload", "b", "--base-url", apiServer.url("/anything").absoluteString],
            environment: ports)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(apiServer.receivedRequests.map(\.target), ["/anything/up/b"])
        XCTAssertTrue(uploadServer.receivedRequests.isEmpty)
    }

    func testListCurlAndCaseHelpShowACaseBaseURL() throws {
        let list = try sandbox.run(["list", "files"], environment: ports)
        XCTAssertEqual(list.status, 0, list.stderr)
        let rows = list.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        XCTAssertEqual(rows.first { $0.first == "listFiles" }?.dropFirst(2).first, "/anything/files")
        XCTAssertEqual(
            rows.first { $0.first == "upload" }?.dropFirst(2).first,
            "http://127.0.0.1:${UPLOAD_PORT}/anything/up/{name}")

        let json = try sandbox.run(["list", "files", "--format", "json"], environment: ports)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        let cases = try XCTUnwrap(document["cases"] as? [[String: Any]])
        XCTAssertEqual(
            cases.map { $0["baseURL"] as? String },
            [nil, "http://127.0.0.1:${UPLOAD_PORT}/anything", "${UPLOADS}", "http://${secret:UPLOAD_HOST}"])
        XCTAssertTrue(cases[0]["baseURL"] is NSNull)

        let curl = try sandbox.run(["curl", "files", "upload", "c"], environment: ports)
        XCTAssertEqual(curl.status, 0, curl.stderr)
        XCTAssertTrue(
            curl.stdout.contains("'http://127.0.0.1:\(uploadServer.port)/anything/up/c'"), curl.stdout)
        XCTAssertTrue(apiServer.receivedRequests.isEmpty && uploadServer.receivedRequests.isEmpty)

        let help = try sandbox.run(["call", "files", "upload", "--help"], environment: ports)
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(
            help.stdout.contains(
                "  POST http://127.0.0.1:${UPLOAD_PORT}/anything/up/{name}    task: requestJSONEncodable\n"),
            help.stdout)
    }

    func testABadCaseBaseURLIsRefusedAtItsLine() throws {
        let bad: [(String, Int, String)] = [
            (
                "ftp://files.example.com", 14,
                "baseURL 'ftp://files.example.com' uses 'ftp'; only http and https are allowed"
            ),
            (
                "https://files.example.com/?a=1", 14,
                "baseURL 'https://files.example.com/?a=1' has a query; put query parameters in a case's task"
            ),
            (
                "https://files.example.com/#top", 14,
                "baseURL 'https://files.example.com/#top' has a fragment ('#...'); remove it"
            ),
            (
                "files.example.com", 14,
                "baseURL 'files.example.com' is not an absolute URL; write it with its scheme, like https://files.example.com"
            ),
            ("http://:8080", 14, "baseURL 'http://:8080' has no host"),
            ("\"https://a b.example\"", 14, "baseURL 'https://a b.example' contains a space or a control character"),
            (
                "\"https://{host}.example\"", 23,
                "placeholder '{host}' is not allowed in a case's baseURL; placeholders may appear in a case's path, headers, task and samples (write '{{' for a literal '{')"
            )
        ]
        for (url, column, message) in bad {
            try sandbox.write(
                "targets/bad.yaml",
                """
                baseURL: https://api.example.com
                cases:
                  ok: {path: /ok, sample: ok}
                  upload:
                    baseURL: \(url)
                    path: /up
                    sample: ok
                """)
            let result = try sandbox.run(["call", "bad", "ok"])
            XCTAssertEqual(result.status, 65, url)
            XCTAssertEqual(
                result.stderr,
                "targets/bad.yaml:5:\(column): error: \(message)\n"
                    + "        baseURL: \(url)\n" + String(repeating: " ", count: 3 + column) + "^\n"
                    + "moya-cli: error: API 'bad' is defined by targets/bad.yaml, which has errors; run 'moya-cli validate targets/bad.yaml'\n",
                url)
        }
    }

    func testACaseBaseURLMadeFromAVariableIsCheckedWhenSent() throws {
        let result = try sandbox.run(
            ["call", "files", "envUpload", "--env", "local"], environment: ["UPLOAD_PORT": "1/x?q=1", "API_PORT": "1"])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("has a query; put query parameters in a case's task"), result.stderr)
    }
}
