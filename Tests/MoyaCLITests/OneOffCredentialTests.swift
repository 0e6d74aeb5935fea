import CLITestSupport
import Foundation
import TestServers
import XCTest

/// Issue 28, item 4: `-u USER[:PASSWORD]` and `--bearer TOKEN|@FILE|-` replace the file's auth
/// for one call, are redacted as the file's secrets are, and `-u USER` asks for the password on
/// the terminal without echo. Through the binary against the loopback server; the prompt through
/// a pseudo-terminal.
final class OneOffCredentialTests: XCTestCase {
    var server: HTTPTestServer!
    var sandbox: Sandbox!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        sandbox = try Sandbox()
        // The file's own auth needs a variable no test sets: a call that works used the command line's.
        try sandbox.write(
            "targets/hb.yaml",
            """
            api: hb
            baseURL: http://127.0.0.1:\(server.port)
            auth: {type: apiKey, in: header, name: X-Api-Key, key: "${secret:HB_KEY}"}
            cases:
              basic:
                values: [{user: string}, {pass: string}]
                path: /basic-auth/{user}/{pass}
                sample: ok
              bearer:
                path: /bearer
                sample: ok
            """)
    }

    override func tearDown() {
        server.stop()
    }

    static func basic(_ pair: String) -> String {
        "Basic " + Data(pair.utf8).base64EncodedString()
    }

    func testUserAndPasswordReplaceTheFilesAuthAndAreRedacted() throws {
        let result = try sandbox.run([
            "call", "hb", "basic", "alice", "pw-s3cret", "-u", "alice:pw-s3cret", "-v", "--curl"
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, #"{"authenticated":true,"user":"alice"}"#)
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Authorization"), Self.basic("alice:pw-s3cret"))
        XCTAssertNil(
            server.receivedRequests.last?.value(of: "X-Api-Key"), "the file's API key is replaced, not added to")
        XCTAssertTrue(
            result.stderr.hasPrefix(
                "curl --compressed -H 'Authorization: Basic <redacted>' -H 'User-Agent: moya-cli/0.1.0' "
                    + "'http://127.0.0.1:\(server.port)/basic-auth/alice/<redacted>'\n"), result.stderr)
        XCTAssertTrue(result.stderr.contains("> GET /basic-auth/alice/<redacted> HTTP/1.1\n"), result.stderr)
        XCTAssertTrue(result.stderr.contains("> Authorization: Basic <redacted>\n"), result.stderr)
        XCTAssertFalse(result.stderr.contains("pw-s3cret"), result.stderr)
        XCTAssertFalse(result.stderr.contains(Data("alice:pw-s3cret".utf8).base64EncodedString()), result.stderr)
    }

    func testAWrongPasswordIsTheServersAnswer() throws {
        let result = try sandbox.run(["call", "hb", "basic", "alice", "right", "-u", "alice:wrong"])
        assertRun(
            result, status: 4, stdout: "", stderr: "moya-cli: error: hb.basic: HTTP 401 failed the case's validation\n")
    }

    func testTheCurlCommandCarriesTheCredentialRedacted() throws {
        let result = try sandbox.run(["curl", "hb", "bearer", "--bearer", "tok-123456"])
        assertRun(
            result, status: 0,
            stdout: "curl -L --max-redirs 10 --connect-timeout 10 --speed-limit 1 --speed-time 60 --compressed "
                + "-H 'Authorization: Bearer <redacted>' -H 'User-Agent: moya-cli/0.1.0' 'http://127.0.0.1:\(server.port)/bearer'\n",
            stderr: "")
        let shown = try sandbox.run(["curl", "hb", "bearer", "--bearer", "tok-123456", "--show-secrets"])
        XCTAssertTrue(shown.stdout.contains("-H 'Authorization: Bearer tok-123456'"), shown.stdout)
        XCTAssertTrue(server.receivedRequests.isEmpty, "curl sends nothing")
    }

    func testABearerTokenFromTheArgumentAFileAndStandardInput() throws {
        let fromArgument = try sandbox.run(["call", "hb", "bearer", "--bearer", "tok-argument", "-v"])
        XCTAssertEqual(fromArgument.status, 0, fromArgument.stderr)
        XCTAssertEqual(fromArgument.stdout, #"{"authenticated":true,"token":"tok-argument"}"#)
        XCTAssertTrue(fromArgument.stderr.contains("> Authorization: Bearer <redacted>\n"), fromArgument.stderr)
        XCTAssertFalse(fromArgument.stderr.contains("tok-argument"), fromArgument.stderr)

        try sandbox.write("token.txt", "tok-from-file\n")
        let fromFile = try sandbox.run(["call", "hb", "bearer", "--bearer", "@token.txt"])
        assertRun(fromFile, status: 0, stdout: #"{"authenticated":true,"token":"tok-from-file"}"#, stderr: "")

        let fromStandardInput = try CLIRunner.run(
            ["call", "hb", "bearer", "--bearer", "-", "--curl"], environment: ["HOME": sandbox.home.path],
            currentDirectory: sandbox.root, stdin: Data("tok-from-stdin\r\n".utf8))
        XCTAssertEqual(fromStandardInput.status, 0, fromStandardInput.stderr)
        XCTAssertEqual(fromStandardInput.stdout, #"{"authenticated":true,"token":"tok-from-stdin"}"#)
        XCTAssertTrue(
            fromStandardInput.stderr.contains("-H 'Authorization: Bearer <redacted>'"), fromStandardInput.stderr)
        XCTAssertEqual(
            server.receivedRequests.map { $0.value(of: "Authorization") },
            ["Bearer tok-argument", "Bearer tok-from-file", "Bearer tok-from-stdin"])
    }

    func testBadCredentialsAreUsageErrorsBeforeAnythingIsSent() throws {
        try sandbox.write("two-lines.txt", "tok\nX-Injected: 1\n")
        try sandbox.write("empty.txt", "\n")
        let cases: [([String], String)] = [
            (
                ["--bearer", "@two-lines.txt"],
                "--bearer: the token holds a line break or NUL, which no header can carry"
            ),
            (["--bearer", "@empty.txt"], "--bearer @empty.txt: the token is empty"),
            (["--bearer", "@missing.txt"], "--bearer @missing.txt: not a readable regular file"),
            (["--bearer", "@."], "--bearer @.: not a readable regular file")
        ]
        for (options, message) in cases {
            assertRun(
                try sandbox.run(["call", "hb", "bearer"] + options), status: 64, stdout: "",
                stderr: "moya-cli: error: \(message)\n")
        }
        for (options, message) in [
            (["-u", ":pw"], "-u needs a user name: -u USER or -u USER:PASSWORD"),
            (["-u", "a:b", "--bearer", "tok"], "-u and --bearer both replace the file's auth; give one"),
            (
                ["--bearer", "-", "--json", "-"],
                "--bearer - and --json - both read standard input; give one of them as @FILE"
            )
        ] {
            let result = try sandbox.run(["call", "hb", "bearer"] + options)
            XCTAssertEqual(result.status, 64, "\(options)")
            XCTAssertTrue(result.stderr.hasPrefix("moya-cli: error: \(message)\n"), "\(options): \(result.stderr)")
        }
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    func testHostileTokensOnStandardInputAndFromDevicesAreRefused() throws {
        for (input, message) in [
            (Data("tok\0en".utf8), "--bearer: the token holds a line break or NUL, which no header can carry"),
            (
                Data(repeating: UInt8(ascii: "a"), count: 70_000),
                "--bearer -: standard input holds more than 64 KiB, the most a token may take"
            ),
            (Data("\n\n".utf8), "--bearer -: the token is empty")
        ] {
            let result = try CLIRunner.run(
                ["call", "hb", "bearer", "--bearer", "-"], environment: ["HOME": sandbox.home.path],
                currentDirectory: sandbox.root, stdin: input)
            assertRun(result, status: 64, stdout: "", stderr: "moya-cli: error: \(message)\n")
        }
        XCTAssertEqual(mkfifo(sandbox.path("fifo"), 0o600), 0)
        for device in ["/dev/zero", sandbox.path("fifo")] {
            assertRun(
                try sandbox.run(["call", "hb", "bearer", "--bearer", "@" + device]), status: 64, stdout: "",
                stderr: "moya-cli: error: --bearer @\(device): not a readable regular file\n")
        }
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    /// The user name is up to the first colon; the password may hold colons, as with curl.
    func testAPasswordMayHoldColons() throws {
        let result = try sandbox.run(["call", "hb", "bearer", "-u", "alice:p:w:1", "-v"])
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Authorization"), Self.basic("alice:p:w:1"))
        XCTAssertFalse(result.stderr.contains("p:w:1"), result.stderr)
    }

    /// A user name alone, with no terminal to ask on (a script, CI): refused, not waited on.
    func testAMissingPasswordWithoutATerminalIsRefused() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["-w", CLIRunner.binaryURL.path, "call", "hb", "basic", "alice", "pw", "-u", "alice"]
        process.currentDirectoryURL = sandbox.root
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": sandbox.home.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 64)
        XCTAssertEqual(
            stderr,
            "moya-cli: error: -u alice: no password given and no terminal to ask for it; write -u USER:PASSWORD\n")
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }

    func testThePasswordIsAskedOnTheTerminalWithoutEcho() throws {
        let run = try PromptedRun(
            ["call", "hb", "basic", "alice", "typed-pw", "-u", "alice", "-v"], in: sandbox, typing: "typed-pw\n")
        XCTAssertEqual(run.status, 0, run.screen)
        XCTAssertTrue(run.screen.hasPrefix("Password for 'alice': \n"), run.screen)
        XCTAssertFalse(run.echoWhilePrompting, "echo is off while the password is typed")
        XCTAssertTrue(run.echoAfterwards, "echo is back on afterwards")
        XCTAssertFalse(run.screen.contains("typed-pw"), "neither echoed nor logged: \(run.screen)")
        XCTAssertTrue(run.screen.contains("> Authorization: Basic <redacted>"), run.screen)
        XCTAssertTrue(run.screen.hasSuffix("{\n  \"authenticated\": true,\n  \"user\": \"alice\"\n}\n"), run.screen)
        XCTAssertEqual(server.receivedRequests.last?.value(of: "Authorization"), Self.basic("alice:typed-pw"))
    }

    func testCtrlCAtThePromptPutsEchoBackAndExits130() throws {
        let run = try PromptedRun(["call", "hb", "basic", "alice", "pw", "-u", "alice"], in: sandbox, typing: "\u{03}")
        XCTAssertEqual(run.status, 130, run.screen)
        XCTAssertFalse(run.echoWhilePrompting)
        XCTAssertTrue(run.echoAfterwards, "echo is back on after Ctrl-C")
        // No "^C" either: the terminal echoes nothing while echo is off.
        XCTAssertEqual(run.screen, "Password for 'alice': \nmoya-cli: error: interrupted\n")
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }
}
