import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Two cases of one API sending different Authorization schemes over real HTTP.
final class AuthSchemeTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write(
            "targets/mixed.yaml",
            """
            api: mixed
            baseURL: http://127.0.0.1:\(server.port)
            auth:
              default: bearer
              schemes:
                bearer: {type: bearer, token: "${secret:MIXED_TOKEN}"}
                basic: {type: basic, username: "${MIXED_USER}", password: "${secret:MIXED_PASSWORD}"}
            cases:
              profile: {path: /anything/profile, sample: ok}
              login: {path: /anything/login, auth: basic, sample: ok}
              status: {path: /anything/status, auth: none, sample: ok}
            """)
    }

    override func tearDown() {
        server.stop()
    }

    private let environment = ["MIXED_TOKEN": "t0ken", "MIXED_USER": "alice", "MIXED_PASSWORD": "s3cret"]

    func testBearerAndBasicCasesOfOneAPI() throws {
        let profile = try CLIRunner.run(
            ["call", "mixed", "profile"], environment: environment, currentDirectory: folder.url)
        XCTAssertEqual(profile.status, 0, profile.stderr)
        XCTAssertEqual(try XCTUnwrap(server.receivedRequests.last).value(of: "Authorization"), "Bearer t0ken")
        let login = try CLIRunner.run(
            ["call", "mixed", "login"], environment: environment, currentDirectory: folder.url)
        XCTAssertEqual(login.status, 0, login.stderr)
        XCTAssertEqual(
            try XCTUnwrap(server.receivedRequests.last).value(of: "Authorization"),
            "Basic " + Data("alice:s3cret".utf8).base64EncodedString())
        let status = try CLIRunner.run(
            ["call", "mixed", "status"], environment: environment, currentDirectory: folder.url)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertNil(try XCTUnwrap(server.receivedRequests.last).value(of: "Authorization"))
    }

    func testTheBasicPasswordIsRedactedInCurl() throws {
        let curl = try CLIRunner.run(["curl", "mixed", "login"], environment: environment, currentDirectory: folder.url)
        XCTAssertEqual(curl.status, 0, curl.stderr)
        XCTAssertFalse(curl.stdout.contains("s3cret"), curl.stdout)
        XCTAssertFalse(curl.stdout.contains(Data("alice:s3cret".utf8).base64EncodedString()), curl.stdout)
    }

    func testAnUnknownSchemeIsALoadError() throws {
        try folder.write(
            "targets/mixed.yaml",
            """
            baseURL: http://127.0.0.1:1
            auth: {schemes: {basic: {type: basic, username: u, password: "${P}"}}}
            cases:
              a: {path: /a, auth: basci, sample: ok}
            """)
        let result = try CLIRunner.run(["call", "mixed", "a"], currentDirectory: folder.url)
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(
            result.stderr.contains("mixed.yaml:4:23: error: unknown auth scheme 'basci'; did you mean 'basic'?"),
            result.stderr)
    }
}
