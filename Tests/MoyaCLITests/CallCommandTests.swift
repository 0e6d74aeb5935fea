import CLITestSupport
import Foundation
import TestServers
import XCTest

/// `moya-cli call` run as a user would, against a loopback server the test starts.
final class CallCommandTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write("targets/local.yaml", Self.targetFile(port: server.port))
        try folder.write("upload.bin", "upload-bytes\u{1}\u{2}")
    }

    override func tearDown() {
        server.stop()
    }

    static func targetFile(port: UInt16) -> String {
        """
        api: local
        baseURL: http://127.0.0.1:\(port)
        headers:
          X-Client: moya-cli-tests
        auth: {type: bearer, token: "${secret:LOCAL_TOKEN}"}
        validation: successCodes
        timeout: 10
        environments:
          other: {baseURL: "http://127.0.0.1:1"}
        cases:
          search:
            auth: none
            values: [{q: string}, {page: {type: int, default: 1}}, {tags: {enum: [a, b], default: a}}]
            path: /anything/search
            task: {parameters: {q: "{q}", page: "{page}", tag: "{tags}"}, encoding: url}
            sample: {json: {q: "{q}", page: "{page}"}}
          create:
            auth: none
            method: POST
            values: [{name: string}, {count: int}, {active: bool}]
            path: /anything/items
            task: {json: {name: "{name}", count: "{count}", active: "{active}", label: "item {name}"}}
            sample: {status: 201, json: {created: true}}
          form:
            auth: none
            method: POST
            values: [{a: string}]
            path: /post
            task: {parameters: {a: "{a}", list: [1, 2]}, encoding: url}
            sample: ok
          upload:
            auth: none
            method: PUT
            values: [{file: file}]
            path: /put
            task: {upload: "{file}"}
            sample: ok
          multipart:
            auth: none
            method: POST
            values: [{title: string}, {file: file}]
            path: /anything/multipart
            task:
              multipart:
                - {name: title, value: "{title}"}
                - {name: doc, file: "{file}", mimeType: application/octet-stream}
            sample: ok
          download:
            auth: none
            values: [{size: int}]
            path: /bytes/{size}
            task: {download: "out.bin"}
            sample: {text: "abc"}
          status:
            auth: none
            values: [{code: int}]
            path: /status/{code}
            samples:
              ok: {text: fine}
              missing: {status: 404, json: {message: Not Found}}
              slow: {error: timeout}
              loop: {error: tooManyRedirects}
              refused: {error: connectionRefused}
          slowDownload:
            auth: none
            path: /slow-body
            task: {download: "slow.bin"}
            sample: {text: "abc"}
          unavailable:
            auth: none
            values: [{retryAfter: string}]
            path: /status/503
            task: {parameters: {header: "Retry-After:{retryAfter}"}, encoding: url}
            sample: {status: 503}
          postStatus:
            auth: none
            method: POST
            values: [{code: int}]
            path: /status/{code}
            sample: ok
          ratio:
            auth: none
            method: POST
            values: [{r: double}]
            path: /anything/ratio
            task: {json: {r: "{r}"}, query: {r: "{r}"}}
            sample: ok
          delay:
            auth: none
            values: [{ms: int}]
            path: /delay/{ms}
            sample: late
          redirect:
            auth: none
            values: [{hops: int}]
            path: /redirect/{hops}
            sample: moved
          drop:
            auth: none
            path: /drop
            sample: gone
          secret:
            path: /bearer
            sample: {json: {authenticated: true}}
          export:
            auth: none
            values: [{format: {enum: [csv, xml]}}, {timeout: {type: int, default: 5}}]
            path: /anything/export
            task: {parameters: {format: "{format}", timeout: "{timeout}"}, encoding: url}
            sample: ok
        """
    }

    func call(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60) throws
        -> CLIResult
    {
        try CLIRunner.run(
            ["call"] + arguments, environment: environment, currentDirectory: folder.url, timeout: timeout)
    }

    func lastRequest() throws -> ReceivedRequest {
        try XCTUnwrap(server.receivedRequests.last)
    }

    // MARK: Values and tasks

    func testQueryParametersFromPositionalAndNamedValues() throws {
        let result = try call(["local", "search", "moya cli", "--page", "3"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try lastRequest()
        XCTAssertEqual(request.method, "GET")
        XCTAssertEqual(request.target, "/anything/search?page=3&q=moya%20cli&tag=a")
        XCTAssertEqual(request.value(of: "X-Client"), "moya-cli-tests")
        XCTAssertNil(request.value(of: "Authorization"))
        let echoed = try EchoedRequest(from: result.stdoutData)
        XCTAssertEqual(echoed.path, "/anything/search")
    }

    func testJSONBodyKeepsKeyOrderAndTypesPlaceholders() throws {
        let result = try call(["local", "create", "widget", "7", "true"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try lastRequest()
        XCTAssertEqual(request.method, "POST")
        XCTAssertEqual(
            String(decoding: request.body, as: UTF8.self),
            #"{"name":"widget","count":7,"active":true,"label":"item widget"}"#)
        XCTAssertEqual(request.value(of: "Content-Type"), "application/json")
    }

    func testFormEncodedBody() throws {
        let result = try call(["local", "form", "x&y"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try lastRequest()
        XCTAssertEqual(String(decoding: request.body, as: UTF8.self), "a=x%26y&list%5B%5D=1&list%5B%5D=2")
        XCTAssertEqual(request.value(of: "Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
    }

    func testUploadStreamsTheFile() throws {
        let result = try call(["local", "upload", "upload.bin"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try lastRequest()
        XCTAssertEqual(request.method, "PUT")
        XCTAssertEqual(request.body, Data("upload-bytes\u{1}\u{2}".utf8))
    }

    func testMultipartParts() throws {
        let result = try call(["local", "multipart", "Hello", "upload.bin"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let echoed = try EchoedRequest(from: result.stdoutData)
        let parts = try XCTUnwrap(echoed.parts)
        XCTAssertEqual(parts.map(\.name), ["title", "doc"])
        XCTAssertEqual(parts[0].text, "Hello")
        XCTAssertEqual(parts[1].filename, "upload.bin")
        XCTAssertEqual(parts[1].size, 14)
    }

    /// Issue 28, item 7: a download case's own destination is never replaced: a rerun saves to
    /// the first free numbered name (`out-1.bin`, as HTTPie's `--download`), `--force` replaces it.
    func testADownloadRerunSavesToANumberedNameAndForceReplaces() throws {
        let first = try call(["local", "download", "100000"])
        assertRun(first, status: 0, stdout: "", stderr: "moya-cli: saved \(folder.url.path)/out.bin\n")
        let file = folder.url.appendingPathComponent("out.bin")
        XCTAssertEqual(try Data(contentsOf: file), TestBytes.data(count: 100_000))

        let second = try call(["local", "download", "10"])
        assertRun(second, status: 0, stdout: "", stderr: "moya-cli: saved \(folder.url.path)/out-1.bin\n")
        XCTAssertEqual(try Data(contentsOf: file).count, 100_000, "the existing file is kept")
        XCTAssertEqual(try Data(contentsOf: folder.url.appendingPathComponent("out-1.bin")), TestBytes.data(count: 10))
        // A dangling link takes its name too: nothing is written through it.
        XCTAssertEqual(symlink("/nonexistent/target", folder.url.appendingPathComponent("out-2.bin").path), 0)
        assertRun(
            try call(["local", "download", "20", "--stub"]), status: 0, stdout: "",
            stderr: "moya-cli: saved \(folder.url.path)/out-3.bin\n")

        let forced = try call(["local", "download", "10", "--force"])
        assertRun(forced, status: 0, stdout: "", stderr: "moya-cli: saved \(folder.url.path)/out.bin\n")
        XCTAssertEqual(try Data(contentsOf: file), TestBytes.data(count: 10))
        XCTAssertEqual(
            try Data(contentsOf: folder.url.appendingPathComponent("out-1.bin")).count, 10,
            "numbered files are left alone")
        // -o names the file: it is replaced, as curl's -o replaces it.
        assertRun(
            try call(["local", "download", "30", "-o", "out.bin"]), status: 0, stdout: "",
            stderr: "moya-cli: saved \(folder.url.path)/out.bin\n")
        XCTAssertEqual(try Data(contentsOf: file), TestBytes.data(count: 30))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
            $0.contains("moya-") || $0.contains("part")
        }
        XCTAssertEqual(leftovers, [])
    }

    // MARK: Usage errors

    /// `--value NAME=VALUE` gives values named like options of `call` (`--format`, `--timeout`).
    func testValuesNamedLikeOptionsGoThroughDashDashValue() throws {
        let result = try call(["local", "export", "--value", "format=xml", "--value=timeout=9", "--timeout", "20"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try lastRequest()
        XCTAssertTrue(
            request.target.hasSuffix("/anything/export?format=xml&timeout=9")
                || request.target.hasSuffix("/anything/export?timeout=9&format=xml"), request.target)

        let malformed = try call(["local", "export", "xml", "--value", "timeout"])
        XCTAssertEqual(malformed.status, 64)
        XCTAssertTrue(malformed.stderr.contains("--value 'timeout' is not NAME=VALUE"), malformed.stderr)

        let twice = try call(["local", "export", "--value", "format=csv", "--value", "format=xml"])
        XCTAssertEqual(twice.status, 64)
        XCTAssertTrue(twice.stderr.contains("format is given twice"), twice.stderr)

        let unknown = try call(["local", "export", "--value", "fromat=xml"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("fromat"), unknown.stderr)

        let curl = try CLIRunner.run(["curl", "local", "export", "--value", "format=csv"], currentDirectory: folder.url)
        XCTAssertEqual(curl.status, 0, curl.stderr)
        XCTAssertTrue(curl.stdout.contains("format=csv"), curl.stdout)
    }

    /// A live call starts loading libcurl on another thread at once; a usage error exits before that
    /// load is done. Exiting in the middle of it used to crash now and then (SIGSEGV in exit handlers
    /// and heap corruption in half-loaded libraries: 1 run in 20 to 1 in 150 here), so this runs the
    /// quickest such exit many times.
    func testUsageErrorWhileLibcurlLoadsNeverCrashes() throws {
        // A shell loop starts the binary far faster than Process does, so it can afford 300 runs.
        let loop = try CLIRunner.runShell(
            "i=0; while [ $i -lt 300 ]; do \"$MOYA_CLI\" call 2>/dev/null; echo $?; i=$((i+1)); done",
            // No Swift backtracer on a crash: it would hold the loop up for minutes.
            in: folder.url, environment: ["MOYA_CLI": CLIRunner.binaryURL.path, "SWIFT_BACKTRACE": "enable=no"])
        let statuses = loop.stdout.split(separator: "\n").reduce(into: [String: Int]()) {
            $0[String($1), default: 0] += 1
        }
        XCTAssertEqual(statuses, ["64": 300], "exit statuses of 300 runs (139 is SIGSEGV)")
    }

    func testUsageErrorsExit64WithWhatIsValid() throws {
        let missing = try call(["local", "create", "widget"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertEqual(missing.stdout, "")
        XCTAssertTrue(missing.stderr.contains("missing value 'count' (int)"), missing.stderr)

        let badInt = try call(["local", "create", "widget", "many", "true"])
        XCTAssertEqual(badInt.status, 64)
        XCTAssertTrue(badInt.stderr.contains("'many'"), badInt.stderr)

        let badEnum = try call(["local", "search", "x", "--tags", "c"])
        XCTAssertEqual(badEnum.status, 64)
        XCTAssertTrue(badEnum.stderr.contains("a, b"), badEnum.stderr)

        let unknownCase = try call(["local", "serch", "x"])
        XCTAssertEqual(unknownCase.status, 64)
        XCTAssertTrue(unknownCase.stderr.contains("did you mean 'search'?"), unknownCase.stderr)

        let unknownAPI = try call(["lokal", "search", "x"])
        XCTAssertEqual(unknownAPI.status, 64)
        XCTAssertTrue(unknownAPI.stderr.contains("did you mean 'local'?"), unknownAPI.stderr)

        let unsetSecret = try call(["local", "secret"])
        XCTAssertEqual(unsetSecret.status, 64)
        XCTAssertTrue(unsetSecret.stderr.contains("LOCAL_TOKEN"), unsetSecret.stderr)
        XCTAssertEqual(server.receivedRequests.count, 0, "nothing is sent on a usage error")
    }

    // MARK: Exit codes

    func testValidationFailuresPrintTheBodyAndExitByClass() throws {
        let notFound = try call(["local", "status", "404"])
        XCTAssertEqual(notFound.status, 4)
        XCTAssertTrue(notFound.stderr.contains("HTTP 404"), notFound.stderr)

        let serverError = try call(["local", "status", "500"])
        XCTAssertEqual(serverError.status, 5)

        let redirect = try call(["local", "status", "302", "--no-follow"])
        XCTAssertEqual(redirect.status, 3)

        let ok = try call(["local", "status", "200"])
        XCTAssertEqual(ok.status, 0)
    }

    func testTransportFailuresExitCodes() throws {
        let timeout = try call(["local", "delay", "3000", "--timeout", "0.5"])
        XCTAssertEqual(timeout.status, 2, timeout.stderr)

        let redirects = try call(["local", "redirect", "5", "--max-redirects", "2"])
        XCTAssertEqual(redirects.status, 6, redirects.stderr)

        let refused = try call(["local", "status", "200", "--env", "other"])
        XCTAssertEqual(refused.status, 1, refused.stderr)

        let dropped = try call(["local", "drop"])
        XCTAssertEqual(dropped.status, 1, dropped.stderr)
    }

    // MARK: Overrides

    func testAuthHeadersAndOverrides() throws {
        let result = try call(
            ["local", "secret", "-H", "X-Extra: 1", "-H", "X-Client:"], environment: ["LOCAL_TOKEN": "s3cr3t"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try lastRequest()
        XCTAssertEqual(request.value(of: "Authorization"), "Bearer s3cr3t")
        XCTAssertEqual(request.value(of: "X-Extra"), "1")
        XCTAssertNil(request.value(of: "X-Client"))
    }

    func testVerboseLogRedactsSecretsUnlessAsked() throws {
        let redacted = try call(["local", "secret", "-v"], environment: ["LOCAL_TOKEN": "s3cr3t"])
        XCTAssertEqual(redacted.status, 0, redacted.stderr)
        XCTAssertFalse(redacted.stderr.contains("s3cr3t"), redacted.stderr)
        XCTAssertTrue(redacted.stderr.contains("> Authorization: Bearer <redacted>"), redacted.stderr)

        let shown = try call(["local", "secret", "--curl", "--show-secrets"], environment: ["LOCAL_TOKEN": "s3cr3t"])
        XCTAssertTrue(shown.stderr.contains("Bearer s3cr3t"), shown.stderr)
    }

    func testBaseURLOverrideAndRetries() throws {
        let other = try HTTPTestServer()
        defer { other.stop() }
        let result = try call(["local", "status", "503", "--base-url", other.baseURL.absoluteString, "--retry", "2"])
        XCTAssertEqual(result.status, 5)
        XCTAssertEqual(other.receivedRequests.count, 3, "one try and two retries")
        XCTAssertEqual(server.receivedRequests.count, 0)
        XCTAssertEqual(result.stderr.components(separatedBy: "retrying in").count - 1, 2, result.stderr)
    }

    // MARK: Output

    func testIncludeHeadersOnlyKeyPathAndEnvelope() throws {
        let include = try call(["local", "search", "x", "-i"])
        XCTAssertTrue(include.stdout.hasPrefix("HTTP/1.1 200 OK\n"), include.stdout)
        XCTAssertTrue(include.stdout.contains("\n\n{"), include.stdout)

        let headersOnly = try call(["local", "search", "x", "--headers-only"])
        XCTAssertTrue(headersOnly.stdout.hasPrefix("HTTP/1.1 200 OK\n"))
        XCTAssertFalse(headersOnly.stdout.contains("{"))

        let keyPath = try call(["local", "search", "x", "--keypath", "method"])
        XCTAssertEqual(keyPath.stdout, "GET\n")

        let missingKey = try call(["local", "search", "x", "--keypath", "nope.deeper"])
        XCTAssertEqual(missingKey.status, 1)

        let envelope = try call(["local", "search", "x", "--format", "json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: envelope.stdoutData) as? [String: Any])
        XCTAssertEqual(object["status"] as? Int, 200)
        XCTAssertEqual(object["api"] as? String, "local")
        XCTAssertEqual(object["case"] as? String, "search")
        XCTAssertEqual(object["stubbed"] as? Bool, false)
        XCTAssertNotNil(object["headers"] as? [[String: String]])
        XCTAssertEqual((object["body"] as? [String: Any])?["method"] as? String, "GET")
    }

    // MARK: Stubs

    func testStubsAnswerFromSamplesThroughTheSamePipeline() throws {
        let stubbed = try call(["local", "search", "moya", "--page", "2", "--stub"])
        XCTAssertEqual(stubbed.status, 0, stubbed.stderr)
        XCTAssertEqual(stubbed.stdout, #"{"q":"moya","page":2}"#)

        let named = try call(["local", "status", "200", "--stub", "--sample", "missing"])
        XCTAssertEqual(named.status, 4)
        XCTAssertEqual(named.stdout, #"{"message":"Not Found"}"#)

        XCTAssertEqual(try call(["local", "status", "200", "--stub", "--sample", "slow"]).status, 2)
        XCTAssertEqual(try call(["local", "status", "200", "--stub", "--sample", "loop"]).status, 6)
        XCTAssertEqual(try call(["local", "status", "200", "--stub", "--sample", "refused"]).status, 1)

        let unknown = try call(["local", "status", "200", "--stub", "--sample", "mising"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("did you mean 'missing'?"), unknown.stderr)

        let start = Date()
        let delayed = try call(["local", "status", "200", "--stub", "--delay", "0.3"])
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.3)
        XCTAssertEqual(delayed.stdout, "fine")

        let secret = try call(["local", "secret", "--stub"])
        XCTAssertEqual(secret.status, 0, "a stub needs no credential")
        XCTAssertEqual(server.receivedRequests.count, 0, "stubs send nothing")
    }

    func testShippedGitHubExampleStubbed() throws {
        let result = try CLIRunner.run([
            "call", "github", "userProfile", "ashfurrow", "--stub", "--delay", "0.2",
            "--targets", CLIRunner.repositoryRoot.appendingPathComponent("targets").path
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        XCTAssertEqual(object["login"] as? String, "ashfurrow")
    }

    // MARK: Interruption

    func interrupt<Seen>(
        _ arguments: [String], when isReady: () -> Bool,
        whileRunning: (Int32) throws -> Seen
    ) throws -> InterruptedRun<Seen> {
        try CLIRunner.interrupt(arguments, in: folder.url, when: isReady, whileRunning: whileRunning)
    }

    func testInterruptCancelsAndExits130() throws {
        let run = try interrupt(["call", "local", "delay", "5000"], when: { !server.receivedRequests.isEmpty }) { pid in
            try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count
        }
        XCTAssertEqual(run.status, 130)
        XCTAssertTrue(run.stderr.contains("interrupted"), run.stderr)
        // The waiting main thread runs the transfer and watches for Ctrl-C itself.
        XCTAssertEqual(run.seen, 1, "a live call runs on one thread")
    }

    func testInterruptDuringADownloadLeavesNoFileBehind() throws {
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
        let run = try interrupt(["call", "local", "slowDownload"], when: { !server.receivedRequests.isEmpty }) { _ in
            usleep(200_000)
        }
        XCTAssertEqual(run.status, 130)
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
        XCTAssertEqual(after, before, "no destination and no temporary file are left")
    }

    func testInterruptWhileWaitingToRetryExits130() throws {
        let start = Date()
        let run = try interrupt(
            ["call", "local", "unavailable", "30", "--retry", "2"],
            when: { !server.receivedRequests.isEmpty }
        ) { _ in usleep(200_000) }
        XCTAssertEqual(run.status, 130, run.stderr)
        XCTAssertTrue(run.stderr.contains("retrying in 30 s (1/2)"), run.stderr)
        XCTAssertEqual(server.receivedRequests.count, 1, "no retry after Ctrl-C")
        XCTAssertLessThan(Date().timeIntervalSince(start), 20, "Ctrl-C cut the 30 s wait short")
    }

    func testInterruptDuringAStubDelayExits130() throws {
        let started = Date()
        let run = try interrupt(
            ["call", "local", "status", "200", "--stub", "--delay", "30"],
            when: { Date().timeIntervalSince(started) > 0.5 }
        ) { _ in () }
        XCTAssertEqual(run.status, 130, run.stderr)
        XCTAssertTrue(run.stderr.contains("interrupted"), run.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 20, "Ctrl-C cut the 30 s delay short")
    }

    func testRetryAfterIsHonoured() throws {
        let start = Date()
        let result = try call(["local", "unavailable", "1", "--retry", "1"])
        XCTAssertEqual(result.status, 5)
        XCTAssertEqual(server.receivedRequests.count, 2)
        XCTAssertTrue(result.stderr.contains("HTTP 503; retrying in 1 s (1/1)"), result.stderr)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 1.0)
    }

    func testProxyFromOptionAndEnvironment() throws {
        let proxy = try HTTPTestServer()
        defer { proxy.stop() }
        // The API's base URL names a host that does not resolve: only the proxy can answer.
        try folder.write(
            "targets/far.yaml",
            """
            api: far
            baseURL: http://far.invalid
            cases:
              get:
                path: /get
                sample: near
            """)
        _ = try call(["far", "get", "--proxy", proxy.baseURL.absoluteString])
        XCTAssertEqual(proxy.receivedRequests.last?.target, "http://far.invalid/get")

        _ = try call(["far", "get"], environment: ["http_proxy": proxy.baseURL.absoluteString])
        XCTAssertEqual(proxy.receivedRequests.count, 2)
        XCTAssertEqual(proxy.receivedRequests.last?.target, "http://far.invalid/get")
    }

    /// Issue 28, item 7: `-o FILE` replaces an existing file as curl does, so a rerun works.
    func testOutputWritesTheBodyAndARerunReplacesIt() throws {
        let first = try call(["local", "search", "x", "-o", "body.json"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "")
        let file = folder.url.appendingPathComponent("body.json")
        XCTAssertEqual(try EchoedRequest(from: Data(contentsOf: file)).path, "/anything/search")

        try Data("keep".utf8).write(to: file)
        let second = try call(["local", "search", "y", "-o", "body.json"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.hasPrefix("moya-cli: wrote "), second.stderr)
        XCTAssertTrue(try EchoedRequest(from: Data(contentsOf: file)).args.contains(["q", "y"]))
        let forced = try call(["local", "search", "z", "-o", "body.json", "--force"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(try EchoedRequest(from: Data(contentsOf: file)).args.contains(["q", "z"]))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
            $0.contains("moya-")
        }
        XCTAssertEqual(leftovers, [])

        let conflicting = try call(["local", "search", "z", "-o", "other.json", "--keypath", "method"])
        XCTAssertEqual(conflicting.status, 64)
    }

    func testOutputIntoAMissingFolderFailsAndLeavesNothing() throws {
        for extra in [[], ["--stub"]] {
            let result = try call(["local", "search", "x", "-o", "absent/body.json"] + extra)
            XCTAssertEqual(result.status, 74, result.stderr)
            XCTAssertTrue(result.stderr.contains("absent/body.json"), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("absent").path))
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
            $0.contains("part")
        }
        XCTAssertEqual(leftovers, [])
    }

    func testRetriesOnlyIdempotentMethodsUnlessRetryAll() throws {
        let post = try call(["local", "postStatus", "503", "--retry", "2"])
        XCTAssertEqual(post.status, 5)
        XCTAssertEqual(server.receivedRequests.count, 1, "POST is not retried by default")

        let retried = try call(["local", "postStatus", "503", "--retry", "1", "--retry-all"])
        XCTAssertEqual(retried.status, 5)
        XCTAssertEqual(server.receivedRequests.count, 3, "--retry-all retries POST too")
    }

    func testDoubleValuesKeepTheirTypeInJSONAndQuery() throws {
        let result = try call(["local", "ratio", "0.25"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let request = try lastRequest()
        XCTAssertEqual(request.target, "/anything/ratio?r=0.25")
        XCTAssertEqual(String(decoding: request.body, as: UTF8.self), #"{"r":0.25}"#)

        let notADouble = try call(["local", "ratio", "quarter"])
        XCTAssertEqual(notADouble.status, 64)
    }

    func testBaseURLsMadeAtRunTimeFollowTheLoadersRules() throws {
        let withQuery = try call(["local", "status", "200", "--base-url", "http://127.0.0.1:\(server.port)/?q=1"])
        XCTAssertEqual(withQuery.status, 64)
        XCTAssertTrue(withQuery.stderr.contains("has a query; put query parameters in a case's task"), withQuery.stderr)

        let otherScheme = try call(["local", "status", "200", "--base-url", "ftp://127.0.0.1/"])
        XCTAssertEqual(otherScheme.status, 64)
        XCTAssertTrue(otherScheme.stderr.contains("only http and https are allowed"), otherScheme.stderr)
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    func testOutOfRangeDurationsAndConflictingOutputsAreUsageErrors() throws {
        for arguments in [
            ["--timeout", "inf"], ["--timeout", "1e300"], ["--connect-timeout", "0"], ["--stub", "--delay", "1e300"],
            ["-o", "x.bin", "--headers-only"]
        ] {
            let result = try call(["local", "status", "200"] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("moya-cli: error: "), result.stderr)
        }
        let curl = try CLIRunner.run(
            ["curl", "local", "status", "200", "--timeout", "1e300"], currentDirectory: folder.url)
        XCTAssertEqual(curl.status, 64, curl.stderr)
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    // MARK: One case kept (issue 16)

    /// `call API CASE` keeps only that case of the API's file; a case that is not there still
    /// gets its did-you-mean, or the list of every valid case in file order.
    func testAnUnknownCaseIsNamedWithTheAPIsCases() throws {
        let misspelled = try call(["local", "serch", "--stub"])
        XCTAssertEqual(misspelled.status, 64, misspelled.stderr)
        XCTAssertEqual(
            misspelled.stderr, "moya-cli: error: unknown case 'serch' in API 'local'; did you mean 'search'?\n")
        let unknown = try call(["local", "hidden", "--stub"])
        XCTAssertEqual(unknown.status, 64, unknown.stderr)
        XCTAssertEqual(
            unknown.stderr,
            "moya-cli: error: unknown case 'hidden' in API 'local'; valid cases: search, create, form, upload, "
                + "multipart, download, status, slowDownload, unavailable, postStatus, ratio, delay, redirect, drop, secret, export\n"
        )
        let found = try call(["local", "search", "hello", "--stub"])
        XCTAssertEqual(found.status, 0, found.stderr)
        XCTAssertEqual(found.stdout, #"{"q":"hello","page":1}"#)
    }
}
