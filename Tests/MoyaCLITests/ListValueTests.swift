import CLITestSupport
import Foundation
import TestServers
import XCTest

/// List values over real HTTP: repeated and comma-separated on the command line, sent with each
/// `arrayEncoding`, as a JSON array and as a header.
final class ListValueTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write(
            "targets/labels.yaml",
            """
            api: labels
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              brackets:
                values: [{labels: [string]}]
                path: /anything/brackets
                task: {parameters: {labels: "{labels}"}, encoding: url}
                sample: ok
              noBrackets:
                values: [{labels: [string]}]
                path: /anything/noBrackets
                task: {parameters: {labels: "{labels}"}, encoding: url, arrayEncoding: noBrackets}
                sample: ok
              comma:
                values: [{labels: [string]}, {ids: {type: [int], optional: true}}]
                path: /anything/comma
                task: {parameters: {labels: "{labels}", ids: "{ids}"}, encoding: url, arrayEncoding: comma}
                sample: ok
              create:
                method: POST
                values: [{title: string}, {labels: [enum: [bug, ui, docs]]}, {ids: {type: [int], default: [1]}}]
                path: /anything/issues
                headers: {X-Labels: "{labels}"}
                task: {json: {title: "{title}", labels: "{labels}", ids: "{ids}"}}
                sample: ok
                examples: [{title: T, labels: [bug, ui], ids: [2, 3]}]
            """)
    }

    override func tearDown() {
        server.stop()
    }

    func call(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(arguments, currentDirectory: folder.url)
    }

    func testBracketsRepeatedAndCommaSeparated() throws {
        let result = try call(["call", "labels", "brackets", "--labels", "bug", "--labels", "ui,docs"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            try XCTUnwrap(server.receivedRequests.last).target,
            "/anything/brackets?labels%5B%5D=bug&labels%5B%5D=ui&labels%5B%5D=docs")
    }

    func testNoBrackets() throws {
        let result = try call(["call", "labels", "noBrackets", "bug,ui"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try XCTUnwrap(server.receivedRequests.last).target, "/anything/noBrackets?labels=bug&labels=ui")
    }

    func testCommaJoinsAndEscapesElements() throws {
        let result = try call(["call", "labels", "comma", "--labels", "bug", "--labels", "a b", "--ids", "1,2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try XCTUnwrap(server.receivedRequests.last).target, "/anything/comma?ids=1,2&labels=bug,a%20b")
        let bare = try call(["call", "labels", "comma", "x"])
        XCTAssertEqual(bare.status, 0, bare.stderr)
        XCTAssertEqual(try XCTUnwrap(server.receivedRequests.last).target, "/anything/comma?labels=x")
    }

    func testJSONArrayAndHeader() throws {
        let result = try call(["call", "labels", "create", "Crash", "--labels", "bug", "--labels", "ui"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(
            String(decoding: request.body, as: UTF8.self), #"{"title":"Crash","labels":["bug","ui"],"ids":[1]}"#)
        XCTAssertEqual(request.value(of: "X-Labels"), "bug, ui")
    }

    func testBadElementsAndRepeatedScalarsAreUsageErrors() throws {
        let bad = try call(["call", "labels", "create", "Crash", "--labels", "bug,nope"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("'nope' is not one of bug, ui, docs for value 'labels'"), bad.stderr)
        let twice = try call(["call", "labels", "create", "--title", "a", "--title", "b", "--labels", "bug"])
        XCTAssertEqual(twice.status, 64)
        XCTAssertTrue(
            twice.stderr.contains("value --title is given twice; only a list value can be repeated"), twice.stderr)
    }

    func testHelpShowsListsAndExamplesRepeatTheOption() throws {
        let help = try call(["call", "labels", "create", "--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(
            help.stdout.hasPrefix("USAGE: moya-cli call labels create <title> <labels> [--ids <[int]>]\n"), help.stdout)
        XCTAssertTrue(help.stdout.contains("  moya-cli call labels create T 'bug,ui' --ids 2 --ids 3\n"), help.stdout)
    }
}
