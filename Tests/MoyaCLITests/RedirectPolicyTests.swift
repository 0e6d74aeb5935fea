import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 46, item 6: `redirects: follow | none | N` on the API and the case, the command line's
/// `--no-follow`/`--max-redirects` over both, and the load-time warning for a case that expects a
/// 3xx its followed redirects would hide.
final class RedirectPolicyTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write(
            "targets/site.yaml",
            """
            api: site
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              login:
                method: POST
                path: /redirect-to
                redirects: none
                task: {json: {user: ann}, query: {url: "/get?from=login", status: "302"}}
                validation: [302]
                captures: {next: {header: Location}}
                sample: {status: 302, headers: {Location: /get?from=login}}
              hops:
                values: [{count: int}]
                path: /redirect/{count}
                redirects: 2
                sample: {json: {}}
              followed:
                path: /redirect/1
                sample: {json: {}}
            """)
    }

    override func tearDown() {
        server.stop()
    }

    func run(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(arguments, environment: ["HOME": folder.url.path], currentDirectory: folder.url)
    }

    func testA302LoginWithRedirectsNonePassesLiveAndCapturesItsLocation() throws {
        let check = try run(["check", "site", "--live", "--only", "login"])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertFalse(check.stderr.contains("warning"), check.stderr)
        let captured = try run(["call", "site", "login", "--capture"])
        XCTAssertEqual(captured.status, 0, captured.stderr)
        XCTAssertEqual(captured.stdout, "next='/get?from=login'\n")
        XCTAssertEqual(server.receivedRequests.last?.path, "/redirect-to", "the redirect was not followed")
    }

    func testTheCommandLineWinsOverTheCase() throws {
        // --max-redirects follows the login's 302 to /get: a 200 its validation does not list.
        let followed = try run(["call", "site", "login", "--max-redirects", "3"])
        XCTAssertEqual(followed.status, 4, followed.stderr)
        XCTAssertEqual(server.receivedRequests.last?.path, "/get")
        // The case follows at most 2: three hops are too many (exit 6), unless the command line says 5.
        XCTAssertEqual(try run(["call", "site", "hops", "2"]).status, 0)
        let tooMany = try run(["call", "site", "hops", "3"])
        XCTAssertEqual(tooMany.status, 6, tooMany.stderr)
        XCTAssertEqual(try run(["call", "site", "hops", "3", "--max-redirects", "5"]).status, 0)
        // --no-follow over the API's default: the 302 itself, which fails a 2xx validation with 3.
        XCTAssertEqual(try run(["call", "site", "followed", "--no-follow"]).status, 3)
    }

    func testCurlFollowsTheCasePolicy() throws {
        let login = try run(["curl", "site", "login"])
        XCTAssertEqual(login.status, 0, login.stderr)
        XCTAssertFalse(login.stdout.contains("-L"), login.stdout)
        let hops = try run(["curl", "site", "hops", "3"])
        XCTAssertTrue(hops.stdout.hasPrefix("curl -L --max-redirs 2 "), hops.stdout)
    }

    func testAFollowedCaseExpectingA3xxIsWarnedAboutWhenLoaded() throws {
        try folder.write(
            "targets/warned.yaml",
            """
            api: warned
            baseURL: http://127.0.0.1:\(server.port)
            redirects: follow
            cases:
              login:
                path: /redirect-to
                validation: [200, 302]
              next:
                path: /redirect-to
                captures: {where: {header: location}}
                sample: {status: 307, headers: {Location: /elsewhere}}
              created:
                path: /redirect-to
                captures: {where: {header: Location}}
                sample: {status: 201, headers: {Location: /items/1}}
              quiet:
                path: /redirect-to
                redirects: none
                validation: [302]
            """)
        let result = try run(["validate", "targets/warned.yaml"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "warned.yaml:5:3: warning: case 'login' expects a redirect's answer (its validation lists 302) but follows redirects"
            ), result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "warned.yaml:8:3: warning: case 'next' expects a redirect's answer (it captures 'where' from the Location header of its 307 sample)"
            ), result.stderr)
        XCTAssertFalse(result.stderr.contains("case 'quiet' expects"), result.stderr)
        XCTAssertFalse(result.stderr.contains("case 'created' expects"), result.stderr)
    }

    func testABadPolicyIsRefusedWithItsPlace() throws {
        try folder.write(
            "targets/bad.yaml",
            """
            api: bad
            baseURL: http://127.0.0.1:\(server.port)
            redirects: sometimes
            cases:
              zen: {path: /get, redirects: 5000}
            """)
        let result = try run(["validate", "targets/bad.yaml"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "bad.yaml:3:12: error: expected follow, none, or the most redirects to follow (a number) for 'redirects'"
            ),
            result.stderr)
        XCTAssertTrue(
            result.stderr.contains("bad.yaml:5:32: error: 'redirects' must be follow, none or 0 to 1000, found 5000"),
            result.stderr)
    }
}
