import CLITestSupport
import Foundation
import TestServers
import XCTest

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The `--report` files of `check`: JUnit XML parses and counts match, JSON has the documented
/// schema, TAP is well formed.
final class CheckReportTests: XCTestCase {
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

    /// Runs the live check of `local` with every report; returns the run and the report files.
    func liveRunWithReports() throws -> (CLIResult, junit: URL, json: URL) {
        let junit = folder.url.appendingPathComponent("reports/check.xml")
        let json = folder.url.appendingPathComponent("check.json")
        try FileManager.default.createDirectory(
            at: junit.deletingLastPathComponent(), withIntermediateDirectories: true)
        let result = try CLIRunner.run(
            [
                "check", "local", "--live", "--report", "junit:" + junit.path, "--report", "json:" + json.path,
                "--report", "tap:-"
            ],
            environment: ["CHECK_TOKEN": "s3cret-token"], currentDirectory: folder.url)
        XCTAssertEqual(result.status, 8, result.stderr)
        return (result, junit, json)
    }

    func testJUnitParsesAndCountsMatch() throws {
        let (_, junitURL, _) = try liveRunWithReports()
        let data = try Data(contentsOf: junitURL)
        let collector = JUnitCollector()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "JUnit report is not XML: \(String(describing: parser.parserError))")

        let root = try XCTUnwrap(collector.elements.first)
        XCTAssertEqual(root.name, "testsuites")
        XCTAssertEqual(root.attributes["tests"], "9")
        XCTAssertEqual(root.attributes["failures"], "3")
        XCTAssertEqual(root.attributes["skipped"], "2")
        let suites = collector.elements.filter { $0.name == "testsuite" }
        XCTAssertEqual(suites.map { $0.attributes["name"] }, ["local"])
        XCTAssertEqual(suites.first?.attributes["tests"], "9")
        let cases = collector.elements.filter { $0.name == "testcase" }
        XCTAssertEqual(cases.count, 9)
        XCTAssertEqual(
            cases.map { $0.attributes["name"] ?? "" },
            ["slides", "echo#1", "echo#2", "missing", "drifting", "slow", "create", "uncovered", "secret"])
        XCTAssertTrue(
            cases.allSatisfy { $0.attributes["classname"] == "local" && Double($0.attributes["time"] ?? "") != nil })

        let failures = collector.elements.filter { $0.name == "failure" }
        XCTAssertEqual(failures.count, Int(root.attributes["failures"] ?? ""))
        XCTAssertEqual(failures.map { $0.attributes["type"] ?? "" }, ["status", "drift", "timeout"])
        XCTAssertEqual(failures[0].attributes["message"], "HTTP 404 failed the case's validation (expected 2xx)")
        XCTAssertTrue(failures[1].text.contains("$.slideshow.author: expected number, found string"), failures[1].text)
        XCTAssertTrue(failures[1].text.contains("$.slideshow.owner: missing"), failures[1].text)
        XCTAssertTrue(failures[1].text.hasPrefix("GET http://127.0.0.1:\(server.port)/json\n"), failures[1].text)
        let skipped = collector.elements.filter { $0.name == "skipped" }.map { $0.attributes["message"] ?? "" }
        XCTAssertEqual(
            skipped,
            [
                "POST is not sent live; add --include-unsafe to send it",
                "not covered: no examples for value 'id'; add 'examples:' to the case"
            ])
        XCTAssertFalse(String(decoding: data, as: UTF8.self).contains("s3cret-token"))
    }

    func testJSONReportHasTheDocumentedSchema() throws {
        let (_, _, jsonURL) = try liveRunWithReports()
        let report = try CheckFixtures.jsonReport(jsonURL)
        XCTAssertEqual(
            Set(report.keys), ["schema", "mode", "shard", "durationSeconds", "summary", "results", "invalidFiles"])
        XCTAssertEqual(report["schema"] as? String, "moya-cli-check/1")
        XCTAssertEqual(report["mode"] as? String, "live")
        XCTAssertTrue(report["shard"] is NSNull)
        XCTAssertNotNil(report["durationSeconds"] as? Double)
        let summary = try XCTUnwrap(report["summary"] as? [String: Int])
        XCTAssertEqual(
            summary, ["checks": 9, "passed": 4, "failed": 3, "skipped": 1, "notCovered": 1, "invalidFiles": 0])

        let results = try XCTUnwrap(report["results"] as? [[String: Any]])
        let keys: Set<String> = [
            "id", "api", "case", "example", "arguments", "method", "url", "outcome", "failure", "status",
            "durationSeconds", "attempts", "reasons", "drifts", "assertions"
        ]
        for result in results { XCTAssertEqual(Set(result.keys), keys) }
        let byID = try CheckFixtures.resultsByID(report)
        let echo = try XCTUnwrap(byID["local.echo#2"])
        XCTAssertEqual(echo["api"] as? String, "local")
        XCTAssertEqual(echo["case"] as? String, "echo")
        XCTAssertEqual(echo["example"] as? Int, 2)
        XCTAssertEqual(echo["arguments"] as? NSDictionary, ["name": "two", "page": 2] as NSDictionary)
        XCTAssertEqual(echo["method"] as? String, "GET")
        XCTAssertEqual(
            echo["url"] as? String, "http://127.0.0.1:\(server.port)/anything/two?page=2",
            "with the query: examples differ there")
        XCTAssertEqual(echo["outcome"] as? String, "passed")
        XCTAssertTrue(echo["failure"] is NSNull)
        XCTAssertEqual(echo["status"] as? Int, 200)
        XCTAssertEqual(echo["attempts"] as? Int, 1)

        let drifting = try XCTUnwrap(byID["local.drifting"])
        XCTAssertEqual(drifting["outcome"] as? String, "failed")
        XCTAssertEqual(drifting["failure"] as? String, "drift")
        XCTAssertTrue(drifting["example"] is NSNull)
        let drifts = try XCTUnwrap(drifting["drifts"] as? [[String: Any]])
        XCTAssertEqual(drifts.count, 4)
        XCTAssertEqual(drifts[0]["path"] as? String, "$.slideshow.author")
        XCTAssertEqual(drifts[0]["problem"] as? String, "type")
        XCTAssertEqual(drifts[0]["expected"] as? String, "number")
        XCTAssertEqual(drifts[0]["found"] as? String, "string")
        XCTAssertEqual(drifts[3]["path"] as? String, "$.slideshow.owner")
        XCTAssertEqual(drifts[3]["problem"] as? String, "missing")
        XCTAssertTrue(drifts[3]["expected"] is NSNull)

        XCTAssertEqual(byID["local.slow"]?["failure"] as? String, "timeout")
        XCTAssertEqual(byID["local.create"]?["outcome"] as? String, "skipped")
        XCTAssertTrue(byID["local.create"]?["durationSeconds"] is NSNull)
        XCTAssertEqual(byID["local.uncovered"]?["outcome"] as? String, "not-covered")
        XCTAssertTrue(byID["local.uncovered"]?["method"] is NSNull)
        XCTAssertEqual(
            byID["local.missing"]?["reasons"] as? [String], ["HTTP 404 failed the case's validation (expected 2xx)"])
    }

    func testTAPGoesToStdout() throws {
        let (result, _, _) = try liveRunWithReports()
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines.prefix(2)), ["TAP version 13", "1..9"])
        let points = lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
        XCTAssertEqual(
            points,
            [
                "ok 1 - local.slides",
                "ok 2 - local.echo\\#1",
                "ok 3 - local.echo\\#2",
                "not ok 4 - local.missing",
                "not ok 5 - local.drifting",
                "not ok 6 - local.slow",
                "ok 7 - local.create # SKIP POST is not sent live; add --include-unsafe to send it",
                "ok 8 - local.uncovered # SKIP not covered: no examples for value 'id'; add 'examples:' to the case",
                "ok 9 - local.secret"
            ])
        XCTAssertTrue(
            result.stdout.contains(
                """
                not ok 4 - local.missing
                  ---
                  message: "HTTP 404 failed the case's validation (expected 2xx)"
                  severity: fail
                  data:
                    failure: status
                    status: 404
                    request: "GET http://127.0.0.1:\(server.port)/status/404"
                  ...

                """), result.stdout)
        XCTAssertTrue(result.stdout.contains("      - \"$.slideshow.slides[1].count: missing\"\n"), result.stdout)
    }

    func testOfflineReportsAndShardInJSON() throws {
        let json = folder.url.appendingPathComponent("offline.json")
        let result = try CLIRunner.run(
            ["check", "local", "--shard", "1/1", "--report", "json:" + json.path, "--report", "junit:-"],
            currentDirectory: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try CheckFixtures.jsonReport(json)
        XCTAssertEqual(report["mode"] as? String, "offline")
        XCTAssertEqual(report["shard"] as? [String: Int], ["index": 1, "count": 1])
        XCTAssertEqual(
            report["summary"] as? [String: Int],
            ["checks": 9, "passed": 8, "failed": 0, "skipped": 0, "notCovered": 1, "invalidFiles": 0])
        let parser = XMLParser(data: result.stdoutData)
        XCTAssertTrue(parser.parse(), "JUnit on stdout is not XML")
    }

    /// `--report FORMAT:FILE` is one word: the words after it are API names, not more report words.
    func testReportTakesExactlyOneWordAndTheAPINamesAfterItAreChecked() throws {
        try folder.write(
            "targets/other.yaml",
            """
            api: other
            baseURL: http://127.0.0.1:1
            cases:
              ping: {path: /ping, sample: "pong"}
            """)
        let json = folder.url.appendingPathComponent("a:b.json")
        let result = try CLIRunner.run(
            ["check", "--report", "json:" + json.path, "other", "local", "--report", "tap:-"],
            currentDirectory: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try CheckFixtures.jsonReport(json)
        let ids = try XCTUnwrap(report["results"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        XCTAssertTrue(
            ids.contains("other.ping") && ids.contains("local.slides"), "both APIs after --report are checked: \(ids)")
        XCTAssertTrue(result.stdout.hasPrefix("TAP version 13\n"), result.stdout)

        let spaced = try CLIRunner.run(["check", "other", "--report=junit:-"], currentDirectory: folder.url)
        XCTAssertEqual(spaced.status, 0, spaced.stderr)
        XCTAssertTrue(spaced.stdout.contains("<testsuite"), spaced.stdout)
    }

    func testTheTwoWordSpellingIsAUsageErrorThatShowsTheOneWordForm() throws {
        let json = folder.url.appendingPathComponent("old.json")
        let result = try CLIRunner.run(["check", "local", "--report", "json", json.path], currentDirectory: folder.url)
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("--report takes FORMAT:FILE as one word: --report json:FILE ('json:-' for stdout)"),
            result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: json.path))

        let unknown = try CLIRunner.run(["check", "local", "--report", "xml:out.xml"], currentDirectory: folder.url)
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("'xml' is not a format; use junit, json, tap"), unknown.stderr)
        let noFile = try CLIRunner.run(["check", "local", "--report", "tap:"], currentDirectory: folder.url)
        XCTAssertEqual(noFile.status, 64)
        XCTAssertTrue(noFile.stderr.contains("needs a FILE after the colon ('tap:-' for stdout)"), noFile.stderr)
    }

    func testReportFilesAreNotWrittenWhenTheRunCannotStart() throws {
        let json = folder.url.appendingPathComponent("never.json")
        let result = try CLIRunner.run(["check", "nope", "--report", "json:" + json.path], currentDirectory: folder.url)
        XCTAssertEqual(result.status, 64)
        XCTAssertFalse(FileManager.default.fileExists(atPath: json.path))
    }
}

/// Collects every element of an XML document with its attributes and text.
final class JUnitCollector: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""
    }

    private(set) var elements: [Element] = []
    private var open: [Int] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append(Element(name: elementName, attributes: attributes))
        open.append(elements.count - 1)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let current = open.last { elements[current].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }
}
