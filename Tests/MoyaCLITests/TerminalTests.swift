import CLITestSupport
import Foundation
import TestServers
import XCTest

/// What `call` prints on a terminal, run on a pseudo-terminal with util-linux `script`.
final class TerminalTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    static let blob = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x1B, 0x5B, 0x32, 0x4A
    ])

    override func setUpWithError() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script is not installed")
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write(
            "targets/local.yaml",
            """
            api: local
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              user:
                values: [{name: string}]
                path: /anything/{name}
                sample: {json: {login: "{name}", id: 1, admin: false, tags: [a, b], plan: null}}
              served:
                values: [{body: string}]
                path: /status/200
                task: {parameters: {body: "{body}"}, encoding: url}
                sample: ok
              blob:
                path: /bytes/16
                sample: {file: blob.bin}
              download:
                values: [{size: int}]
                path: /bytes/{size}
                task: {download: "out.bin"}
                sample: ok
            """)
        try Self.blob.write(to: folder.url.appendingPathComponent("targets/blob.bin"))
    }

    override func tearDown() {
        server?.stop()
    }

    /// Runs `moya-cli arguments` on a pseudo-terminal (stdout and stderr both on it unless
    /// `shellSuffix` redirects one); returns the exit status and what the terminal showed, CRs removed.
    func runOnTerminal(_ arguments: [String], shellSuffix: String = "", environment: [String: String] = [:]) throws -> (
        status: Int32, screen: String
    ) {
        let command =
            ([CLIRunner.binaryURL.path] + arguments).map(Self.shellQuoted).joined(separator: " ") + shellSuffix
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = folder.url
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": folder.url.path, "SHELL": "/bin/sh", "TERM": "xterm"]
            .merging(environment) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus,
            String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        )
    }

    static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    static func withoutEscapes(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    static let prettyUser = """
        {
          "login": "ash",
          "id": 1,
          "admin": false,
          "tags": [
            "a",
            "b"
          ],
          "plan": null
        }

        """

    func testNumbersArePrettyPrintedAsServed() throws {
        let body = #"{"id":12345678901234567890,"zero":-0,"hundred":1E2,"price":2.50}"#
        let (status, screen) = try runOnTerminal(["call", "local", "served", body])
        XCTAssertEqual(status, 0, screen)
        XCTAssertTrue(screen.contains("\u{1B}[36m12345678901234567890\u{1B}[0m"), screen)
        XCTAssertEqual(
            Self.withoutEscapes(screen),
            """
            {
              "id": 12345678901234567890,
              "zero": -0,
              "hundred": 1E2,
              "price": 2.50
            }

            """)
    }

    func testJSONIsPrettyAndColoredOnATerminal() throws {
        let colored = try runOnTerminal(["call", "local", "user", "ash", "--stub"])
        XCTAssertEqual(colored.status, 0, colored.screen)
        XCTAssertTrue(colored.screen.contains("\u{1B}["), "colors on a terminal: \(colored.screen.debugDescription)")
        XCTAssertEqual(Self.withoutEscapes(colored.screen), Self.prettyUser, "keys in the sample's order")

        let piped = try CLIRunner.run(["call", "local", "user", "ash", "--stub"], currentDirectory: folder.url)
        XCTAssertEqual(
            piped.stdout, #"{"login":"ash","id":1,"admin":false,"tags":["a","b"],"plan":null}"#, "raw when piped")
    }

    func testNoColorKeepsPrettyPrinting() throws {
        let environment = try runOnTerminal(["call", "local", "user", "ash", "--stub"], environment: ["NO_COLOR": "1"])
        XCTAssertEqual(environment.status, 0, environment.screen)
        XCTAssertEqual(environment.screen, Self.prettyUser)

        let flag = try runOnTerminal(["call", "local", "user", "ash", "--stub", "--no-color"])
        XCTAssertEqual(flag.screen, Self.prettyUser)

        let dumb = try runOnTerminal(["call", "local", "user", "ash", "--stub"], environment: ["TERM": "dumb"])
        XCTAssertEqual(dumb.screen, Self.prettyUser)
    }

    func testBinaryBodyIsNotDumpedOnATerminal() throws {
        let errors = folder.url.appendingPathComponent("errors.txt")
        let result = try runOnTerminal(
            ["call", "local", "blob", "--stub"], shellSuffix: " 2>" + Self.shellQuoted(errors.path))
        XCTAssertEqual(result.status, 0, result.screen)
        XCTAssertEqual(result.screen, "", "nothing of the body reaches the terminal")
        let message = try String(contentsOf: errors, encoding: .utf8)
        XCTAssertTrue(message.contains("binary body (16 bytes") && message.contains("--output"), message)

        let piped = try CLIRunner.run(["call", "local", "blob", "--stub"], currentDirectory: folder.url)
        XCTAssertEqual(piped.stdoutData, Self.blob, "a pipe gets the bytes")
    }

    /// The line itself, for transfers that last, is `ProgressTests`'s.
    func testProgressBarOnlyOnATerminal() throws {
        let size = "3000000"
        let onTerminal = try runOnTerminal(["call", "local", "download", size, "--force"])
        XCTAssertEqual(onTerminal.status, 0, onTerminal.screen)
        XCTAssertTrue(onTerminal.screen.contains("saved"), onTerminal.screen)

        let errors = folder.url.appendingPathComponent("errors.txt")
        let stderrToFile = try runOnTerminal(
            ["call", "local", "download", size, "--force"], shellSuffix: " 2>" + Self.shellQuoted(errors.path))
        XCTAssertEqual(stderrToFile.status, 0)
        let logged = try String(contentsOf: errors, encoding: .utf8)
        XCTAssertFalse(
            logged.contains("%") || logged.contains("\r"), "no bar when stderr is a file: \(logged.debugDescription)")

        let piped = try CLIRunner.run(["call", "local", "download", size, "--force"], currentDirectory: folder.url)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertFalse(piped.stderr.contains("%") || piped.stderr.contains("\r"), piped.stderr.debugDescription)
        XCTAssertEqual(try Data(contentsOf: folder.url.appendingPathComponent("out.bin")).count, 3_000_000)
    }
}
