import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 26, item 8: a body read from standard input or a file (`--data -`, `--json -`, `@FILE`)
/// is bounded. Past `--max-body-size` it is a usage error naming the option and the limit, also
/// for an input that never ends; a large `--data -` is sent intact from a temporary file that is
/// gone from its folder at once. (Memory is measured by `make bench`, not here.)
final class StreamBodyTests: WebTargetTestCase {
    override func webTarget(port: UInt16) -> String {
        """
        api: web
        baseURL: http://127.0.0.1:\(port)
        cases:
          create: {method: POST, path: /post, sample: ok}
          replace: {method: PUT, path: /put, sample: ok}
        """
    }

    var binary: String { "'\(CLIRunner.binaryURL.path)'" }

    /// A private TMPDIR, to see that nothing is left in it.
    var spoolFolder: URL { folder.url.appendingPathComponent("tmp") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(at: spoolFolder, withIntermediateDirectories: true)
    }

    /// `command` in a shell, killed after 60 s so that a hang fails the test (exit 124) instead of stalling it.
    func shell(_ command: String) throws -> CLIResult {
        try CLIRunner.runShell(
            "timeout 60 sh -c \"\(command)\"", in: folder.url, environment: ["TMPDIR": spoolFolder.path])
    }

    func tooLarge(_ place: String, _ source: String, limit: String) -> String {
        "moya-cli: error: \(place): \(source) holds more than \(limit), the most a body read from a stream may take "
            + "(--max-body-size); raise --max-body-size to send more\n"
    }

    func testStandardInputPastTheLimitIsAUsageErrorNamingTheOptionAndTheLimit() throws {
        for option in ["--json", "--data"] {
            let result = try shell(
                "head -c 3145728 /dev/zero 2>/dev/null | \(binary) call web create \(option) - --max-body-size 1M")
            XCTAssertEqual(result.status, 64, result.stderr)
            XCTAssertEqual(result.stderr, tooLarge("\(option) -", "standard input", limit: "1 MiB"))
            XCTAssertEqual(result.stdout, "")
        }
        // Exactly the limit is allowed (a JSON document of 1 MiB).
        let exact = try shell(
            "(printf '\\\"'; head -c 1048574 /dev/zero | tr '\\\\0' a; printf '\\\"') | \(binary) call web create --json - --max-body-size 1M"
        )
        XCTAssertEqual(exact.status, 0, exact.stderr)
        XCTAssertEqual(server.receivedRequests.map(\.body.count), [1 << 20])
    }

    func testAnEndlessStandardInputEndsWithAUsageError() throws {
        for (writer, option) in [("yes", "--json"), ("yes", "--data"), ("cat /dev/zero", "--data")] {
            let result = try shell("\(writer) 2>/dev/null | \(binary) call web create \(option) - --max-body-size 4M")
            XCTAssertEqual(result.status, 64, "\(writer) | … \(option) -: \(result.stderr)")
            XCTAssertEqual(result.stderr, tooLarge("\(option) -", "standard input", limit: "4 MiB"))
        }
        // With the default limit too, under a 1 GB address-space limit (where all of standard
        // input held in memory aborted with a stack trace, exit 134): --json - holds up to the
        // limit, --data - keeps it in a temporary file.
        for option in ["--json", "--data"] {
            let limited = try shell("yes 2>/dev/null | (ulimit -v 1000000; \(binary) call web create \(option) -)")
            XCTAssertEqual(limited.status, 64, limited.stderr)
            XCTAssertEqual(limited.stderr, tooLarge("\(option) -", "standard input", limit: "256 MiB"))
        }
        XCTAssertEqual(server.receivedRequests.count, 0, "nothing sent")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: spoolFolder.path), [], "no temporary file left")
    }

    func testALargeDataBodyFromStandardInputArrivesIntact() throws {
        XCTAssertEqual(try shell("head -c \(8 << 20) /dev/urandom > big.bin").status, 0)
        let body = try Data(contentsOf: folder.url.appendingPathComponent("big.bin"))
        XCTAssertEqual(body.count, 8 << 20)
        let piped = try shell("cat big.bin | \(binary) call web create --data -")
        XCTAssertEqual(piped.status, 0, piped.stderr)
        let redirected = try shell("\(binary) call web replace --data - < big.bin")
        XCTAssertEqual(redirected.status, 0, redirected.stderr)
        let fromFile = try shell("\(binary) call web replace --data @big.bin")
        XCTAssertEqual(fromFile.status, 0, fromFile.stderr)
        let small = try shell("printf small | \(binary) call web replace --data -")
        XCTAssertEqual(small.status, 0, small.stderr)
        let received = server.receivedRequests
        XCTAssertEqual(received.map(\.method), ["POST", "PUT", "PUT", "PUT"])
        XCTAssertTrue(received.prefix(3).allSatisfy { $0.body == body }, "the body arrives intact")
        XCTAssertEqual(
            received.prefix(3).map { $0.value(of: "Content-Length") }, Array(repeating: String(8 << 20), count: 3))
        // The same request whatever the body's size: libcurl's form label on a body from memory.
        XCTAssertEqual(
            received.map { $0.value(of: "Content-Type") },
            Array(repeating: "application/x-www-form-urlencoded", count: 4))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: spoolFolder.path), [], "no temporary file left")
        // -v says where the body came from, not the temporary file's descriptor.
        let verbose = try shell("cat big.bin | \(binary) call web create --data - -v")
        XCTAssertEqual(verbose.status, 0, verbose.stderr)
        XCTAssertTrue(
            verbose.stderr.contains("[the body read from standard input, kept in a temporary file]"), verbose.stderr)
        XCTAssertEqual(server.receivedRequests.last?.body, body)
    }

    func testFilesThatAreNotRegularAreRefusedWithoutWaiting() throws {
        XCTAssertEqual(mkfifo(folder.url.appendingPathComponent("fifo").path, 0o600), 0)
        for (option, file) in [
            ("--data", "/dev/zero"), ("--json", "/dev/zero"), ("--data", "fifo"), ("--json", "fifo"),
            ("--data", "/dev/stdin")
        ] {
            let result = try shell("\(binary) call web create \(option) @\(file)")
            XCTAssertEqual(result.status, 64, "\(option) @\(file): \(result.stderr)")
            XCTAssertEqual(result.stderr, "moya-cli: error: \(option) @\(file): not a readable regular file\n")
        }
        // A small regular file is sent whatever the limit (it was before there was one); a JSON
        // file past the limit is refused like standard input.
        try Data(repeating: UInt8(ascii: "x"), count: 2048).write(to: folder.url.appendingPathComponent("small.txt"))
        let small = try shell("\(binary) call web create --data @small.txt --max-body-size 1K")
        XCTAssertEqual(small.status, 0, small.stderr)
        XCTAssertEqual(server.receivedRequests.map(\.body.count), [2048])
        try Data(repeating: UInt8(ascii: " "), count: 2 << 20).write(
            to: folder.url.appendingPathComponent("spaces.json"))
        let large = try shell("\(binary) call web create --json @spaces.json --max-body-size 1M")
        XCTAssertEqual(large.status, 64, large.stderr)
        XCTAssertEqual(large.stderr, tooLarge("--json @spaces.json", "spaces.json", limit: "1 MiB"))
        XCTAssertEqual(server.receivedRequests.count, 1, "nothing else sent")
    }
}
