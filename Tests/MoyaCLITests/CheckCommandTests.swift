import CLITestSupport
import Foundation
import TestServers
import XCTest

/// `moya-cli check` run as a user would: offline from samples, and live against a loopback server.
final class CheckCommandTests: XCTestCase {
    var server: HTTPTestServer!
    var folder: TemporaryFolder!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        folder = try TemporaryFolder()
        try folder.write("targets/local.yaml", CheckFixtures.localTargets(port: server.port))
    }

    override func tearDown() {
        server.stop()
    }

    func check(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 60) throws
        -> CLIResult
    {
        try CLIRunner.run(
            ["check"] + arguments, environment: environment, currentDirectory: folder.url, timeout: timeout)
    }

    // MARK: Interruption

    func testInterruptCancelsLiveChecksAndExits130() throws {
        try folder.write(
            "targets/waiting.yaml",
            """
            api: waiting
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              first: {path: /delay/30000, sample: late}
              second: {path: /delay/30001, sample: late}
            """)
        let start = Date()
        let run = try CLIRunner.interrupt(
            ["check", "waiting", "--live", "--jobs", "2"], in: folder.url,
            when: { server.receivedRequests.count == 2 }
        ) { _ in () }
        XCTAssertEqual(run.status, 130, run.stderr)
        XCTAssertTrue(run.stderr.contains("interrupted"), run.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(start), 20, "Ctrl-C cut the 30 s requests short")
    }

    // MARK: Offline

    func testOfflineChecksEverySampleWithoutSendingAnything() throws {
        let result = try check(["local"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.receivedRequests.count, 0)
        for id in [
            "local.slides", "local.echo#1", "local.echo#2", "local.missing", "local.drifting", "local.slow",
            "local.create",
            "local.secret"
        ] {
            let line = try XCTUnwrap(
                CheckFixtures.line(id, in: result.stderr), "no line for \(id) in\n\(result.stderr)")
            XCTAssertTrue(line.contains(" pass "), line)
        }
        let uncovered = try XCTUnwrap(CheckFixtures.line("local.uncovered", in: result.stderr))
        XCTAssertTrue(uncovered.contains("not-covered"), uncovered)
        XCTAssertTrue(uncovered.contains("no examples for value 'id'; add 'examples:' to the case"), uncovered)
        XCTAssertTrue(
            result.stderr.contains("check (offline): 8 passed, 0 failed, 1 not covered; 9 checks in"), result.stderr)
        XCTAssertEqual(result.stdout, "")
    }

    func testOfflineFailuresNameTheSampleAndTheRule() throws {
        try folder.write("targets/broken.yaml", CheckFixtures.brokenSamples)
        let result = try check(["broken"])
        XCTAssertEqual(result.status, 8, result.stderr)
        let badDefault = try XCTUnwrap(CheckFixtures.line("broken.badDefault", in: result.stderr))
        XCTAssertTrue(badDefault.contains("fail"), badDefault)
        XCTAssertTrue(badDefault.contains("404"), badDefault)
        XCTAssertTrue(
            badDefault.contains(
                "sample 'missing', the default, answers HTTP 404, which fails the case's validation (2xx); "
                    + "the default sample must pass: put a success sample first"), badDefault)
        XCTAssertTrue(
            result.stderr.contains(
                "sample 'offline', the default, is a network error (timeout); the default sample must be a response"),
            result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "sample 'default' says Content-Type: application/json but its body is not JSON (line 1, column "),
            result.stderr)
        XCTAssertTrue(try XCTUnwrap(CheckFixtures.line("broken.fine", in: result.stderr)).contains(" pass "))
        let unset = try XCTUnwrap(CheckFixtures.line("broken.unsetVariable", in: result.stderr))
        XCTAssertTrue(unset.contains("cannot build the request:") && unset.contains("CHECK_TEST_UNSET_VARIABLE"), unset)
        XCTAssertTrue(result.stderr.contains("check (offline): 1 passed, 4 failed; 5 checks in"), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("moya-cli: error: 4 of 5 checks failed\n"), result.stderr)
    }

    func testShippedGitHubExamplePassesOffline() throws {
        let github = CLIRunner.repositoryRoot.appendingPathComponent("targets/github.yaml").path
        let result = try check(["github", "--targets", github])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("check (offline): 25 passed, 0 failed; 25 checks in"), result.stderr)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Moya.tar.gz").path),
            "the download sample must not land in the working folder")
    }

    func testBrokenCopyOfTheGitHubExampleFailsWithTheRightMessages() throws {
        var text = try String(
            contentsOf: CLIRunner.repositoryRoot.appendingPathComponent("targets/github.yaml"), encoding: .utf8)
        let replacements = [
            (
                "      ok:\n        json:\n          login:",
                "      ok:\n        status: 500\n        json:\n          login:"
            ),
            (#"headers: {Content-Type: "text/plain; charset=utf-8"}"#, "headers: {Content-Type: application/json}"),
            ("    examples:\n      - [ashfurrow]\n      - [ashfurrow, 5]\n", "")
        ]
        for (old, new) in replacements {
            XCTAssertTrue(text.contains(old), "github.yaml changed: \(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        let copy = try folder.write("copy/github.yaml", text)
        try FileManager.default.copyItem(
            at: CLIRunner.repositoryRoot.appendingPathComponent("targets/samples"),
            to: folder.url.appendingPathComponent("copy/samples"))
        let result = try check(["github", "--targets", copy.path])
        XCTAssertEqual(result.status, 8, result.stderr)
        XCTAssertTrue(
            try XCTUnwrap(CheckFixtures.line("github.userProfile#1", in: result.stderr)).contains(
                "sample 'ok', the default, answers HTTP 500, which fails the case's validation (2xx)"), result.stderr)
        XCTAssertTrue(
            try XCTUnwrap(CheckFixtures.line("github.repoReadme#1", in: result.stderr)).contains(
                "sample 'default' says Content-Type: application/json but its body is not JSON"), result.stderr)
        XCTAssertTrue(
            try XCTUnwrap(CheckFixtures.line("github.userFollowers", in: result.stderr)).contains(
                "not-covered  -           -  no examples for value 'name'"), result.stderr)
        XCTAssertTrue(
            result.stderr.contains("check (offline): 20 passed, 3 failed, 1 not covered; 24 checks in"), result.stderr)
    }

    // MARK: Live

    func testLiveReportsPassStatusDriftTimeoutSkipAndNotCovered() throws {
        let result = try check(["local", "--live", "--jobs", "4"], environment: ["CHECK_TOKEN": "t0ken-123"])
        XCTAssertEqual(result.status, 8, result.stderr)
        for id in ["local.slides", "local.echo#1", "local.echo#2", "local.secret"] {
            XCTAssertTrue(
                try XCTUnwrap(CheckFixtures.line(id, in: result.stderr)).contains(" pass         200"), result.stderr)
        }
        XCTAssertTrue(
            try XCTUnwrap(CheckFixtures.line("local.missing", in: result.stderr)).contains(
                "fail         404 "), result.stderr)
        XCTAssertTrue(result.stderr.contains("HTTP 404 failed the case's validation (expected 2xx)"), result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                """
                the body's shape differs from sample 'default' in 4 places
                    $.slideshow.author: expected number, found string
                    $.slideshow.slides[0].count: missing
                    $.slideshow.slides[1].count: missing
                    $.slideshow.owner: missing

                """), result.stderr)
        let slow = try XCTUnwrap(CheckFixtures.line("local.slow", in: result.stderr))
        XCTAssertTrue(slow.contains("fail") && slow.contains("timed out: "), slow)
        XCTAssertTrue(
            try XCTUnwrap(CheckFixtures.line("local.create", in: result.stderr)).contains(
                "skip         -           -  POST is not sent live; add --include-unsafe to send it"), result.stderr)
        XCTAssertTrue(try XCTUnwrap(CheckFixtures.line("local.uncovered", in: result.stderr)).contains("not-covered"))
        XCTAssertTrue(
            result.stderr.contains("check (live): 4 passed, 3 failed, 1 skipped, 1 not covered; 9 checks in"),
            result.stderr)
        XCTAssertFalse(result.stderr.contains("t0ken-123"))
        let paths = Set(server.receivedRequests.map(\.target))
        XCTAssertTrue(
            paths.isSuperset(of: [
                "/json", "/anything/one?page=1", "/anything/two?page=2", "/status/404", "/delay/3000", "/bearer"
            ]),
            "\(paths)")
        XCTAssertFalse(server.receivedRequests.contains { $0.method == "POST" }, "unsafe requests are not sent")
        XCTAssertEqual(
            server.receivedRequests.first { $0.path == "/bearer" }?.value(of: "Authorization"), "Bearer t0ken-123")
    }

    func testIncludeUnsafeSendsPostAndOnlySelectsCases() throws {
        let result = try check([
            "local", "--live", "--include-unsafe", "--only", "create", "--only", "local.sl*", "--skip", "slow"
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            try XCTUnwrap(CheckFixtures.line("local.create", in: result.stderr)).contains(" pass         200"),
            result.stderr)
        XCTAssertTrue(result.stderr.contains("2 passed, 0 failed; 2 checks in"), result.stderr)
        XCTAssertEqual(server.receivedRequests.map(\.method).sorted(), ["GET", "POST"])
    }

    func testStrictReportsExtraKeys() throws {
        let result = try check(["local", "--live", "--strict", "--only", "echo"])
        XCTAssertEqual(result.status, 8, result.stderr)
        XCTAssertTrue(result.stderr.contains("    $.url: unexpected key (string)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("    $.body_size: unexpected key (number)"), result.stderr)
    }

    func testMissingCredentialFailsTheCaseOnlyLive() throws {
        let result = try check(["local", "--live", "--only", "secret"])
        XCTAssertEqual(result.status, 8, result.stderr)
        let line = try XCTUnwrap(CheckFixtures.line("local.secret", in: result.stderr))
        XCTAssertTrue(line.contains("cannot build the request:") && line.contains("CHECK_TOKEN"), line)
        XCTAssertEqual(server.receivedRequests.count, 0)
    }

    func testBaseURLOverrideAndRetries() throws {
        try folder.write(
            "targets/flaky.yaml",
            """
            api: flaky
            baseURL: http://127.0.0.1:1
            validation: successCodes
            cases:
              unavailable: {path: /status/503, sample: ok}
            """)
        let report = folder.url.appendingPathComponent("flaky.json")
        let result = try check([
            "flaky", "--live", "--base-url", server.baseURL.absoluteString, "--retry", "1",
            "--report", "json:" + report.path
        ])
        XCTAssertEqual(result.status, 8, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("HTTP 503 failed the case's validation (expected 2xx) (after 2 attempts)"),
            result.stderr)
        XCTAssertEqual(server.receivedRequests.map(\.target), ["/status/503", "/status/503"])
        let entry = try XCTUnwrap(
            try CheckFixtures.resultsByID(try CheckFixtures.jsonReport(report))["flaky.unavailable"])
        XCTAssertEqual(entry["attempts"] as? Int, 2)
        XCTAssertEqual(entry["status"] as? Int, 503)
        XCTAssertEqual(entry["failure"] as? String, "status")
    }

    func testRequestOptionsMeanWhatTheyMeanForCall() throws {
        try folder.write(
            "targets/patient.yaml",
            """
            api: patient
            baseURL: http://127.0.0.1:1
            headers: {X-Drop: me}
            environments:
              loopback: {baseURL: "http://127.0.0.1:\(server.port)"}
            cases:
              wait: {path: /delay/600, timeout: 0.2, sample: {json: {method: GET}}}
            """)
        let caseTimeout = try check(["patient", "--live", "--env", "loopback"])
        XCTAssertEqual(caseTimeout.status, 8, caseTimeout.stderr)
        XCTAssertTrue(
            try XCTUnwrap(CheckFixtures.line("patient.wait", in: caseTimeout.stderr)).contains("timed out: "),
            caseTimeout.stderr)
        XCTAssertEqual(
            server.receivedRequests.first?.value(of: "X-Drop"), "me", "the API's header is sent unless -H removes it")

        let result = try check([
            "patient", "--live", "--env", "loopback", "--timeout", "10", "-H", "X-Check: yes", "-H", "X-Drop:"
        ])
        XCTAssertEqual(result.status, 0, "--timeout replaces the case's timeout: \(result.stderr)")
        let received = try XCTUnwrap(server.receivedRequests.last)
        XCTAssertEqual(received.target, "/delay/600", "--env picks the environment's base URL")
        XCTAssertEqual(received.value(of: "X-Check"), "yes")
        XCTAssertTrue(received.values(of: "X-Drop").isEmpty, "'-H Name:' removes the API's header")
    }

    func testIdenticalRequestsInFlightAreSentOnce() throws {
        try folder.write(
            "targets/twice.yaml",
            """
            api: twice
            baseURL: http://127.0.0.1:\(server.port)
            cases:
              wait:
                values: [{ms: int}]
                path: /delay/{ms}
                sample: {json: {method: GET}}
                examples: [[400], [400], [400]]
            """)
        let result = try check(["twice", "--live", "--jobs", "3"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("3 passed, 0 failed; 3 checks in"), result.stderr)
        XCTAssertEqual(server.receivedRequests.count, 1, "three identical requests in flight share one exchange")
    }

    /// Issue 11, item 3: the anonymous case and the case with the token make the same endpoint;
    /// only the credential the auth adds tells them apart, so they must not share a response.
    func testCasesThatDifferOnlyInTheirCredentialAreNotCoalesced() throws {
        try folder.write(
            "targets/guarded.yaml",
            """
            api: guarded
            baseURL: http://127.0.0.1:\(server.port)
            auth: {type: bearer, token: "${secret:GUARD_TOKEN}"}
            cases:
              anonymous:
                auth: none
                path: /delay/400
                sample: {json: {method: GET}}
              withToken:
                path: /delay/400
                sample: {json: {method: GET}}
            """)
        let result = try check(["guarded", "--live", "--jobs", "2"], environment: ["GUARD_TOKEN": "t0ken-for-guard"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let authorizations = server.receivedRequests.map { $0.value(of: "Authorization") ?? "none" }.sorted()
        XCTAssertEqual(authorizations, ["Bearer t0ken-for-guard", "none"], "each case sent its own request")
    }

    func testRateSpacesRequests() throws {
        let start = Date()
        let result = try check([
            "local", "--live", "--rate", "10", "--only", "echo", "--only", "slides", "--only", "missing"
        ])
        XCTAssertEqual(result.status, 8, result.stderr)
        XCTAssertEqual(server.receivedRequests.count, 4)
        // Four requests at 10 per second: the last starts at least 0.3 s after the first.
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.3)
    }

    // MARK: Shards and exit codes

    func testShardsPartitionTheChecksStably() throws {
        try folder.write("targets/many.yaml", CheckFixtures.manyCases(40))
        let all = try shardIDs(nil)
        XCTAssertEqual(all.count, 44)
        var seen: [String] = []
        for index in 1...3 {
            let part = try shardIDs("\(index)/3")
            XCTAssertFalse(part.isEmpty, "shard \(index)/3 is empty")
            XCTAssertEqual(part, try shardIDs("\(index)/3"), "shards are stable")
            seen += part
        }
        XCTAssertEqual(seen.sorted(), all.sorted(), "every check is in exactly one shard")
    }

    func shardIDs(_ shard: String?) throws -> [String] {
        let report = folder.url.appendingPathComponent("shard-\(UUID().uuidString).json")
        let result = try check(["many", "--report", "json:" + report.path] + (shard.map { ["--shard", $0] } ?? []))
        XCTAssertEqual(result.status, 0, result.stderr)
        let results = try XCTUnwrap(try CheckFixtures.jsonReport(report)["results"] as? [[String: Any]])
        return results.compactMap { $0["id"] as? String }
    }

    func testUsageErrorsExit64() throws {
        for arguments in [
            ["nope"], ["local", "--shard", "4/3"], ["local", "--shard", "x"], ["local", "--rate", "5"],
            ["local", "--jobs", "0"], ["local", "--report", "xml:out.xml"], ["local", "--report", "json:"],
            ["local", "--report", "out.xml"],
            ["local", "--only", "zzz"], ["local", "--live", "--env", "staging"],
            ["local", "--live", "--rate", "1e-300"], ["local", "--live", "--timeout", "inf"]
        ] {
            let result = try check(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
        }
        XCTAssertTrue(
            try check(["local", "--only", "zzz"]).stderr.contains("--only 'zzz' matches no case; cases: local.slides"))
    }

    func testInvalidTargetFileExits65() throws {
        try folder.write("targets/bad.yaml", "api: bad\nbaseURL: http://127.0.0.1:1\ncases:\n  zen:\n    pth: /zen\n")
        let named = try check(["bad"])
        XCTAssertEqual(named.status, 65, named.stderr)
        XCTAssertTrue(
            named.stderr.contains("bad.yaml:5:5: error: unknown key 'pth' in case 'zen'; did you mean 'path'?"),
            named.stderr)
        XCTAssertTrue(named.stderr.contains("bad  fail"), "reported as a failed check: \(named.stderr)")
        let everything = try check([])
        XCTAssertEqual(everything.status, 65, everything.stderr)
        XCTAssertEqual(try check(["local"]).status, 0, "another API's broken file does not stop checking this one")
    }

    /// Issue 13, item 9: an invalid file is a failed check in every report, and the other APIs
    /// are still checked, so CI shows results.
    func testAnInvalidFileIsAFailedCheckInEveryReportAndTheOthersRun() throws {
        try folder.write("targets/bad.yaml", "api: bad\nbaseURL: http://127.0.0.1:1\ncases:\n  zen:\n    pth: /zen\n")
        let json = folder.url.appendingPathComponent("r.json")
        let junit = folder.url.appendingPathComponent("r.xml")
        let tap = folder.url.appendingPathComponent("r.tap")
        let result = try check([
            "--report", "json:" + json.path, "--report", "junit:" + junit.path, "--report", "tap:" + tap.path
        ])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("local.slides"), "the valid API was checked: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("invalid target file targets/bad.yaml"), result.stderr)
        let report = try CheckFixtures.jsonReport(json)
        let invalid = try XCTUnwrap(report["invalidFiles"] as? [[String: Any]])
        XCTAssertEqual(invalid.first?["file"] as? String, "targets/bad.yaml")
        XCTAssertEqual(invalid.first?["api"] as? String, "bad")
        XCTAssertTrue(
            (invalid.first?["problems"] as? [String])?.contains {
                $0.hasPrefix("targets/bad.yaml:5:5: unknown key 'pth'")
            } ?? false, "\(invalid)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        XCTAssertTrue(xml.contains(#"<testcase classname="bad" name="(target file)" file="targets/bad.yaml""#), xml)
        XCTAssertTrue(xml.contains(#"type="invalid-file""#), xml)
        let tapText = try String(contentsOf: tap, encoding: .utf8)
        XCTAssertTrue(tapText.contains("not ok 1 - bad invalid target file"), tapText)
    }

    /// A missing folder is made (issue 28, see RerunTests); one that cannot be made is reported.
    func testAReportThatCannotBeWrittenExits74() throws {
        let result = try check(["local", "--report", "json:/proc/no-such-folder/report.json"])
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "cannot write the json report: cannot write /proc/no-such-folder/report.json: "
                    + "cannot create folder /proc/no-such-folder: "), result.stderr)
    }
}
