import CLITestSupport
import Foundation
import TestServers
import XCTest

/// What a hostile token endpoint, cache file or target file can do to `oauth2` auth: each gets a
/// clear error and the documented exit code, and no secret is shown.
final class OAuthHostileTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!
    var support: OAuthFixture!

    override func setUpWithError() throws {
        support = try OAuthFixture()
        server = support.server
        folder = support.folder
    }

    override func tearDown() {
        support.stop()
    }

    func testTokenEndpointFailuresExit7WithTheReason() throws {
        let cases: [(query: String, message: String)] = [
            ("?fail=error", "refused: invalid_scope (HTTP 400): the scope is not allowed"),
            ("?fail=html", "answered HTTP 500 (a text/html body, not JSON)"),
            ("?fail=huge", "answered with a body over 64 KiB; that is no token"),
            ("?fail=redirect", "answered HTTP 302, a redirect; redirects are not followed for token requests"),
            ("?fail=badtype", "token_type 'mac'; only Bearer tokens are supported"),
            ("?fail=echo", "refused: invalid_request (HTTP 400): you sent client_secret=<redacted> Basic <redacted>"),
            ("?fail=crlf", "answered with an access_token that cannot go in a header (control characters or spaces)")
        ]
        for (query, message) in cases {
            try support.writeTarget(query: query)
            let result = try support.call(["call", "guarded", "protected"])
            XCTAssertEqual(result.status, 7, "\(query): \(result.stderr)")
            XCTAssertTrue(
                result.stderr.contains(
                    "moya-cli: error: the token endpoint http://127.0.0.1:\(server.port)/oauth/token\(query) "),
                result.stderr)
            XCTAssertTrue(result.stderr.contains(message), "\(query): \(result.stderr)")
            support.assertNoSecret(result.stdout, result.stderr)
            XCTAssertEqual((try? support.cacheFiles()) ?? [], [], "nothing cached after a failure")
        }
        XCTAssertEqual(server.receivedRequests.filter { $0.path == "/oauth/protected" }.count, 0)
    }

    func testASlowOrUnreachableTokenEndpoint() throws {
        try support.writeTarget(query: "?fail=slow")
        let slow = try support.call(["call", "guarded", "protected", "--timeout", "0.5"])
        XCTAssertEqual(slow.status, 7, slow.stderr)
        XCTAssertTrue(slow.stderr.contains("timed out asking the token endpoint"), slow.stderr)

        try folder.write(
            "targets/guarded.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            auth: {type: oauth2, tokenURL: "http://127.0.0.1:1/token", clientId: c, clientSecret: "${secret:GUARDED_CLIENT_SECRET}"}
            cases:
              protected: {path: /oauth/protected, sample: ok}
            """)
        let unreachable = try support.call(["call", "guarded", "protected"])
        XCTAssertEqual(unreachable.status, 7, unreachable.stderr)
        XCTAssertTrue(
            unreachable.stderr.contains("cannot reach the token endpoint http://127.0.0.1:1/token"), unreachable.stderr)
    }

    func testAMissingSecretIsAUsageError() throws {
        let result = try CLIRunner.run(
            ["call", "guarded", "protected"],
            environment: ["XDG_CACHE_HOME": support.cacheFolder.path, "GUARDED_CLIENT_ID": "x"],
            currentDirectory: folder.url)
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("GUARDED_CLIENT_SECRET"), result.stderr)
        XCTAssertEqual(server.oauth.tokenRequestCount, 0)
    }

    func testASymlinkedCacheFileIsIgnoredAndReplaced() throws {
        XCTAssertEqual(try support.call(["call", "guarded", "protected"]).status, 0)
        let name = try XCTUnwrap(try support.cacheFiles().first)
        let path = support.cacheFolder.appendingPathComponent(name).path
        // Someone plants a link to a file of their own (here: a copy of the real token, so only
        // the link, not the contents, is what is refused).
        let planted = folder.url.appendingPathComponent("planted.json").path
        try FileManager.default.moveItem(atPath: path, toPath: planted)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: planted)
        let plantedBefore = try Data(contentsOf: URL(fileURLWithPath: planted))

        let result = try support.call(["call", "guarded", "protected"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "moya-cli: warning: ignoring the cached token \(path): it is a symbolic link; fetching a new one"),
            result.stderr)
        XCTAssertEqual(server.oauth.tokenRequestCount, 2)
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: path))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: planted)), plantedBefore)
    }

    func testACacheFileOthersCanReadIsIgnored() throws {
        XCTAssertEqual(try support.call(["call", "guarded", "protected"]).status, 0)
        let path = support.cacheFolder.appendingPathComponent(try XCTUnwrap(try support.cacheFiles().first)).path
        chmod(path, 0o644)
        let result = try support.call(["call", "guarded", "protected"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("its mode 644 lets others read or change it (it must be 600)"), result.stderr)
        XCTAssertEqual(server.oauth.tokenRequestCount, 2)
        XCTAssertEqual(
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func testAForgedCacheFileIsNotBelievedForAnotherAPI() throws {
        // A cache file whose contents name another token URL (copied, or forged) is refused.
        XCTAssertEqual(try support.call(["call", "guarded", "protected"]).status, 0)
        let path = support.cacheFolder.appendingPathComponent(try XCTUnwrap(try support.cacheFiles().first)).path
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
            of: "/oauth/token", with: "/elsewhere")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let result = try support.call(["call", "guarded", "protected"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("it is not a token file of this moya-cli for this API"), result.stderr)
        XCTAssertEqual(server.oauth.tokenRequestCount, 2)
    }

    /// A cached token is bound to the client secret it was obtained with and to the origin it is
    /// sent to: a target file repeating the API name, token URL, client id and scopes, without the
    /// secret and pointed at its own server, gets no token of the cache.
    func testACachedTokenGoesToNoOtherFileOrOrigin() throws {
        XCTAssertEqual(try support.call(["call", "guarded", "protected"]).status, 0)
        XCTAssertEqual(server.oauth.tokenRequestCount, 1)
        let thief = try HTTPTestServer()
        defer { thief.stop() }
        try folder.write(
            "planted/guarded.yaml",
            """
            api: guarded
            baseURL: http://127.0.0.1:\(thief.port)
            auth:
              type: oauth2
              tokenURL: http://127.0.0.1:\(server.port)/oauth/token
              clientId: "${GUARDED_CLIENT_ID}"
              clientSecret: "${HOME}"
              scopes: [write, read]
            cases:
              echo: {path: /anything/echo, sample: echoed}
            """)
        let planted = try support.call(
            ["call", "guarded", "echo", "--targets", "planted"], environment: ["MOYA_ALLOW_ENV": "HOME:GUARDED_*"])
        // The token endpoint refuses the wrong secret, so there is no token to send.
        XCTAssertEqual(planted.status, 7, planted.stderr)
        XCTAssertEqual(server.oauth.tokenRequestCount, 2)
        XCTAssertTrue(thief.receivedRequests.isEmpty, "\(thief.receivedRequests)")

        // The right secret, but the API pointed at another origin (--base-url): a token of its own.
        let moved = try support.call(["call", "guarded", "echo", "--base-url", "http://127.0.0.1:\(thief.port)"])
        XCTAssertEqual(moved.status, 0, moved.stderr)
        XCTAssertEqual(server.oauth.tokenRequestCount, 3)
        let sent = try XCTUnwrap(
            thief.receivedRequests.first?.headers.first { $0.name.lowercased() == "authorization" }?.value)
        let first = try XCTUnwrap(
            server.receivedRequests.first { $0.path == "/oauth/protected" }?.headers.first {
                $0.name.lowercased() == "authorization"
            }?.value)
        XCTAssertNotEqual(sent, first, "the token obtained for one origin went to another")
        XCTAssertEqual(try support.cacheFiles().filter { $0.hasSuffix(".json") }.count, 2)
        // The first origin still uses its own cached token.
        XCTAssertEqual(try support.call(["call", "guarded", "protected"]).status, 0)
        XCTAssertEqual(server.oauth.tokenRequestCount, 3)
    }

    func testInvalidOAuthSettingsAreLoadErrors() throws {
        try folder.write(
            "targets/guarded.yaml",
            """
            baseURL: https://api.example.com
            auth:
              type: oauth2
              tokenURL: http://auth.example.com/token
              clientId: c
              clientSecret: literal-secret
              scopes: [read, "two words"]
              clientAuth: header
            cases:
              a: {path: /a, sample: ok}
            """)
        let result = try CLIRunner.run(["validate", "targets/guarded.yaml"], currentDirectory: folder.url)
        XCTAssertEqual(result.status, 65, result.stderr)
        for expected in [
            "guarded.yaml:4:13: error: tokenURL 'http://auth.example.com/token' uses http to another machine",
            "guarded.yaml:6:17: error: literal secret in file; use ${VAR} for auth clientSecret",
            "guarded.yaml:7:18: error: invalid scope 'two words'",
            "guarded.yaml:8:15: error: unknown clientAuth 'header'; expected one of basic, body"
        ] {
            XCTAssertTrue(result.stderr.contains(expected), "\(expected)\n\(result.stderr)")
        }
    }

    func testASecretInTheTokenURLIsRefused() throws {
        try folder.write(
            "targets/guarded.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            auth: {type: oauth2, tokenURL: "https://auth.example.com/token?key=${secret:KEY}", clientId: c, clientSecret: "${secret:S}"}
            cases:
              protected: {path: /oauth/protected, sample: ok}
            """)
        let result = try CLIRunner.run(["validate", "targets/guarded.yaml"], currentDirectory: folder.url)
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(
            result.stderr.contains("guarded.yaml:2:32: error: tokenURL cannot hold a ${secret:...} reference"),
            result.stderr)
    }

    func testLogoutDoesNotReachThroughALinkedCacheFolder() throws {
        let elsewhere = folder.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let victim = elsewhere.appendingPathComponent("oauth2-guarded-" + String(repeating: "a", count: 32) + ".json")
        try Data("{}".utf8).write(to: victim)
        try FileManager.default.createDirectory(
            at: support.cacheFolder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: support.cacheFolder, withDestinationURL: elsewhere)
        let logout = try support.call(["auth", "guarded", "--logout"])
        XCTAssertEqual(logout.status, 0, logout.stderr)
        XCTAssertEqual(logout.stdout, "no cached token for API 'guarded'\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: victim.path))
        // And a call neither reads nor writes through it.
        let call = try support.call(["call", "guarded", "protected"])
        XCTAssertEqual(call.status, 0, call.stderr)
        XCTAssertTrue(
            call.stderr.contains("not caching the token: \(support.cacheFolder.path) is not a directory"), call.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [victim.lastPathComponent])
    }

    func testATokenURLFromAVariableIsCheckedBeforeAnythingIsSent() throws {
        try folder.write(
            "targets/guarded.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            auth: {type: oauth2, tokenURL: "${TOKEN_URL}", clientId: c, clientSecret: "${secret:GUARDED_CLIENT_SECRET}"}
            cases:
              protected: {path: /oauth/protected, sample: ok}
            """)
        let result = try support.call(
            ["call", "guarded", "protected"], environment: ["TOKEN_URL": "http://example.com/token"])
        XCTAssertEqual(result.status, 7, result.stderr)
        XCTAssertTrue(result.stderr.contains("uses http to another machine"), result.stderr)
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    func testCtrlCWhileWaitingForTheTokenEndsTheRunAt130() throws {
        try ctrlCWhileWaitingForTheToken(["call", "guarded", "protected"])
    }

    /// `check` handles Ctrl-C gracefully (it writes what it has); the token request is cancelled
    /// rather than waited for.
    func testCtrlCWhileCheckWaitsForTheTokenEndsTheRunAt130() throws {
        try ctrlCWhileWaitingForTheToken(["check", "guarded", "--live"])
    }

    func ctrlCWhileWaitingForTheToken(_ arguments: [String]) throws {
        try support.writeTarget(query: "?fail=slow")
        var environment = support.environment
        environment["PATH"] = "/usr/bin:/bin"
        environment[CLIRunner.allowedVariablesName] = "GUARDED_*"
        let process = Process()
        process.executableURL = CLIRunner.binaryURL
        process.arguments = arguments
        process.currentDirectoryURL = folder.url
        process.environment = environment.merging(["HOME": folder.url.path]) { _, new in new }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while server.oauth.tokenRequestCount == 0 && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(server.oauth.tokenRequestCount, 1, "the token request is in flight")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130)
        XCTAssertEqual(server.oauth.slowAnswerCount, 0, "the run ended before the token endpoint answered")
        XCTAssertEqual(server.receivedRequests.filter { $0.path == "/oauth/protected" }.count, 0)
        XCTAssertEqual((try? support.cacheFiles()) ?? [], [])
    }
}
