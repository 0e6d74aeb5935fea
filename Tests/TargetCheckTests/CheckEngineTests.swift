import Foundation
import MoyaKit
import Synchronization
import TargetCheck
import TargetModel
import TargetSpec
import TestServers
import XCTest

/// The check engine used from Swift, without the binary: plans, offline and live runs,
/// cancellation, and the reports.
final class CheckEngineTests: XCTestCase {
    private var server: HTTPTestServer!
    private var downloads: String!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        downloads = NSTemporaryDirectory() + "check-engine-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(atPath: downloads)
    }

    private func api(_ yaml: String, file: String = "local.yaml") throws -> APISpec {
        let result = TargetFileLoader.load(text: yaml, file: file)
        return try XCTUnwrap(result.api, result.diagnostics.map(\.message).joined(separator: "\n"))
    }

    private var local: String {
        """
        api: local
        baseURL: http://127.0.0.1:\(server.port)
        validation: successCodes
        cases:
          slides:
            path: /json
            sample: {json: {slideshow: {author: Someone, title: Slides, slides: [{title: One, type: all}]}}}
          drifting:
            path: /json
            sample: {json: {slideshow: {author: 1}}}
          missing:
            path: /status/404
            sample: {json: {found: true}}
          echo:
            values: [{name: string}]
            path: /anything/{name}
            sample: {json: {method: GET}}
            examples: [[one], [two]]
          uncovered:
            values: [{id: int}]
            path: /anything/{id}
            sample: one item
          brokenSample:
            path: /json
            sample: {status: 500, text: down}
          slow:
            path: /delay/10000
            sample: late
        """
    }

    private func run(_ plan: CheckPlan, live: Bool, jobs: Int = 4) -> (results: [CheckResult]?, reported: [Int]) {
        let reported = Mutex<[Int]>([])
        let runner = CheckRunner(
            items: plan.items, configuration: CheckConfiguration(isLive: live, jobs: jobs, downloadsFolder: downloads))
        let results = runner.run { index, _ in reported.withLock { $0.append(index) } }
        return (results, reported.withLock { $0 })
    }

    private func outcome(_ id: String, in plan: CheckPlan, _ results: [CheckResult]) -> CheckResult? {
        plan.items.firstIndex { $0.id == id }.map { results[$0] }
    }

    func testPlanSelectsExamplesFiltersAndShardsStably() throws {
        let api = try api(local)
        let all = try CheckPlan(apis: [api])
        XCTAssertEqual(
            all.items.map(\.id),
            [
                "local.slides", "local.drifting", "local.missing", "local.echo#1", "local.echo#2",
                "local.uncovered", "local.brokenSample", "local.slow"
            ])
        XCTAssertNotNil(all.items[5].notCoveredReason)
        XCTAssertEqual(try CheckPlan(apis: [api], only: ["e*"]).items.map(\.id), ["local.echo#1", "local.echo#2"])
        XCTAssertEqual(
            try CheckPlan(apis: [api], skip: ["local.*o*"]).items.map(\.id),
            ["local.slides", "local.drifting", "local.missing"])
        XCTAssertThrowsError(try CheckPlan(apis: [api], only: ["nothing"])) { error in
            XCTAssertTrue("\(error)".contains("--only 'nothing' matches no case"), "\(error)")
        }
        let shards = try (1...3).map { index in
            try CheckPlan(apis: [api], shard: XCTUnwrap(CheckShard(index: index, count: 3))).items.map(\.id)
        }
        XCTAssertEqual(shards.flatMap { $0 }.sorted(), all.items.map(\.id).sorted(), "the shards partition the plan")
        XCTAssertEqual(
            shards[0], try CheckPlan(apis: [api], shard: XCTUnwrap(CheckShard(index: 1, count: 3))).items.map(\.id))
        XCTAssertNil(CheckShard(index: 4, count: 3))
    }

    func testOfflineRunChecksSamplesWithoutSending() throws {
        let plan = try CheckPlan(apis: [api(local)], skip: ["slow"])
        let (results, reported) = run(plan, live: false)
        let checked = try XCTUnwrap(results)
        XCTAssertEqual(Set(reported), Set(plan.items.indices), "every result was reported")
        XCTAssertEqual(outcome("local.slides", in: plan, checked)?.outcome, .passed)
        XCTAssertEqual(outcome("local.uncovered", in: plan, checked)?.outcome, .notCovered)
        let broken = try XCTUnwrap(outcome("local.brokenSample", in: plan, checked))
        XCTAssertEqual(broken.outcome, .failed)
        XCTAssertEqual(broken.failureKind, .sample)
        XCTAssertTrue(server.receivedRequests.isEmpty, "offline sends nothing")
    }

    func testLiveRunComparesStatusAndShape() throws {
        let plan = try CheckPlan(apis: [api(local)], only: ["slides", "drifting", "missing", "echo"])
        let (results, _) = run(plan, live: true)
        let checked = try XCTUnwrap(results)
        XCTAssertEqual(outcome("local.slides", in: plan, checked)?.outcome, .passed)
        let drift = try XCTUnwrap(outcome("local.drifting", in: plan, checked))
        XCTAssertEqual(drift.failureKind, .drift)
        XCTAssertFalse(drift.drifts.isEmpty)
        let missing = try XCTUnwrap(outcome("local.missing", in: plan, checked))
        XCTAssertEqual(missing.failureKind, .status)
        XCTAssertEqual(missing.statusCode, 404)
        XCTAssertEqual(outcome("local.echo#2", in: plan, checked)?.outcome, .passed)
        XCTAssertEqual(
            Set(server.receivedRequests.map(\.path)), ["/json", "/status/404", "/anything/one", "/anything/two"])
    }

    func testCancellingStopsTheRunAndWhatIsInFlight() throws {
        let plan = try CheckPlan(apis: [api(local)], only: ["slow"])
        let runner = CheckRunner(
            items: plan.items, configuration: CheckConfiguration(isLive: true, downloadsFolder: downloads))
        let server = self.server!
        DispatchQueue.global().async {
            while server.receivedRequests.isEmpty { usleep(5_000) }
            runner.cancel()
        }
        let start = Date()
        XCTAssertNil(runner.run { _, _ in }, "a cancelled run has no results")
        XCTAssertTrue(runner.isCancelled)
        XCTAssertLessThan(Date().timeIntervalSince(start), 8, "the 10 s request was cut short")
    }

    func testReportsAndTheHumanSummary() throws {
        let plan = try CheckPlan(apis: [api(local)], only: ["slides", "missing"])
        let (results, _) = run(plan, live: true)
        let summary = CheckSummary(
            items: plan.items, results: try XCTUnwrap(results), isLive: true, shard: nil, duration: 0.25)
        XCTAssertEqual(summary.count(.passed), 1)
        XCTAssertEqual(summary.count(.failed), 1)

        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(CheckReport.render(summary, as: .json).utf8)) as? [String: Any])
        XCTAssertNotNil(json["results"] ?? json["apis"], "\(json.keys)")
        let junit = CheckReport.render(summary, as: .junit)
        XCTAssertTrue(junit.hasPrefix("<?xml"), junit)
        XCTAssertTrue(junit.contains("local.missing") || junit.contains("missing"), junit)
        let tap = CheckReport.render(summary, as: .tap)
        XCTAssertTrue(tap.hasPrefix("TAP version 13\n1..2\n"), tap)
        XCTAssertTrue(tap.contains("not ok"), tap)

        let written = Mutex("")
        let human = HumanReporter(items: plan.items, colors: false, showsProgress: false) { text in
            written.withLock { $0 += text }
        }
        for (index, result) in summary.results.enumerated() { human.receive(index, result) }
        human.finish(summary)
        let text = written.withLock { $0 }
        XCTAssertTrue(text.contains("local.slides"), text)
        XCTAssertTrue(text.contains("check (live): 1 passed, 1 failed; 2 checks in"), text)
    }

    /// The human summary writes outside its lock: one thread writes at a time, whatever the
    /// others make printable meanwhile follows in plan order, and nothing is lost, with 8 jobs
    /// and a writer slow enough that results arrive while it writes.
    func testTheHumanSummaryWritesInPlanOrderOneWriterAtATime() throws {
        var yaml = "api: many\nbaseURL: http://127.0.0.1:9\ncases:\n"
        for index in 0..<300 { yaml += "  case\(index): {path: /x\(index), sample: ok}\n" }
        let plan = try CheckPlan(apis: [api(yaml, file: "many.yaml")])
        let written = Mutex("")
        let writers = Atomic(0)
        let mostWriters = Atomic(0)
        let writes = Atomic(0)
        let human = HumanReporter(items: plan.items, colors: false, showsProgress: false) { text in
            let now = writers.add(1, ordering: .sequentiallyConsistent).newValue
            mostWriters.max(now, ordering: .sequentiallyConsistent)
            writes.add(1, ordering: .relaxed)
            usleep(200)
            written.withLock { $0 += text }
            writers.subtract(1, ordering: .sequentiallyConsistent)
        }
        let runner = CheckRunner(
            items: plan.items, configuration: CheckConfiguration(isLive: false, jobs: 8, downloadsFolder: downloads))
        XCTAssertNotNil(runner.run { index, result in human.receive(index, result) })
        let ids = written.withLock { $0 }.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        XCTAssertEqual(ids, plan.items.map(\.id), "every line once, in plan order")
        XCTAssertEqual(mostWriters.load(ordering: .sequentiallyConsistent), 1, "never two writes at once")
        XCTAssertLessThanOrEqual(writes.load(ordering: .relaxed), 300)
    }

    /// Issue 13, item 9: shards are balanced within one check and stable.
    func testShardsAreBalancedAndStable() throws {
        var yaml = "api: many\nbaseURL: http://127.0.0.1:9\ncases:\n"
        for index in 0..<76 { yaml += "  case\(index): {path: /x, sample: ok}\n" }
        let api = try api(yaml, file: "many.yaml")
        for count in [2, 3, 5, 7] {
            let sizes = try (1...count).map {
                try CheckPlan(apis: [api], shard: XCTUnwrap(CheckShard(index: $0, count: count))).items.count
            }
            XCTAssertEqual(sizes.reduce(0, +), 76)
            XCTAssertLessThanOrEqual((sizes.max() ?? 0) - (sizes.min() ?? 0), 1, "\(count) shards: \(sizes)")
        }
        let first = try CheckPlan(apis: [api], shard: XCTUnwrap(CheckShard(index: 2, count: 3))).items.map(\.id)
        XCTAssertEqual(
            first, try CheckPlan(apis: [api], shard: XCTUnwrap(CheckShard(index: 2, count: 3))).items.map(\.id))
    }

    /// Issue 13, item 9: a JUnit failure names the first difference and the target file.
    func testJUnitNamesTheFirstDifferenceAndTheFile() throws {
        let plan = try CheckPlan(apis: [api(local, file: "targets/local.yaml")], only: ["drifting", "echo"])
        let (results, _) = run(plan, live: true)
        let summary = CheckSummary(
            items: plan.items, results: try XCTUnwrap(results), isLive: true, shard: nil, duration: 0.1)
        let junit = CheckReport.render(summary, as: .junit)
        XCTAssertTrue(junit.contains(#"file="targets/local.yaml""#), junit)
        XCTAssertTrue(junit.contains(#"<failure message="$.slideshow.author: expected number, found string""#), junit)
        XCTAssertEqual(
            summary.results.compactMap { $0.request?.url }.filter { $0.contains("/anything/") },
            ["http://127.0.0.1:\(server.port)/anything/one", "http://127.0.0.1:\(server.port)/anything/two"])
    }
}
