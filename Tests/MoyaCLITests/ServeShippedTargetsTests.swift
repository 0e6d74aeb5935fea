import CLITestSupport
import Foundation
import XCTest

/// Issue 30's "done when": `serve` on each shipped target file answers its samples, and
/// `check API --live --base-url` against it passes every case.
final class ServeShippedTargetsTests: XCTestCase {
    /// A copy of the shipped targets (downloads and token caches land in the temporary folder),
    /// trusted so its token command runs; a `gh` on PATH that prints a token stands for GitHub's
    /// CLI, which the `cli` auth scheme of httpbin-oauth runs.
    private func setUpFolder() throws -> (TemporaryFolder, [String: String]) {
        let folder = try TemporaryFolder()
        let targets = folder.url.appendingPathComponent("targets")
        try FileManager.default.copyItem(
            at: CLIRunner.repositoryRoot.appendingPathComponent("targets"), to: targets)
        let gh = try folder.write("bin/gh", "#!/bin/sh\necho gh-token-for-tests\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: gh.path)
        let environment = [
            "PATH": folder.url.appendingPathComponent("bin").path + ":/usr/bin:/bin",
            "HOME": folder.url.path,
            "MOYA_TRUSTED_TARGETS": targets.path,
            "HTTPBIN_PASSWORD": "passwd", "GITHUB_TOKEN": "ghp_token_for_tests", "HTTPBIN_TOKEN": "demo-token",
            "OAUTH_CLIENT_SECRET": "client-secret-for-tests"
        ]
        return (folder, environment)
    }

    func testCheckLiveAgainstServePassesEveryCaseOfEveryShippedTargetFile() throws {
        let (folder, environment) = try setUpFolder()
        let shipped = ["github", "httpbin", "httpbin-token", "httpbin-oauth"]
        for api in shipped {
            let server = try ServeProcess([api], in: folder.url, environment: environment)
            XCTAssertNotEqual(server.port, 0, server.stderr)
            var checkEnvironment = environment
            // The token endpoint is the served one: `serve` answers the oauth2 scheme's tokenURL.
            checkEnvironment["OAUTH_BASE_URL"] = "http://127.0.0.1:\(server.port)"
            let check = try CLIRunner.run(
                ["check", api, "--live", "--include-unsafe", "--base-url", "http://127.0.0.1:\(server.port)"],
                environment: checkEnvironment, currentDirectory: folder.url)
            XCTAssertEqual(check.status, 0, "\(api):\n\(check.stdout)\(check.stderr)")
            let summary = check.stderr.split(separator: "\n").last.map(String.init) ?? ""
            XCTAssertTrue(summary.hasPrefix("check (live): "), summary)
            XCTAssertTrue(summary.contains(" passed, 0 failed; "), "\(api): \(summary)")
            XCTAssertFalse(summary.contains("skipped"), "\(api): \(summary)")
            XCTAssertEqual(server.stop(), 130)
        }
    }

    func testServeGithubAnswersNamedSamplesValueErrorsAndUnknownRoutes() throws {
        let (folder, environment) = try setUpFolder()
        let server = try ServeProcess(["github"], in: folder.url, environment: environment)
        let profile = try server.curl("/users/octocat")
        XCTAssertTrue(profile.hasPrefix("HTTP/1.1 200 OK\r\n"), profile)
        XCTAssertTrue(profile.contains(#""login":"octocat""#), profile)
        XCTAssertTrue(profile.contains(#""html_url":"https://github.com/octocat""#), profile)
        let missing = try server.curl("/users/octocat", ["-H", "Prefer: example=missing"])
        XCTAssertTrue(missing.hasPrefix("HTTP/1.1 404 Not Found\r\n"), missing)
        XCTAssertTrue(missing.contains(#""message":"Not Found""#), missing)
        let branches = try server.curl("/repos/Moya/Moya/branches?protected=true")
        XCTAssertTrue(branches.contains(#""protected":true"#), branches)
        let byCode = try server.curl("/repos/Moya/Moya/branches", ["-H", "Prefer: code=404"])
        XCTAssertTrue(byCode.hasPrefix("HTTP/1.1 404 Not Found\r\n"), byCode)
        let refused = try server.curl("/users/octocat", ["-H", "Prefer: example=offline"])
        XCTAssertEqual(refused, "", "a connectionRefused sample resets the connection")
        let badNumber = try server.curl("/repos/Moya/Moya/issues/first")
        XCTAssertTrue(badNumber.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), badNumber)
        XCTAssertTrue(
            badNumber.hasSuffix(
                #"{"error":"invalid value","value":"number","reason":"'first' is not an int for value 'number'","case":"github.issue"}"#
                    + "\n"), badNumber)
        let unknown = try server.curl("/user/octocat")
        XCTAssertTrue(unknown.hasPrefix("HTTP/1.1 404 Not Found\r\n"), unknown)
        XCTAssertTrue(unknown.contains(#""closest":["GET /users/{name} (github.userProfile)""#), unknown)
        let port = server.port
        XCTAssertEqual(server.stop(), 130)
        XCTAssertTrue(ServeProcess.canBind(port: port), "no socket left after Ctrl-C")
    }
}
