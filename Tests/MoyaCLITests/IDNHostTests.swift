import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 46 item 8: an internationalised host name is sent as punycode, as curl sends it.
final class IDNHostTests: WebTargetTestCase {
    override func webTarget(port: UInt16) -> String {
        """
        api: web
        baseURL: http://Bücher.example:\(port)
        cases:
          echo: {path: /anything, sample: ok}
        """
    }

    func testAnInternationalisedHostIsSentAsPunycode() throws {
        let validated = try run(["validate"])
        XCTAssertEqual(validated.status, 0, validated.stderr)
        let resolve = "xn--bcher-kva.example:\(server.port):127.0.0.1"
        let called = try run(["call", "web", "echo", "--resolve", resolve])
        XCTAssertEqual(called.status, 0, called.stderr)
        let adHoc = try run([
            "request", "GET", "http://münchen.example:\(server.port)/anything",
            "--resolve", "xn--mnchen-3ya.example:\(server.port):127.0.0.1"
        ])
        XCTAssertEqual(adHoc.status, 0, adHoc.stderr)
        XCTAssertEqual(
            server.receivedRequests.map { $0.value(of: "Host") },
            ["xn--bcher-kva.example:\(server.port)", "xn--mnchen-3ya.example:\(server.port)"])
        // Messages and the curl command show the host as written.
        // (Port 1 on loopback: refused, with no name looked up.)
        let refused = try run([
            "call", "web", "echo", "--base-url", "http://Bücher.example:1", "--resolve",
            "xn--bcher-kva.example:1:127.0.0.1"
        ])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("Bücher.example"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("xn--"), refused.stderr)
        let curl = try run(["curl", "web", "echo"])
        XCTAssertTrue(curl.stdout.contains("'http://Bücher.example:\(server.port)/anything'"), curl.stdout)
    }
}
