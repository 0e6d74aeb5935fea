import MoyaKit
import Paging
import TargetModel
import TargetSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What running a chained example needs: its values from the captures of the steps before it.
enum ChainStep {
    /// `item` (a chained example) ready to run after `predecessor` (the result of the step it names
    /// in `after:`), or the result it gets without running: skipped when that step did not pass,
    /// failed when the captured values do not fit its values.
    static func prepare(_ item: CheckItem, after predecessor: CheckResult, predecessorID: String) -> Result<
        CheckItem, CheckResultBox
    > {
        guard let chain = item.chain else { return .success(item) }
        guard predecessor.outcome == .passed else {
            let what =
                switch predecessor.outcome {
                case .failed: "failed"
                case .skipped: "was skipped"
                default: "was not covered"
                }
            return .failure(CheckResultBox(.skipped("runs after \(predecessorID), which \(what)")))
        }
        let captured = predecessor.captured ?? CapturedValues()
        var named: [String: String] = [:]
        for value in chain.values { named[value.name] = ChainedExample.substituting(captured, in: value.text) }
        let binder = item.spec.argumentBinder(fileBaseDirectory: item.api.directory)
        let (arguments, problems) = binder.bindReportingAll(positional: [], named: named)
        guard problems.isEmpty else {
            let redactor = SecretRedactor(secretValues: captured.secretValues)
            return .failure(
                CheckResultBox(
                    .failed(
                        .build,
                        problems.map { "with the values captured before it: " + redactor.redact($0.description) },
                        duration: nil)))
        }
        var ready = item
        ready.arguments = arguments
        ready.inheritedCaptures = captured
        return .success(ready)
    }

    /// The result with the case's captures read from `response` (headers and body), added to what
    /// the steps before it captured; a missing capture fails the check (`capture`).
    /// `headers` are read only when the case captures something (most cases capture nothing).
    static func capturing(
        _ result: CheckResult, item: CheckItem, headers: @autoclosure () -> [(name: String, value: String)],
        body: Data
    ) -> CheckResult {
        var result = result
        let inherited = item.inheritedCaptures ?? CapturedValues()
        guard result.outcome == .passed else { return result }
        guard !item.spec.captures.isEmpty else {
            result.captured = inherited
            return result
        }
        let (captured, problems) = Capture.values(of: item.spec.captures, headers: headers(), body: body)
        guard problems.isEmpty else {
            var failed = CheckResult.failed(
                .capture, problems.map(\.description), status: result.statusCode, duration: result.duration,
                request: result.request, attempts: result.attempts)
            failed.captured = nil
            return failed
        }
        result.captured = inherited.merging(captured)
        return result
    }

    /// The response's header fields, in order, as paging reads them.
    static func fields(of response: Response) -> [(name: String, value: String)] {
        PageWalk.fields(of: response)
    }
}

/// A `CheckResult` as an `Error`, for `Result`.
struct CheckResultBox: Error {
    var result: CheckResult
    init(_ result: CheckResult) { self.result = result }
}
