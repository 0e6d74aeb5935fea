import CLITestSupport
import Foundation
import TestServers
import XCTest

/// A case's method is any RFC 9110 method name in upper case (`PURGE`, `QUERY`, `PROPFIND`), as
/// `Moya.Method(rawValue:)` is: declared, sent, checked, retried by its meaning, and served.
final class MethodTokenTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
        try sandbox.write(
            "targets/cdn.yaml",
            """
            api: cdn
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              purge:
                method: PURGE
                values: [{key: string}]
                path: /anything/cache/{key}
                sample: {json: {method: PURGE}}
                examples: [[logo]]
              search:
                method: QUERY
                path: /anything/search
                task: {parameters: {q: lamp}, encoding: json}
                sample: {json: {method: QUERY}}
              find:
                method: PROPFIND
                path: /anything/dav
                headers: {Depth: "1"}
                sample: {text: "<multistatus/>"}
              flaky:
                method: QUERY
                path: /status/503
                task: {parameters: {q: x}, encoding: json}
                sample: {json: {}}
              flakyPurge:
                method: PURGE
                path: /status/503
                sample: {json: {}}
            """)
    }

    override func tearDown() {
        server.stop()
    }

    func testOtherMethodsValidateAndAreSentAsWritten() throws {
        let validate = try sandbox.run(["validate", "targets/cdn.yaml"])
        XCTAssertEqual(validate.status, 0, validate.stderr)
        let purge = try sandbox.run(["call", "cdn", "purge", "logo"])
        XCTAssertEqual(purge.status, 0, purge.stderr)
        let search = try sandbox.run(["call", "cdn", "search"])
        XCTAssertEqual(search.status, 0, search.stderr)
        let find = try sandbox.run(["call", "cdn", "find"])
        XCTAssertEqual(find.status, 0, find.stderr)
        let received = server.receivedRequests
        XCTAssertEqual(received.map(\.method), ["PURGE", "QUERY", "PROPFIND"])
        XCTAssertEqual(received.map(\.path), ["/anything/cache/logo", "/anything/search", "/anything/dav"])
        XCTAssertEqual(String(decoding: received[1].body, as: UTF8.self), #"{"q":"lamp"}"#)
        XCTAssertEqual(received[1].value(of: "Content-Type"), "application/json")
        XCTAssertEqual(received[2].value(of: "Depth"), "1")
        let curl = try sandbox.run(["curl", "cdn", "purge", "logo"])
        XCTAssertTrue(curl.stdout.contains("-X PURGE"), curl.stdout)
    }

    func testLiveCheckSendsQUERYButNotAnUnsafeMethodWithoutIncludeUnsafe() throws {
        let check = try sandbox.run(["check", "cdn", "--live", "--only", "purge", "--only", "search"])
        XCTAssertEqual(server.receivedRequests.map(\.method), ["QUERY"], check.stdout + check.stderr)
        XCTAssertTrue(
            (check.stdout + check.stderr).contains("PURGE is not sent live; add --include-unsafe"),
            check.stdout + check.stderr)
        let unsafe = try sandbox.run(
            ["check", "cdn", "--live", "--only", "purge", "--only", "search", "--include-unsafe"])
        XCTAssertEqual(unsafe.status, 0, unsafe.stdout + unsafe.stderr)
        XCTAssertEqual(server.receivedRequests.map(\.method).sorted(), ["PURGE", "QUERY", "QUERY"])
    }

    func testRetryRepeatsQUERYButNotAMethodOfUnknownMeaning() throws {
        _ = try sandbox.run(["call", "cdn", "flaky", "--retry", "1"])
        XCTAssertEqual(server.receivedRequests.count, 2, "QUERY is idempotent: retried")
        _ = try sandbox.run(["call", "cdn", "flakyPurge", "--retry", "1"])
        XCTAssertEqual(server.receivedRequests.count, 3, "PURGE is not known to be idempotent: sent once")
        _ = try sandbox.run(["call", "cdn", "flakyPurge", "--retry", "1", "--retry-all"])
        XCTAssertEqual(server.receivedRequests.count, 5)
    }

    func testNearMissesAndLowerCaseAreRefusedWithTheirPlace() throws {
        for (method, message) in [
            ("POTS", "unknown method 'POTS'; did you mean 'POST'?"),
            ("purge", "a method is written in upper case: 'PURGE'"),
            ("PUR GE", "invalid method 'PUR GE'; a method is a name of letters, digits and !#$%&'*+-.^_`|~ (RFC 9110)")
        ] {
            try sandbox.write(
                "targets/bad.yaml",
                "api: bad\nbaseURL: http://127.0.0.1:1\ncases:\n  a:\n    path: /a\n    method: \(method)\n")
            let result = try sandbox.run(["validate", "targets/bad.yaml"])
            XCTAssertEqual(result.status, 65, method)
            XCTAssertTrue(result.stderr.contains("bad.yaml:6:13: error: " + message), result.stderr)
        }
    }

    func testServeAnswersAnotherMethodsCase() throws {
        let server = try ServeProcess(["cdn"], in: sandbox.root)
        defer { _ = server.stop() }
        XCTAssertNotEqual(server.port, 0, server.stderr)
        let purged = try server.curl("/anything/cache/logo", ["-X", "PURGE"])
        XCTAssertTrue(purged.hasPrefix("HTTP/1.1 200 OK\r\n"), purged)
        XCTAssertTrue(purged.hasSuffix(#"{"method":"PURGE"}"#), purged)
        let other = try server.curl("/anything/cache/logo", ["-X", "GET"])
        XCTAssertTrue(other.hasPrefix("HTTP/1.1 405 "), other)
        let searched = try server.curl("/anything/search", ["-X", "QUERY", "--json", #"{"q":"lamp"}"#])
        XCTAssertTrue(searched.hasPrefix("HTTP/1.1 200 OK\r\n"), searched)
    }
}
