import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 46, item 4: `--continue` keeps `FILE.part` when a transfer is cut or interrupted and asks
/// for the rest next time (`Range`, `If-Range`); a changed resource or a server that ignores ranges
/// starts over instead of splicing; `--retry` resumes within the run.
final class ResumedDownloadTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!
    let size = 300_000

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write(
            "targets/files.yaml",
            """
            api: files
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              file:
                values: [{mode: {type: string, default: whole}}]
                path: /ranged/\(size)
                task: {download: "got/file.bin", parameters: {etag: "v1", mode: "{mode}"}, encoding: url}
              changed:
                path: /ranged/\(size)
                task: {download: "got/file.bin", parameters: {etag: "v2"}, encoding: url}
              plain:
                values: [{mode: {type: string, default: whole}}]
                path: /ranged/\(size)
                task: {parameters: {mode: "{mode}"}, encoding: url}
            """)
    }

    override func tearDown() {
        server.stop()
    }

    func run(_ arguments: [String]) throws -> CLIResult {
        try CLIRunner.run(arguments, environment: ["HOME": folder.url.path], currentDirectory: folder.url)
    }

    func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }

    func contents(_ name: String) -> Data? { FileManager.default.contents(atPath: path(name)) }

    var whole: Data { TestBytes.data(count: size) }

    func testADownloadCutAtHalfIsResumedByteIdentical() throws {
        let cut = try run(["call", "files", "file", "cut", "--continue"])
        XCTAssertEqual(cut.status, 1, cut.stderr)
        XCTAssertTrue(cut.stderr.contains("got/file.bin.part is kept: run again with --continue"), cut.stderr)
        XCTAssertEqual(contents("got/file.bin.part"), TestBytes.data(count: size / 2))
        XCTAssertEqual(contents("got/file.bin.part.validator"), Data("\"v1\"\n".utf8))
        XCTAssertNil(contents("got/file.bin"))

        let resumed = try run(["call", "files", "file", "cut", "--continue"])
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        let request = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(request.value(of: "Range"), "bytes=\(size / 2)-")
        XCTAssertEqual(request.value(of: "If-Range"), "\"v1\"")
        XCTAssertEqual(contents("got/file.bin"), whole)
        XCTAssertNil(contents("got/file.bin.part"))
        XCTAssertNil(contents("got/file.bin.part.validator"))
    }

    func testRetryResumesInsteadOfStartingAgain() throws {
        let result = try run(["call", "files", "plain", "cut", "-o", "out.bin", "--continue", "--retry", "2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("retrying"), result.stderr)
        XCTAssertEqual(contents("out.bin"), whole)
        let requests = server.receivedRequests
        XCTAssertEqual(requests.count, 2)
        XCTAssertNil(requests.first?.value(of: "Range"))
        XCTAssertEqual(requests.last?.value(of: "Range"), "bytes=\(size / 2)-")
        XCTAssertEqual(requests.last?.bodyLength, 0)
    }

    func testAChangedETagStartsOver() throws {
        XCTAssertEqual(try run(["call", "files", "file", "cut", "--continue"]).status, 1)
        // The resource is now v2: If-Range "v1" does not match, and the whole body comes back.
        let restarted = try run(["call", "files", "changed", "--continue"])
        XCTAssertEqual(restarted.status, 0, restarted.stderr)
        XCTAssertEqual(server.receivedRequests.last?.value(of: "If-Range"), "\"v1\"")
        XCTAssertEqual(contents("got/file.bin"), whole, "the whole body, not the old half and another")
    }

    func testAServerIgnoringRangesDoesNotCorruptTheFile() throws {
        XCTAssertEqual(try run(["call", "files", "plain", "cut", "-o", "out.bin", "--continue"]).status, 1)
        XCTAssertEqual(contents("out.bin.part")?.count, size / 2)
        let result = try run(["call", "files", "plain", "ignore-range", "-o", "out.bin", "--continue"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertNotNil(server.receivedRequests.last?.value(of: "Range"))
        XCTAssertEqual(contents("out.bin"), whole)
    }

    func testA416WithTheWholeLengthMeansDone() throws {
        FileManager.default.createFile(atPath: path("out.bin.part"), contents: whole)
        let result = try run(["call", "files", "plain", "-o", "out.bin", "--continue"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Range"), "bytes=\(size)-")
        XCTAssertTrue(result.stderr.contains("was already whole"), result.stderr)
        XCTAssertEqual(contents("out.bin"), whole)
    }

    func testSIGINTMidDownloadKeepsThePart() throws {
        let run = try CLIRunner.interrupt(
            ["call", "files", "file", "stall", "--continue"], in: folder.url,
            when: { (contents("got/file.bin.part")?.count ?? 0) >= size / 2 }
        ) { _ in () }
        XCTAssertEqual(run.status, 130, run.stderr)
        XCTAssertEqual(contents("got/file.bin.part"), TestBytes.data(count: size / 2))
        let resumed = try self.run(["call", "files", "file", "--continue"])
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertEqual(contents("got/file.bin"), whole)
    }

    func testHostileValidatorsAndPlacesAreRefused() throws {
        // A sidecar holding a header line break is not sent: the request carries Range alone.
        FileManager.default.createFile(atPath: path("out.bin.part"), contents: TestBytes.data(count: 10))
        FileManager.default.createFile(
            atPath: path("out.bin.part.validator"), contents: Data("\"v1\"\r\nX-Injected: 1\n".utf8))
        let result = try run(["call", "files", "plain", "-o", "out.bin", "--continue"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertNil(request.value(of: "If-Range"))
        XCTAssertNil(request.value(of: "X-Injected"))
        XCTAssertEqual(contents("out.bin"), whole)
        // A .part that is a link is never followed; --continue needs a file to resume.
        XCTAssertEqual(symlink("/etc/hostname", path("link.bin.part")), 0)
        let linked = try run(["call", "files", "plain", "-o", "link.bin", "--continue"])
        XCTAssertEqual(linked.status, 74, linked.stderr)
        XCTAssertTrue(linked.stderr.contains("link.bin.part: it is not a regular file"), linked.stderr)
        let nowhere = try run(["call", "files", "plain", "--continue"])
        XCTAssertEqual(nowhere.status, 64, nowhere.stderr)
        XCTAssertTrue(nowhere.stderr.contains("--continue resumes a file"), nowhere.stderr)
    }
}
