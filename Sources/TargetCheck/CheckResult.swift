import Assertions
import Paging
import TargetModel
import TargetSpec

/// What checking one item found.
package struct CheckResult: Sendable {
    /// The verdict.
    package enum Outcome: String, Sendable {
        case passed
        case failed
        case skipped
        case notCovered = "not-covered"

        /// The word on the human summary line.
        package var word: String {
            switch self {
            case .passed: "pass"
            case .failed: "fail"
            case .skipped: "skip"
            case .notCovered: "not-covered"
            }
        }
    }

    /// Why an item failed, for CI reports (`failure type=` in JUnit).
    package enum FailureKind: String, Sendable {
        /// The request could not be built (an unset variable, an unreadable file, bad parameters).
        case build
        /// A sample does not hold what it declares (the default fails validation, a JSON body is not JSON).
        case sample
        /// The live status failed the case's validation.
        case status
        /// The live body's shape differs from the sample's.
        case drift
        /// The live request timed out.
        case timeout
        /// The live request failed in transport (connection refused, reset, TLS...).
        case transport
        /// A capture the case declares is not in its response (or the default sample's).
        case capture
        /// Following the case's pages failed (`--all`): a page failed, looped or left the origin.
        case paging
        /// An `expect:` assertion did not hold.
        case assertion
    }

    package var outcome: Outcome
    package var failureKind: FailureKind?
    /// The status answered (live) or the default sample's status (offline), if any.
    package var statusCode: Int?
    /// Wall time spent on the item, in seconds (nil when nothing ran).
    package var duration: Double?
    /// What was wrong (or why skipped), one sentence each; secrets redacted.
    package var reasons: [String] = []
    /// The shape differences, for `drift` failures.
    package var drifts: [ShapeDrift] = []
    /// The start of the body of a failed check's response (2 KiB, secrets redacted), for the HTML report.
    package var responseExcerpt: String?
    /// The `expect:` assertions that did not hold (secrets redacted).
    package var assertions: [AssertionFailure] = []
    /// `GET https://...` with secrets redacted, when the request could be built.
    package var request: (method: String, url: String)?
    /// How many times the request was sent (live; retries included).
    package var attempts: Int = 0
    /// What the case captured from its response, with what the steps before it captured (for the
    /// next step of a chain; never reported).
    package var captured: CapturedValues?
    /// For a chained example: the arguments it ran with (bound from captures), in declared order,
    /// secret captures redacted.
    package var chainArguments: [(name: String, value: ArgumentValue)]?
    /// The live answer, kept only when the check records responses (`--record`).
    package var liveResponse: LiveResponse?

    static func passed(status: Int?, duration: Double, request: (String, String)?, attempts: Int = 0) -> CheckResult {
        CheckResult(outcome: .passed, statusCode: status, duration: duration, request: request, attempts: attempts)
    }

    static func failed(
        _ kind: FailureKind, _ reasons: [String], status: Int? = nil, duration: Double?,
        request: (String, String)? = nil, drifts: [ShapeDrift] = [], attempts: Int = 0
    ) -> CheckResult {
        CheckResult(
            outcome: .failed, failureKind: kind, statusCode: status, duration: duration, reasons: reasons,
            drifts: drifts,
            request: request, attempts: attempts)
    }

    static func skipped(_ reason: String, request: (String, String)? = nil) -> CheckResult {
        CheckResult(outcome: .skipped, reasons: [reason], request: request)
    }

    static func notCovered(_ reason: String) -> CheckResult {
        CheckResult(outcome: .notCovered, reasons: [reason])
    }
}

/// Every result of a run, in plan order, with what the run was.
package struct CheckSummary: Sendable {
    /// The items checked, in plan order.
    package var items: [CheckItem]
    /// Their results, in the same order.
    package var results: [CheckResult]
    /// Whether requests were sent.
    package var isLive: Bool
    /// The part of the plan this run was, if sharded.
    package var shard: CheckShard?
    /// Wall time of the whole run, in seconds.
    package var duration: Double
    /// Target files that could not be loaded: each is reported as a failed check, so CI shows
    /// them next to the results of the files that could.
    package var invalidFiles: [InvalidTargetFile]

    /// Creates a summary.
    package init(
        items: [CheckItem], results: [CheckResult], isLive: Bool, shard: CheckShard?, duration: Double,
        invalidFiles: [InvalidTargetFile] = []
    ) {
        self.items = items
        self.results = results
        self.isLive = isLive
        self.shard = shard
        self.duration = duration
        self.invalidFiles = invalidFiles
    }

    /// How many results have `outcome`.
    package func count(_ outcome: CheckResult.Outcome) -> Int {
        results.count { $0.outcome == outcome }
    }

    /// The items with their results, grouped by API in plan order.
    package var byAPI: [(api: String, entries: [(item: CheckItem, result: CheckResult)])] {
        var groups: [(api: String, entries: [(item: CheckItem, result: CheckResult)])] = []
        for (item, result) in zip(items, results) {
            if let last = groups.indices.last, groups[last].api == item.api.name {
                groups[last].entries.append((item, result))
            } else {
                groups.append((item.api.name, [(item, result)]))
            }
        }
        return groups
    }
}

/// A target file that could not be loaded, as a check run reports it.
package struct InvalidTargetFile: Sendable, Hashable {
    /// The file, as diagnostics name it.
    package var file: String
    /// The API it defines, when its name is known.
    package var apiName: String?
    /// Its errors, each `FILE:LINE:COLUMN: message`.
    package var problems: [String]

    /// Creates one.
    package init(file: String, apiName: String?, problems: [String]) {
        self.file = file
        self.apiName = apiName
        self.problems = problems
    }

    /// The name it is reported under: the API's, else the file's.
    package var id: String { apiName ?? file }
}
