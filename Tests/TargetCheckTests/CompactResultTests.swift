import TargetModel
import TargetSpec
import XCTest

@testable import TargetCheck

/// Issue 42 (the sweep's memory): a result keeps what few results have (reasons, drifts, an
/// excerpt, assertions, captures, a chain's arguments, a kept response) in one box, and an item
/// its rare fields (why it is not covered, its chain, what it inherited) in another. Both are
/// values: a copy changed must never change the result or item it was copied from, the box
/// being shared until then.
final class CompactResultTests: XCTestCase {
    func testAResultIsSmallerThanItsFields() {
        // The fields of every result, stored (192 bytes before the box): a sweep of 10,000 checks
        // allocates them all at once.
        XCTAssertLessThanOrEqual(MemoryLayout<CheckResult>.stride, 96)
    }

    func testAPassedResultHasNoDetails() {
        let result = CheckResult.passed(status: 200, duration: 0.5, request: ("GET", "http://127.0.0.1/a"), attempts: 1)
        XCTAssertEqual(result.outcome, .passed)
        XCTAssertEqual(result.statusCode, 200)
        XCTAssertEqual(result.duration, 0.5)
        XCTAssertEqual(result.attempts, 1)
        XCTAssertEqual(result.request?.method, "GET")
        XCTAssertEqual(result.request?.url, "http://127.0.0.1/a")
        XCTAssertEqual(result.reasons, [])
        XCTAssertEqual(result.drifts, [])
        XCTAssertNil(result.responseExcerpt)
        XCTAssertTrue(result.assertions.isEmpty)
        XCTAssertNil(result.captured)
        XCTAssertNil(result.chainArguments)
        XCTAssertNil(result.liveResponse)
    }

    func testAFailedResultKeepsItsReasonsAndDrifts() {
        let drift = ShapeDrift(path: "$.id", problem: .missing)
        let result = CheckResult.failed(.drift, ["differs", "$.id: missing"], status: 200, duration: 1, drifts: [drift])
        XCTAssertEqual(result.failureKind, .drift)
        XCTAssertEqual(result.reasons, ["differs", "$.id: missing"])
        XCTAssertEqual(result.drifts, [drift])
    }

    func testAChangedCopyLeavesTheResultItWasCopiedFrom() {
        let original = CheckResult.failed(.status, ["HTTP 500"], status: 500, duration: 1)
        var copy = original
        copy.reasons.append("again")
        copy.responseExcerpt = "{\"error\": true}"
        copy.captured = CapturedValues(values: [("id", "7")], secretValues: ["7"])
        copy.chainArguments = [("id", .string("7"))]
        XCTAssertEqual(original.reasons, ["HTTP 500"])
        XCTAssertNil(original.responseExcerpt)
        XCTAssertNil(original.captured)
        XCTAssertNil(original.chainArguments)
        XCTAssertEqual(copy.reasons, ["HTTP 500", "again"])
        XCTAssertEqual(copy.responseExcerpt, "{\"error\": true}")
        XCTAssertEqual(copy.captured?["id"], "7")
        XCTAssertEqual(copy.chainArguments?.first?.name, "id")

        // And the other way round: the original changed after the copy leaves the copy.
        var first = CheckResult.failed(.build, ["cannot build"], duration: nil)
        let second = first
        first.reasons = ["changed"]
        XCTAssertEqual(second.reasons, ["cannot build"])
        XCTAssertEqual(first.reasons, ["changed"])
    }

    func testTheCollectorsPlaceholderIsNotChangedThroughOneSlot() {
        // Every slot starts as one shared "not run" result; storing or changing one changes no other.
        let collector = ResultCollector(count: 3)
        var stored = CheckResult.failed(.transport, ["not run"], duration: nil)
        stored.reasons[0] = "ran"
        collector.store(stored, at: 1)
        let results = collector.takeResults()
        XCTAssertEqual(results.map(\.reasons), [["not run"], ["ran"], ["not run"]])
    }

    func testAKeptURLIsTheSameText() {
        var built = "http://127.0.0.1:8080"
        built += "/items/"
        built += String(12345)
        built += "?q=\u{E9}t\u{E9}"
        XCTAssertEqual(built.compacted, built)
        XCTAssertEqual(built.compacted.utf8.count, built.utf8.count)
        XCTAssertEqual("".compacted, "")
        XCTAssertEqual("short".compacted, "short")
    }
}

/// The item's rare fields: a copy given its captures (a chain's next step) or another reason
/// leaves the plan's item as it was.
final class CompactItemTests: XCTestCase {
    private let yaml = """
        api: plan
        baseURL: http://127.0.0.1:9
        cases:
          create:
            method: POST
            path: /items
            captures: {id: "$.id"}
            sample: {status: 201, json: {id: item-1}}
          get:
            values: [{id: string}]
            path: /items/{id}
            sample: {json: {id: "{id}"}}
            examples:
              - {after: create, with: {id: "{id}"}}
          uncovered:
            values: [{id: string}]
            path: /other/{id}
            sample: ok
        """

    func testAChangedItemLeavesThePlansItem() throws {
        let loaded = TargetFileLoader.load(text: yaml, file: "plan.yaml")
        let api = try XCTUnwrap(loaded.api, loaded.diagnostics.map(\.message).joined(separator: "\n"))
        let plan = try CheckPlan(apis: [api])
        XCTAssertEqual(plan.items.map(\.id), ["plan.create", "plan.get#1", "plan.uncovered"])
        let step = plan.items[1]
        XCTAssertEqual(step.chain?.after.caseName, "create")
        XCTAssertEqual(step.afterIndex, 0)
        XCTAssertNil(step.inheritedCaptures)
        XCTAssertNil(plan.items[0].chain)
        XCTAssertNil(plan.items[0].notCoveredReason)
        XCTAssertNotNil(plan.items[2].notCoveredReason)

        var ready = step
        ready.inheritedCaptures = CapturedValues(values: [("id", "item-1")], secretValues: [])
        ready.notCoveredReason = "changed"
        XCTAssertEqual(ready.inheritedCaptures?["id"], "item-1")
        XCTAssertEqual(ready.chain?.after.caseName, "create")
        XCTAssertNil(step.inheritedCaptures)
        XCTAssertNil(step.notCoveredReason)
        XCTAssertNil(plan.items[1].inheritedCaptures)
        XCTAssertEqual(plan.items[1].chain?.after.caseName, "create")

        var cleared = plan.items[2]
        cleared.notCoveredReason = nil
        XCTAssertNil(cleared.notCoveredReason)
        XCTAssertNotNil(plan.items[2].notCoveredReason)
    }
}
