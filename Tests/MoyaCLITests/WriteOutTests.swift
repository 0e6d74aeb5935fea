import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 47, items 3 and 5: status, headers and timings next to a saved body (`-w`, `-D`,
/// `--meta`, `--format json -o`, `-v`'s timing line), and only what was asked for (`--headers-only`
/// ending the transfer, `-p`, `request -I`). Through the binary, against the loopback server.
final class WriteOutTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
    }

    override func tearDown() {
        server.stop()
    }

    func url(_ path: String) -> String { server.url(path).absoluteString }

    /// `request GET URL` and `arguments`.
    func get(_ path: String, _ arguments: [String]) throws -> CLIResult {
        try sandbox.run(["request", "GET", url(path)] + arguments)
    }

    static let variables = [
        "http_code", "response_code", "time_namelookup", "time_connect", "time_appconnect", "time_pretransfer",
        "time_starttransfer", "time_total", "size_download", "size_upload", "size_header", "size_request",
        "speed_download", "speed_upload", "url_effective", "num_redirects", "remote_ip", "remote_port",
        "content_type", "exitcode", "errormsg"
    ]

    func testJSONHoldsEveryVariable() throws {
        let result = try get("/json", ["-o", "out.json", "-s", "-w", "%{json}"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
        XCTAssertEqual(Set(object.keys), Set(Self.variables))
        XCTAssertEqual(object["http_code"] as? Int, 200)
        XCTAssertEqual(object["size_download"] as? Int, HTTPTestServer.jsonDocument.utf8.count)
        XCTAssertEqual(object["url_effective"] as? String, url("/json"))
        XCTAssertEqual(object["remote_ip"] as? String, "127.0.0.1")
        XCTAssertEqual(object["remote_port"] as? Int, Int(server.port))
        XCTAssertEqual(object["content_type"] as? String, "application/json")
        XCTAssertEqual(object["exitcode"] as? Int, 0)
        XCTAssertTrue(object["errormsg"] is NSNull)
        let total = try XCTUnwrap(object["time_total"] as? Double)
        let firstByte = try XCTUnwrap(object["time_starttransfer"] as? Double)
        XCTAssertGreaterThan(total, 0)
        XCTAssertLessThanOrEqual(firstByte, total)
        XCTAssertGreaterThan(try XCTUnwrap(object["size_request"] as? Int), 0)
        XCTAssertGreaterThan(try XCTUnwrap(object["size_header"] as? Int), 0)
        XCTAssertEqual(
            try Data(contentsOf: sandbox.root.appendingPathComponent("out.json")),
            Data(HTTPTestServer.jsonDocument.utf8))
    }

    /// Each row: the path, the format, what follows the body on stdout.
    func testVariablesAfterTheBody() throws {
        let rows: [(String, String, String)] = [
            ("/status/204", "%{http_code} %{response_code}\\n", "204 204\n"),
            ("/redirect/2", "%{num_redirects} %{url_effective}", "2 " + url("/get")),
            (
                "/json", "%header{content-type}|%{header{Content-Type}}|%{content_type}",
                "application/json|application/json|application/json"
            ),
            ("/json", "%{size_download}\\t100%%\\r", "\(HTTPTestServer.jsonDocument.utf8.count)\t100%\r"),
            ("/status/204", "%header{missing}.", ".")
        ]
        for (path, format, written) in rows {
            let result = try get(path, ["-w", format])
            XCTAssertEqual(result.status, 0, "\(format): \(result.stderr)")
            XCTAssertTrue(result.stdout.hasSuffix(written), "\(format): \(result.stdout.debugDescription)")
        }
    }

    func testStandardErrorSwitchAndFormatFromAFile() throws {
        let switched = try get("/status/204", ["-w", "a%{stderr}b%{http_code}%{stdout}c"])
        XCTAssertEqual(switched.stdout, "ac")
        XCTAssertEqual(switched.stderr, "b204")
        try sandbox.write("format.txt", "%{http_code}\\n")
        XCTAssertEqual(try get("/status/204", ["-w", "@format.txt"]).stdout, "204\n")
        let missing = try get("/status/204", ["-w", "@absent.txt"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.stderr.contains("-w @absent.txt: cannot read the format"), missing.stderr)
    }

    func testAnUnknownVariableSendsNothing() throws {
        let result = try get("/get", ["-w", "%{nope}"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("-w: unknown variable %{nope}"), result.stderr)
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    func testSecretsAreRedacted() throws {
        let result = try get(
            "/response-headers?X-Echo=hunter2&Set-Cookie=session%3Dabc123",
            ["-u", "ada:hunter2", "-w", "%header{x-echo}|%header{set-cookie}|%{json}", "-o", "/dev/null"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stdout.contains("hunter2"), result.stdout)
        // The run's password wherever it shows (the URL too), a sensitive header by its name.
        XCTAssertTrue(result.stdout.hasPrefix("<redacted>|<redacted>|{"), result.stdout)
        XCTAssertTrue(result.stdout.contains("?X-Echo=<redacted>&"), result.stdout)
    }

    func testFailuresGiveTheExitCodeAndMessage() throws {
        let notFound = try get("/status/404", ["-w", "%{exitcode} %{http_code}"])
        XCTAssertEqual(notFound.status, 4)
        XCTAssertTrue(notFound.stdout.hasSuffix("4 404"), notFound.stdout)
        let closed = try sandbox.run([
            "request", "GET", "http://127.0.0.1:9/x", "-w", "%{exitcode} %{http_code} %{errormsg}"
        ])
        XCTAssertEqual(closed.status, 1)
        XCTAssertTrue(closed.stdout.hasPrefix("1 0 "), closed.stdout)
        XCTAssertGreaterThan(closed.stdout.count, 6)
    }

    func testDumpHeaderEqualsTheIncludedHead() throws {
        let included = try get("/response-headers?X-A=1", ["-i"])
        XCTAssertEqual(included.status, 0, included.stderr)
        let dumped = try get("/response-headers?X-A=1", ["-D", "head.txt"])
        XCTAssertEqual(dumped.status, 0, dumped.stderr)
        let head = try String(contentsOf: sandbox.root.appendingPathComponent("head.txt"), encoding: .utf8)
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 OK\n"), head)
        XCTAssertTrue(head.hasSuffix("\n\n"), head)
        XCTAssertEqual(head + dumped.stdout, included.stdout)
        XCTAssertEqual(try get("/response-headers?X-A=1", ["-D", "-"]).stdout, included.stdout)
    }

    func testMetaPrintsTheStatusLineAndTimings() throws {
        let result = try get("/json", ["--meta"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 3, result.stdout)
        XCTAssertEqual(lines.first, "HTTP/1.1 200 OK")
        XCTAssertNotNil(lines[1].range(of: #"^Elapsed time: \d+\.\d{6}s$"#, options: .regularExpression), result.stdout)
        XCTAssertFalse(result.stdout.contains("slideshow"))
    }

    func testVerboseEndsWithATimingLine() throws {
        let result = try get("/json", ["-v"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let last = try XCTUnwrap(result.stderr.split(separator: "\n").last)
        XCTAssertNotNil(
            last.range(
                of: #"^\* total \d+\.\d{6} s: name lookup .* first byte \d+\.\d{6} s; "#
                    + "\(HTTPTestServer.jsonDocument.utf8.count) bytes of body$",
                options: .regularExpression), String(last))
    }

    func testFormatJSONWithOutputNamesTheFile() throws {
        let result = try get("/bytes/100000", ["--format", "json", "-o", "body.bin", "-s"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let envelope = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
        XCTAssertEqual(envelope["status"] as? Int, 200)
        XCTAssertTrue(envelope["body"] is NSNull)
        let output = try XCTUnwrap(envelope["output"] as? [String: Any])
        XCTAssertEqual(output["path"] as? String, "body.bin")
        XCTAssertEqual(output["size"] as? Int, 100_000)
        XCTAssertNotNil(envelope["timing"] as? [String: Any])
        XCTAssertEqual(
            try Data(contentsOf: sandbox.root.appendingPathComponent("body.bin")),
            TestBytes.data(offset: 0, count: 100_000))
    }

    /// The body streams to the file: with `--format json -o`, a 256 MiB body takes no more memory
    /// than plain `-o` (this debug build's peak, libcurl's buffers included, is about 33 MiB for
    /// both), far below the body. The 1 GiB run under 30 MiB is `make bench`'s, on the release
    /// binary (scripts/bench-memory.py, the row "--format json -o FILE").
    func testFormatJSONWithOutputStreamsTheBody() throws {
        let size = 256 << 20
        let measure = """
            import os, sys
            pid = os.spawnv(os.P_NOWAIT, sys.argv[1], sys.argv[1:])
            _, status, usage = os.wait4(pid, 0)
            sys.stderr.write("%d %d\\n" % (usage.ru_maxrss, os.waitstatus_to_exitcode(status)))
            """
        func peak(_ arguments: [String]) throws -> (kibibytes: Int, result: CLIResult) {
            let result = try CLIRunner.run(
                ["-c", measure, CLIRunner.binaryURL.path, "request", "GET", url("/bytes/\(size)"), "-s"] + arguments,
                currentDirectory: sandbox.root, timeout: 300, binary: URL(fileURLWithPath: "/usr/bin/python3"))
            let figures = result.stderr.split(separator: "\n").last?.split(separator: " ").compactMap { Int($0) } ?? []
            XCTAssertEqual(figures.count, 2, result.stderr)
            XCTAssertEqual(figures.last, 0, result.stderr)
            return (figures.first ?? .max, result)
        }
        let plain = try peak(["-o", sandbox.path("plain.bin")])
        let enveloped = try peak(["--format", "json", "-o", sandbox.path("big.bin")])
        XCTAssertLessThan(enveloped.kibibytes, plain.kibibytes + 4 * 1024, "peak RSS in KiB, against plain -o's")
        XCTAssertLessThan(enveloped.kibibytes, 64 * 1024, "peak RSS in KiB, for a 256 MiB body")
        let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.path("big.bin"))
        XCTAssertEqual((attributes[.size] as? NSNumber)?.intValue, size)
        XCTAssertTrue(enveloped.result.stdout.contains(#""size":\#(size)"#), enveloped.result.stdout)
    }

    func testHeadersOnlyEndsTheTransferOnAnEndlessBody() throws {
        let start = Date()
        let result = try get("/endless/h", ["--headers-only"])
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stdout.hasPrefix("HTTP/1.1 200 OK\nContent-Type: application/octet-stream\n"), result.stdout)
        XCTAssertLessThan(elapsed, 2)
        let deadline = Date().addingTimeInterval(5)
        while !server.isGateOpen("endless-closed-h") && Date() < deadline { usleep(10_000) }
        XCTAssertTrue(server.isGateOpen("endless-closed-h"), "the server saw the connection close")
        // -I and -p h as well; a redirect is still followed to the head that ends it.
        for given in [["-I"], ["-p", "h"]] {
            let again = try sandbox.run(["request", url("/endless/i")] + given)
            XCTAssertEqual(again.status, 0, again.stderr)
            XCTAssertTrue(again.stdout.hasPrefix("HTTP/1.1 200 OK\n"), again.stdout)
        }
        let redirected = try get("/redirect/1", ["--headers-only", "-w", "%{num_redirects}"])
        XCTAssertTrue(redirected.stdout.hasPrefix("HTTP/1.1 200 OK\n"), redirected.stdout)
        XCTAssertTrue(redirected.stdout.hasSuffix("\n1"), redirected.stdout)
    }

    func testRequestDashCapitalISendsHead() throws {
        let result = try sandbox.run(["request", url("/get"), "-I"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.receivedRequests.last?.method, "HEAD")
    }

    /// `-p` with HTTPie's letters; each row: the letters, what stdout holds, what it does not.
    func testPrintLetters() throws {
        let rows: [(String, [String], [String])] = [
            ("b", ["\"method\":\"POST\""], ["HTTP/1.1", "> POST"]),
            ("h", ["HTTP/1.1 200 OK\n"], ["\"method\"", "> POST"]),
            ("hb", ["HTTP/1.1 200 OK\n", "\"method\":\"POST\""], ["> POST"]),
            ("H", ["> POST /anything HTTP/1.1", "> Content-Type: application/json"], ["HTTP/1.1 200", "{\"a\":\"1\"}"]),
            ("B", ["{\"a\":\"1\"}"], ["> POST", "HTTP/1.1 200"]),
            (
                "HBhbm",
                ["> POST /anything", "{\"a\":\"1\"}", "HTTP/1.1 200 OK", "\"method\":\"POST\"", "Elapsed time: "], []
            ),
            ("m", ["HTTP/1.1 200 OK\nElapsed time: "], ["\"method\""])
        ]
        for (letters, present, absent) in rows {
            let result = try sandbox.run(["request", "POST", url("/anything"), "a=1", "-p", letters])
            XCTAssertEqual(result.status, 0, "\(letters): \(result.stderr)")
            for text in present { XCTAssertTrue(result.stdout.contains(text), "\(letters): \(result.stdout)") }
            for text in absent { XCTAssertFalse(result.stdout.contains(text), "\(letters): \(result.stdout)") }
        }
        let wrong = try sandbox.run(["request", "GET", url("/get"), "-p", "x"])
        XCTAssertEqual(wrong.status, 64)
        XCTAssertTrue(wrong.stderr.contains("--print 'x': give letters of H"), wrong.stderr)
        let both = try sandbox.run(["request", "GET", url("/get"), "-p", "h", "-i"])
        XCTAssertEqual(both.status, 64)
        XCTAssertEqual(server.receivedRequests.count, rows.count)
    }

    /// `--timeout 0` is no limit, not "the file's": the API's 0.3 s stops a 600 ms answer (exit 2)
    /// unless the command line lifts it.
    func testTimeoutZeroMeansNone() throws {
        try sandbox.write(
            "targets/slow.yaml",
            """
            api: slow
            baseURL: \(server.baseURL.absoluteString)
            timeout: 0.3
            cases:
              wait: {path: /delay/600}
            """)
        XCTAssertEqual(try sandbox.run(["call", "slow", "wait"]).status, 2)
        let unlimited = try sandbox.run(["call", "slow", "wait", "--timeout", "0"])
        XCTAssertEqual(unlimited.status, 0, unlimited.stderr)
        XCTAssertEqual(try sandbox.run(["request", "slow", "GET", "/delay/600", "-m", "0"]).status, 0)
    }
}
