import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 45: HTTP Digest authentication (RFC 7616) through libcurl, against the loopback
/// server's own implementation: `auth: {type: digest}` in a file, `--digest` with `-u`.
final class DigestAuthTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
        try sandbox.write(
            "targets/vault.yaml",
            """
            api: vault
            baseURL: http://127.0.0.1:\(server.port)
            validation: successCodes
            auth: {type: digest, username: bob, password: "${secret:VAULT_PASSWORD}"}
            cases:
              md5: {path: /digest-auth/auth/bob/pw-d1gest/MD5}
              sha256: {path: /digest-auth/auth/bob/pw-d1gest/SHA-256}
              stale: {path: /digest-auth/auth/bob/pw-d1gest/SHA-256/stale}
            """)
    }

    override func tearDown() {
        server.stop()
    }

    private let password = ["VAULT_PASSWORD": "pw-d1gest"]
    private let answer = #"{"authenticated":true,"user":"bob"}"#

    func testTheFilesDigestAuthAnswersMD5AndSHA256Challenges() throws {
        for (name, algorithm) in [("md5", "MD5"), ("sha256", "SHA-256")] {
            let before = server.receivedRequests.count
            assertRun(
                try sandbox.run(["call", "vault", name], environment: password), status: 0, stdout: answer, stderr: "")
            let requests = Array(server.receivedRequests.dropFirst(before))
            XCTAssertEqual(requests.count, 2, name)
            XCTAssertNil(requests.first?.value(of: "Authorization"), "the password is never sent up front")
            let answered = try XCTUnwrap(requests.last?.value(of: "Authorization"))
            XCTAssertTrue(answered.hasPrefix(#"Digest username="bob", realm="moya@test""#), answered)
            XCTAssertTrue(answered.contains("qop=auth") && answered.contains("algorithm=\(algorithm)"), answered)
        }
    }

    func testTheCurlCommandAnswersTheChallengeToo() throws {
        assertRun(
            try sandbox.run(["curl", "vault", "md5"], environment: password), status: 0,
            stdout:
                "curl -L --max-redirs 10 --connect-timeout 10 --speed-limit 1 --speed-time 60 --compressed --digest -u 'bob:<redacted>' -H 'User-Agent: moya-cli/0.1.0' 'http://127.0.0.1:\(server.port)/digest-auth/auth/bob/<redacted>/MD5'\n",
            stderr: "")
        let shown = try sandbox.run(["curl", "vault", "md5", "--show-secrets"], environment: password)
        XCTAssertTrue(shown.stdout.contains("--digest -u 'bob:pw-d1gest'"), shown.stdout)
    }

    func testAStaleNonceIsAnsweredAgainWithTheFreshOne() throws {
        assertRun(
            try sandbox.run(["call", "vault", "stale"], environment: password), status: 0, stdout: answer, stderr: "")
        XCTAssertEqual(server.receivedRequests.count, 3)
        XCTAssertTrue(
            server.receivedRequests.last?.value(of: "Authorization")?.contains(#"nonce="fresh-nonce""#) ?? false)
    }

    func testAWrongPasswordExits4() throws {
        let result = try sandbox.run(["call", "vault", "md5"], environment: ["VAULT_PASSWORD": "wrong-pw"])
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertEqual(result.stdout, #"{"authenticated":false}"#)
        XCTAssertFalse(result.stderr.contains("wrong-pw"), result.stderr)
    }

    func testDigestWithUAnswersTheChallengeAndVerboseShowsBothRoundTripsRedacted() throws {
        let url = "http://127.0.0.1:\(server.port)/digest-auth/auth/ann/pw-0ne-off/MD5"
        let result = try sandbox.run(["request", "GET", url, "--digest", "-u", "ann:pw-0ne-off", "-v"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, #"{"authenticated":true,"user":"ann"}"#)
        XCTAssertEqual(result.stderr.components(separatedBy: "> GET /digest-auth/auth/ann/<redacted>/MD5 ").count, 3)
        XCTAssertTrue(result.stderr.contains("< HTTP/1.1 401"), result.stderr)
        XCTAssertTrue(result.stderr.contains("> Authorization: Digest <redacted>"), result.stderr)
        XCTAssertFalse(result.stderr.contains("pw-0ne-off"), result.stderr)
        let basic = try sandbox.run(["request", "GET", url, "-u", "ann:pw-0ne-off"])
        XCTAssertEqual(basic.status, 4, "basic auth is no answer to a Digest challenge")
        assertRun(
            try sandbox.run(["call", "vault", "md5", "--digest"]), status: 64, stdout: "",
            stderr:
                "moya-cli: error: --digest answers a challenge with -u USER[:PASSWORD]; add -u\nUsage: moya-cli call [<options>] [<api-case-values> ...]\n"
        )
    }

    /// A redirect to another host gets no answer to its challenge: the credential is the first
    /// host's alone (libcurl's CURLOPT_UNRESTRICTED_AUTH off).
    func testADigestCredentialIsNotGivenToAHostARedirectLeadsTo() throws {
        let elsewhere = "http://localhost:\(server.port)/digest-auth/auth/ann/pw-0ne-off/MD5"
        let url =
            "http://127.0.0.1:\(server.port)/redirect-to?url="
            + (elsewhere.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        let result = try sandbox.run(["request", "GET", url, "--digest", "-u", "ann:pw-0ne-off"])
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Host"), "localhost:\(server.port)")
        XCTAssertTrue(server.receivedRequests.allSatisfy { $0.value(of: "Authorization") == nil })
    }

    /// A hostile challenge (malformed, huge, an unknown algorithm, control characters) is no
    /// answer: the 401 is the result, exit 4, nothing else.
    func testAHostileChallengeEndsWithThe401() throws {
        let challenges = [
            "Digest", "Digest realm", "Digest realm=\"r\", nonce=\"" + String(repeating: "n", count: 20_000) + "\"",
            "Digest realm=\"r\", nonce=\"n\", algorithm=MD4, qop=\"auth\"", "Digest realm=\"r\u{1b}[2J\", nonce=\"n\""
        ]
        for challenge in challenges {
            let header =
                ("WWW-Authenticate:" + challenge).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let url = "http://127.0.0.1:\(server.port)/status/401?header=" + header
            let result = try sandbox.run(["request", "GET", url, "--digest", "-u", "ann:pw-0ne-off"])
            XCTAssertEqual(result.status, 4, String(challenge.prefix(40)) + ": " + result.stderr)
            XCTAssertTrue(result.stderr.contains("HTTP 401"), String(challenge.prefix(40)) + ": " + result.stderr)
            XCTAssertFalse(result.stderr.contains("\u{1b}"), result.stderr)
        }
    }
}
