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

    // The stored layout: what every result has first (a sweep keeps 10,000 of them, each
    // allocated in one array when the run starts), then one reference to what few results have.
    // Optional `Int` and `Double` first, so the bytes after their tags hold the two enums.

    /// The status answered (live) or the default sample's status (offline), if any.
    package var statusCode: Int?
    package var outcome: Outcome
    package var failureKind: FailureKind?
    /// Wall time spent on the item, in seconds (nil when nothing ran).
    package var duration: Double?
    /// How many times the request was sent (live; retries included).
    package var attempts: Int = 0
    /// `GET https://...` with secrets redacted, when the request could be built.
    package var request: (method: String, url: String)?
    /// What the case captured from its response, with what the steps before it captured (for the
    /// next step of a chain; never reported). Stored here, not in the box: every live check sets
    /// it (empty when the case captures nothing), and a box for each would cost more than it saves.
    package var captured: CapturedValues?
    /// What a passed check does not have (reasons, drifts, an excerpt, a kept response), boxed: as
    /// stored fields they made every result 192 bytes, 1.9 MB for a sweep of 10,000 checks whose
    /// results are all allocated when the run starts (`ResultCollector`). Copied on write.
    private var details: CopyOnWriteBox<Details>?

    /// What was wrong (or why skipped), one sentence each; secrets redacted.
    package var reasons: [String] {
        get { details?.value.reasons ?? [] }
        set { updateDetails { $0.reasons = newValue } }
    }
    /// The shape differences, for `drift` failures.
    package var drifts: [ShapeDrift] {
        get { details?.value.drifts ?? [] }
        set { updateDetails { $0.drifts = newValue } }
    }
    /// The start of the body of a failed check's response (2 KiB, secrets redacted), for the HTML report.
    package var responseExcerpt: String? {
        get { details?.value.responseExcerpt }
        set { updateDetails { $0.responseExcerpt = newValue } }
    }
    /// The `expect:` assertions that did not hold (secrets redacted).
    package var assertions: [AssertionFailure] {
        get { details?.value.assertions ?? [] }
        set { updateDetails { $0.assertions = newValue } }
    }
    /// For a chained example: the arguments it ran with (bound from captures), in declared order,
    /// secret captures redacted.
    package var chainArguments: [(name: String, value: ArgumentValue)]? {
        get { details?.value.chainArguments }
        set { updateDetails { $0.chainArguments = newValue } }
    }
    /// The live answer, kept only when the check records responses (`--record`).
    package var liveResponse: LiveResponse? {
        get { details?.value.liveResponse }
        set { updateDetails { $0.liveResponse = newValue } }
    }

    /// The fields most results leave empty: a result without them stores one nil reference.
    private struct Details {
        var reasons: [String] = []
        var drifts: [ShapeDrift] = []
        var responseExcerpt: String?
        var assertions: [AssertionFailure] = []
        var chainArguments: [(name: String, value: ArgumentValue)]?
        var liveResponse: LiveResponse?
    }

    /// Changes the details of this result only: a box another result shares is copied first
    /// (`CopyOnWriteBox`).
    private mutating func updateDetails(_ change: (inout Details) -> Void) {
        if details == nil { details = CopyOnWriteBox(Details()) }
        change(&details!.value)
    }

    init(
        outcome: Outcome, failureKind: FailureKind? = nil, statusCode: Int? = nil, duration: Double? = nil,
        reasons: [String] = [], drifts: [ShapeDrift] = [], request: (method: String, url: String)? = nil,
        attempts: Int = 0
    ) {
        self.statusCode = statusCode
        self.outcome = outcome
        self.failureKind = failureKind
        self.duration = duration
        self.attempts = attempts
        self.request = request
        if !reasons.isEmpty { self.reasons = reasons }
        if !drifts.isEmpty { self.drifts = drifts }
    }

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

extension String {
    /// The same text in storage of its own size: a string built by appending holds spare
    /// capacity, which one kept for a whole run (a result's URL) need not.
    var compacted: String {
        let bytes = utf8
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            buffer.initialize(fromContentsOf: bytes)
        }
    }
}
