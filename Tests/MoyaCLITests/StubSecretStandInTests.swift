import CLITestSupport
import Foundation
import TestServers
import XCTest

/// A stubbed request is never sent: a secret the file reads and nobody set is stood in for, so
/// offline `check` and `--stub` run in CI without credentials; a live request never gets the
/// stand-in, and a plain variable, which shapes the request, must still be set.
final class StubSecretStandInTests: XCTestCase {
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        try sandbox.write(
            "targets/vault.yaml",
            """
            api: vault
            baseURL: http://127.0.0.1:9/v1
            headers: {X-Vault-Token: "${secret:VAULT_TOKEN}"}
            auth: {type: basic, username: "${VAULT_USER}", password: "${VAULT_PASSWORD}"}
            cases:
              health: {path: /health, sample: {json: {ok: true}}}
              mounts: {baseURL: "http://${MOUNT_HOST}/v1", path: /list, sample: {json: {}}}
            """)
    }

    func testOfflineCheckAndStubPassWithNoSecretSet() throws {
        let check = try sandbox.run(["check", "vault", "--only", "health"], environment: [:])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        let stub = try sandbox.run(["call", "vault", "health", "--stub", "-v"])
        XCTAssertEqual(stub.status, 0, stub.stderr)
        XCTAssertEqual(stub.stdout, #"{"ok":true}"#)
        XCTAssertFalse(
            stub.stderr.contains("moya-offline-secret"), "a stand-in is redacted as a secret: \(stub.stderr)")
    }

    func testAPlainVariableIsNotStoodIn() throws {
        let check = try sandbox.run(["check", "vault", "--only", "mounts"])
        XCTAssertNotEqual(check.status, 0, check.stdout)
        XCTAssertTrue(
            (check.stdout + check.stderr).contains("environment variable 'MOUNT_HOST' is not set"),
            check.stdout + check.stderr)
    }

    func testALiveRequestNeverGetsTheStandIn() throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        try sandbox.write(
            "targets/vault.yaml",
            """
            api: vault
            baseURL: http://127.0.0.1:\(server.port)
            headers: {X-Vault-Token: "${secret:VAULT_TOKEN}"}
            cases:
              health: {path: /get, sample: {json: {}}}
            """)
        let call = try sandbox.run(["call", "vault", "health"])
        XCTAssertNotEqual(call.status, 0)
        XCTAssertTrue(call.stderr.contains("'VAULT_TOKEN' is not set"), call.stderr)
        let live = try sandbox.run(["check", "vault", "--live"])
        XCTAssertNotEqual(live.status, 0)
        XCTAssertEqual(server.receivedRequests.count, 0, "nothing is sent without the secret")
    }
}
