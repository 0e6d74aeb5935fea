import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 28, item 1: `--query NAME=VALUE` repeated keeps every value, in order, on `call`, `curl`
/// and `request`, for declared and undeclared names; what the server gets is what the real curl
/// sends for the same URL.
final class QueryRepetitionTests: WebTargetTestCase {
    override func webTarget(port: UInt16) -> String {
        """
        api: web
        baseURL: http://127.0.0.1:\(port)
        cases:
          find:
            description: a declared scalar (page) beside names the case does not declare
            values: [{term: string}, {page: {type: int, default: 1}}]
            path: /anything/find
            task: {parameters: {term: "{term}", page: "{page}"}, encoding: url}
            sample: ok
          labels:
            values: [{labels: [string]}]
            path: /anything/labels
            task: {parameters: {labels: "{labels}"}, encoding: url, arrayEncoding: noBrackets}
            sample: ok
          bracketed:
            values: [{labels: [string]}]
            path: /anything/bracketed
            task: {parameters: {labels: "{labels}"}, encoding: url}
            sample: ok
        """
    }

    private var curlPath: String? {
        ["/usr/bin/curl", "/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The request target the server got from the real curl asked for `pathAndQuery`.
    private func curlTarget(_ pathAndQuery: String) throws -> String? {
        let curl = try XCTUnwrap(curlPath)
        let result = try CLIRunner.runShell(
            "'\(curl)' -s -o /dev/null 'http://127.0.0.1:\(server.port)\(pathAndQuery)'", in: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        return server.receivedRequests.last?.target
    }

    /// Calls with `arguments`, then asks curl for `expected`: both must reach the server as `expected`.
    private func assertSent(
        _ arguments: [String], as expected: String, file: StaticString = #filePath, line: UInt = #line
    )
        throws
    {
        let result = try run(arguments)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertEqual(server.receivedRequests.last?.target, expected, file: file, line: line)
        XCTAssertEqual(try curlTarget(expected), expected, "curl sends the same", file: file, line: line)
    }

    func testAnUndeclaredNameRepeatedKeepsEveryValueInOrder() throws {
        try XCTSkipIf(curlPath == nil, "curl is not installed")
        try assertSent(
            ["call", "web", "find", "shoes", "--query", "tag=a", "--query", "tag=b", "--query", "tag=a b"],
            as: "/anything/find?page=1&term=shoes&tag=a&tag=b&tag=a%20b")
        try assertSent(
            ["call", "web", "find", "shoes", "--query", "tag=b", "--query", "x=1", "--query", "tag=a"],
            as: "/anything/find?page=1&term=shoes&tag=b&tag=a&x=1")
    }

    func testADeclaredScalarIsReplacedByEveryValueGiven() throws {
        try XCTSkipIf(curlPath == nil, "curl is not installed")
        // The case's page=1 goes; both values are sent where it was, as curl and xh send both.
        try assertSent(
            ["call", "web", "find", "shoes", "--query", "page=2", "--query", "page=3"],
            as: "/anything/find?page=2&page=3&term=shoes")
        // A removal starts again: the value after it is added at the end.
        try assertSent(
            ["call", "web", "find", "shoes", "--query", "page=2", "--query", "page", "--query", "page=9"],
            as: "/anything/find?term=shoes&page=9")
    }

    func testADeclaredListIsReplacedByTheValuesGivenUnderTheNameAsSent() throws {
        try XCTSkipIf(curlPath == nil, "curl is not installed")
        try assertSent(
            ["call", "web", "labels", "--labels", "x,y", "--query", "labels=a", "--query", "labels=b"],
            as: "/anything/labels?labels=a&labels=b")
        // With brackets the case sends labels[]; that is the name --query matches.
        try assertSent(
            ["call", "web", "bracketed", "--labels", "x,y", "--query", "labels[]=a", "--query", "labels[]=b"],
            as: "/anything/bracketed?labels%5B%5D=a&labels%5B%5D=b")
        try assertSent(
            ["call", "web", "bracketed", "--labels", "x", "--query", "labels=a", "--query", "labels=b"],
            as: "/anything/bracketed?labels%5B%5D=x&labels=a&labels=b")
    }

    func testRequestRepeatsQueryValuesBesideItsItems() throws {
        try XCTSkipIf(curlPath == nil, "curl is not installed")
        try assertSent(
            ["request", "web", "GET", "/anything/r", "keep==1", "tag==item", "--query", "tag=a", "--query", "tag=b"],
            as: "/anything/r?keep=1&tag=a&tag=b")
        try assertSent(
            [
                "request", "GET", "http://127.0.0.1:\(server.port)/anything/u?tag=z", "--query", "tag=a", "--query",
                "tag=b"
            ],
            as: "/anything/u?tag=a&tag=b")
    }

    func testTheCurlCommandSendsEveryValueWhenRunByTheRealCurl() throws {
        try XCTSkipIf(curlPath == nil, "curl is not installed")
        let arguments = ["web", "find", "shoes", "--query", "tag=a", "--query", "tag=b", "--query", "page=4"]
        let called = try run(["call"] + arguments)
        XCTAssertEqual(called.status, 0, called.stderr)
        let printed = try run(["curl"] + arguments)
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertTrue(
            printed.stdout.contains("'http://127.0.0.1:\(server.port)/anything/find?page=4&term=shoes&tag=a&tag=b'"),
            printed.stdout)
        let pasted = try CLIRunner.runShell(
            printed.stdout.trimmingCharacters(in: .newlines) + " -s -o /dev/null", in: folder.url)
        XCTAssertEqual(pasted.status, 0, pasted.stderr)
        let targets = server.receivedRequests.map(\.target)
        XCTAssertEqual(
            targets, ["/anything/find?page=4&term=shoes&tag=a&tag=b", "/anything/find?page=4&term=shoes&tag=a&tag=b"])
    }

    func testHostileNamesAndValuesStayInsideTheQuery() throws {
        let result = try run([
            "call", "web", "find", "shoes", "--query", "a&b=c=d", "--query", "a&b=#1", "--query", "x=\r\nHost: evil"
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            server.receivedRequests.last?.target,
            "/anything/find?page=1&term=shoes&a%26b=c%3Dd&a%26b=%231&x=%0D%0AHost%3A%20evil")
        XCTAssertEqual(server.receivedRequests.last?.values(of: "Host"), ["127.0.0.1:\(server.port)"])
    }
}
