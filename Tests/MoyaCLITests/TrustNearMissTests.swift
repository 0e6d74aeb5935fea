import CLITestSupport
import Foundation
import TestServers
import XCTest

/// The trust rules at their edges, through the binary: a variable named like an allowed prefix but
/// not starting with it stays hidden from an untrusted file, and a trusted file writable by its
/// group or by everyone (either bit alone) is not trusted.
final class TrustNearMissTests: XCTestCase {
    var sandbox: Sandbox!
    var server: HTTPTestServer!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        server = try HTTPTestServer()
    }

    override func tearDown() {
        server.stop()
    }

    /// `PET_STORE_*` allows `PET_STORE_KEY`, not `PET_STOREFRONT_KEY`; `AWS_*` allows `AWS_REGION`,
    /// not `AWSSECRET`: the hidden ones take their fallbacks, and nothing of their values is sent or shown.
    func testANameNearAnAllowedPrefixStaysHidden() throws {
        try sandbox.write(
            "targets/near.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            headers:
              X-Store: "${PET_STORE_KEY}"
              X-Front: "${PET_STOREFRONT_KEY:-hidden}"
              X-Region: "${AWS_REGION}"
              X-Aws: "${AWSSECRET:-hidden}"
            cases:
              send: {path: /anything, sample: ok}
              front: {path: /anything, headers: {X-Need: "${PET_STOREFRONT_KEY}"}, sample: ok}
            """)
        let environment = [
            "MOYA_ALLOW_ENV": "PET_STORE_*:AWS_*", "PET_STORE_KEY": "store-1", "PET_STOREFRONT_KEY": "canary-front",
            "AWS_REGION": "eu-1", "AWSSECRET": "canary-aws"
        ]
        let sent = try sandbox.run(["call", "near", "send"], environment: environment)
        XCTAssertEqual(sent.status, 0, sent.stderr)
        let request = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(request.value(of: "X-Store"), "store-1")
        XCTAssertEqual(request.value(of: "X-Region"), "eu-1")
        XCTAssertEqual(request.value(of: "X-Front"), "hidden")
        XCTAssertEqual(request.value(of: "X-Aws"), "hidden")

        let refused = try sandbox.run(["call", "near", "front"], environment: environment)
        XCTAssertEqual(refused.status, 64, refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains(
                "environment variable 'PET_STOREFRONT_KEY' is set, but this target file is not trusted"),
            refused.stderr)
        XCTAssertEqual(server.receivedRequests.count, 1)

        let list = try sandbox.run(["list"], environment: environment)
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(
            list.stdout.contains(
                "AWSSECRET (not allowed), AWS_REGION, PET_STOREFRONT_KEY (not allowed), PET_STORE_KEY"),
            list.stdout)
        for output in [sent.stdout, sent.stderr, refused.stdout, refused.stderr, list.stdout] {
            XCTAssertFalse(output.contains("canary"), output)
        }
    }

    /// A file under MOYA_TRUSTED_TARGETS is trusted while only its owner may write it: group write
    /// (0o664, 0o620) and world write (0o646, 0o602, 0o666) each lose the trust; read bits do not.
    func testATrustedFileWritableByItsGroupOrByEveryoneIsNotTrusted() throws {
        let script = try sandbox.write("bin/token.sh", "#!/bin/sh\necho tok-from-command\n")
        chmod(script.path, 0o700)
        let file = try sandbox.write(
            "mine/guarded.yaml",
            """
            baseURL: http://127.0.0.1:\(server.port)
            auth: {type: command, command: ["\(script.path)"]}
            cases:
              whoami: {path: /bearer, sample: ok}
            """)
        let environment = ["MOYA_TRUSTED_TARGETS": sandbox.path("mine")]
        let modes: [(mode: mode_t, isTrusted: Bool)] = [
            (0o600, true), (0o644, true), (0o640, true), (0o604, true), (0o400, true),
            (0o664, false), (0o620, false), (0o646, false), (0o602, false), (0o666, false), (0o622, false)
        ]
        for (mode, isTrusted) in modes {
            XCTAssertEqual(chmod(file.path, mode), 0)
            let label = String(mode, radix: 8)
            let list = try sandbox.run(["list", "--targets", "mine"], environment: environment)
            XCTAssertEqual(list.status, 0, "\(label): \(list.stderr)")
            let row = list.stdout.split(separator: "\n").first { $0.hasPrefix("guarded ") }.map(String.init) ?? ""
            XCTAssertTrue(
                row.contains(isTrusted ? " trusted " : " untrusted "), "mode \(label): \(list.stdout)")

            let call = try sandbox.run(["call", "guarded", "whoami", "--targets", "mine"], environment: environment)
            if isTrusted {
                XCTAssertEqual(call.status, 0, "mode \(label): \(call.stderr)")
                XCTAssertTrue(call.stdout.contains("tok-from-command"), "mode \(label): \(call.stdout)")
            } else {
                XCTAssertEqual(call.status, 7, "mode \(label): \(call.stderr)")
                XCTAssertTrue(call.stderr.contains("is writable by other users"), "mode \(label): \(call.stderr)")
            }
        }
    }
}
