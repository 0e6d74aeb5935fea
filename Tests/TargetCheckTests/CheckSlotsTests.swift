import Foundation
import MoyaKit
import Synchronization
import TargetCheck
import TargetSpec
import TestServers
import XCTest

/// Issue 16: each item that ends starts the next in its slot, from the thread it ended on (the
/// run's waiting thread no longer hands out slots). Items still start in plan order, at most
/// `jobs` at a time, and a long run of items that end at once does not nest.
final class CheckSlotsTests: XCTestCase {
    private var server: HTTPTestServer!
    private var downloads: String!

    override func setUpWithError() throws {
        server = try HTTPTestServer()
        downloads = NSTemporaryDirectory() + "check-slots-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server.stop()
        try? FileManager.default.removeItem(atPath: downloads)
    }

    private func plan(_ yaml: String) throws -> CheckPlan {
        let result = TargetFileLoader.load(text: yaml, file: "slots.yaml")
        return try CheckPlan(apis: [XCTUnwrap(result.api, result.diagnostics.map(\.message).joined(separator: "\n"))])
    }

    private func run(_ plan: CheckPlan, jobs: Int) -> (results: [CheckResult]?, reported: [Int]) {
        let reported = Mutex<[Int]>([])
        let runner = CheckRunner(
            items: plan.items, configuration: CheckConfiguration(isLive: true, jobs: jobs, downloadsFolder: downloads))
        let results = runner.run { index, _ in reported.withLock { $0.append(index) } }
        return (results, reported.withLock { $0 })
    }

    func testOneJobSendsTheItemsInPlanOrder() throws {
        let cases = (1...40).map { "  item\($0):\n    path: /anything/\($0)\n    sample: {json: {method: GET}}\n" }
            .joined()
        let plan = try plan("api: slots\nbaseURL: http://127.0.0.1:\(server.port)\ncases:\n" + cases)
        let (results, reported) = run(plan, jobs: 1)
        XCTAssertEqual(try XCTUnwrap(results).map(\.outcome), Array(repeating: .passed, count: 40))
        XCTAssertEqual(server.receivedRequests.map(\.path), (1...40).map { "/anything/\($0)" })
        XCTAssertEqual(reported, Array(0..<40))
    }

    func testManyJobsCheckEveryItemOnce() throws {
        let cases = (1...300).map { "  item\($0):\n    path: /anything/\($0)\n    sample: {json: {method: GET}}\n" }
            .joined()
        let plan = try plan("api: slots\nbaseURL: http://127.0.0.1:\(server.port)\ncases:\n" + cases)
        let (results, reported) = run(plan, jobs: 16)
        XCTAssertEqual(try XCTUnwrap(results).map(\.outcome), Array(repeating: .passed, count: 300))
        XCTAssertEqual(server.receivedRequests.map(\.path).sorted(), (1...300).map { "/anything/\($0)" }.sorted())
        XCTAssertEqual(reported.sorted(), Array(0..<300))
    }

    func testALongRunOfItemsThatEndAtOnceCompletes() throws {
        // Not covered (a value without an example) and skipped (an unsafe method): both end
        // without a request, on the thread that starts them.
        let uncovered = (1...3000).map {
            "  open\($0):\n    values: [{id: int}]\n    path: /anything/{id}\n    sample: x\n"
        }.joined()
        let unsafe = (1...3000).map { "  post\($0):\n    method: POST\n    path: /anything/\($0)\n    sample: x\n" }
            .joined()
        let plan = try plan("api: slots\nbaseURL: http://127.0.0.1:\(server.port)\ncases:\n" + uncovered + unsafe)
        let (results, reported) = run(plan, jobs: 2)
        let outcomes = try XCTUnwrap(results).map(\.outcome)
        XCTAssertEqual(outcomes, Array(repeating: .notCovered, count: 3000) + Array(repeating: .skipped, count: 3000))
        XCTAssertEqual(reported.count, 6000)
        XCTAssertTrue(server.receivedRequests.isEmpty)
    }
}

/// Issue 16: a plan that keeps every item is the items as made (no renumbering copy), and links
/// chains only when it has some. Its items, their order and their links must be those the
/// general path (a filtered plan, renumbered) gives for the items both keep.
final class CheckPlanFastPathTests: XCTestCase {
    private let yaml = """
        api: plan
        baseURL: http://127.0.0.1:9
        cases:
          first:
            path: /first
            sample: one
          create:
            method: POST
            values: [{name: string}]
            path: /items
            task: {json: {name: "{name}"}}
            captures: {id: "$.id"}
            sample: {status: 201, json: {id: item-1}}
            examples: [[widget]]
          get:
            values: [{id: string}]
            path: /items/{id}
            captures: {id: "$.id"}
            sample: {json: {id: "{id}"}}
            examples:
              - {after: create, with: {id: "{id}"}}
          middle:
            values: [{n: int}]
            path: /middle/{n}
            sample: two
            examples: [[1], [2]]
          delete:
            method: DELETE
            values: [{id: string}]
            path: /items/{id}
            sample: {status: 204}
            examples:
              - {after: get, with: {id: "{id}"}}
          last:
            path: /last
            sample: three
        """

    private func shape(_ plan: CheckPlan) -> [String] {
        plan.items.map { item in
            "\(item.id) after \(item.afterIndex.map { plan.items[$0].id } ?? "-") \(item.notCoveredReason ?? "")"
        }
    }

    func testAPlanKeepingEveryItemIsTheOneRenumberedWithoutTheItemsLeftOut() throws {
        let result = TargetFileLoader.load(text: yaml, file: "plan.yaml")
        let api = try XCTUnwrap(result.api, result.diagnostics.map(\.message).joined(separator: "\n"))
        let whole = try CheckPlan(apis: [api])
        XCTAssertEqual(
            shape(whole),
            [
                "plan.first after - ", "plan.create#1 after - ", "plan.get#1 after plan.create#1 ",
                "plan.middle#1 after - ", "plan.middle#2 after - ", "plan.delete#1 after plan.get#1 ",
                "plan.last after - "
            ])
        // The general path: items left out, the rest renumbered.
        for skipped in ["first", "middle", "last"] {
            let filtered = try CheckPlan(apis: [api], skip: [skipped])
            XCTAssertEqual(shape(filtered), shape(whole).filter { !$0.hasPrefix("plan.\(skipped)") }, skipped)
        }
        XCTAssertEqual(shape(try CheckPlan(apis: [api], shard: CheckShard(index: 1, count: 1))), shape(whole))
    }
}
