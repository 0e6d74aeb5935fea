import CLITestSupport
import Foundation
import TestServers
import XCTest

/// The world of an `oauth2` test: the test server (its token endpoint on `/oauth/token`), a
/// working folder with `targets/guarded.yaml`, and XDG_CACHE_HOME inside it.
final class OAuthFixture {
    let server: HTTPTestServer
    let folder: TemporaryFolder

    init() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try writeTarget()
    }

    func stop() {
        server.stop()
    }

    var cacheFolder: URL { folder.url.appendingPathComponent("cache/moya-cli") }

    var environment: [String: String] {
        [
            "XDG_CACHE_HOME": folder.url.appendingPathComponent("cache").path,
            "GUARDED_CLIENT_ID": OAuthTestAuthority.clientID,
            "GUARDED_CLIENT_SECRET": OAuthTestAuthority.clientSecret
        ]
    }

    /// The target file, its token URL with `query` (which shapes the token endpoint's answers).
    func writeTarget(query: String = "") throws {
        try folder.write(
            "targets/guarded.yaml",
            """
            api: guarded
            baseURL: http://127.0.0.1:\(server.port)
            auth:
              type: oauth2
              tokenURL: http://127.0.0.1:\(server.port)/oauth/token\(query)
              clientId: "${GUARDED_CLIENT_ID}"
              clientSecret: "${secret:GUARDED_CLIENT_SECRET}"
              scopes: [read, write]
            validation: successCodes
            cases:
              protected: {path: /oauth/protected, sample: {json: {ok: true}}}
              echo: {path: /anything/echo, sample: echoed}
            """)
    }

    /// Runs moya-cli in the folder with the fixture's environment and `extra`.
    func call(_ arguments: [String], environment extra: [String: String] = [:]) throws -> CLIResult {
        try CLIRunner.run(
            arguments, environment: environment.merging(extra) { _, new in new }, currentDirectory: folder.url)
    }

    /// The tokens the server handed out (`at-N-…`, `rt-N-…`), the client secret and the Basic
    /// pair appear in none of `texts`.
    func assertNoSecret(_ texts: String..., file: StaticString = #filePath, line: UInt = #line) {
        let basic = Data("\(OAuthTestAuthority.clientID):\(OAuthTestAuthority.clientSecret)".utf8).base64EncodedString()
        for text in texts {
            XCTAssertNil(
                text.range(of: #"[ar]t-[0-9]+-[0-9A-F]{8}"#, options: .regularExpression), text, file: file, line: line)
            XCTAssertFalse(text.contains(OAuthTestAuthority.clientSecret), text, file: file, line: line)
            XCTAssertFalse(text.contains(basic), text, file: file, line: line)
        }
    }

    /// The names in the cache folder.
    func cacheFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: cacheFolder.path).sorted()
    }

    /// How many requests reached `/oauth/protected`.
    var protectedRequestCount: Int {
        server.receivedRequests.filter { $0.path == "/oauth/protected" }.count
    }
}
