import MoyaKit
import OrderedJSON
import TargetModel
import TargetSpec
import TextSafety

/// `--report tap:FILE`: TAP version 13, one test point per case and example, a YAML block with
/// the details of failures, `# SKIP` for skipped and not-covered items.
enum TAPReporter {
    static func render(_ summary: CheckSummary) -> String {
        var tap = "TAP version 13\n1..\(summary.results.count + summary.invalidFiles.count)\n"
        for (number, invalid) in summary.invalidFiles.enumerated() {
            tap += "not ok \(number + 1) - \(TAPText.escaped(invalid.id)) invalid target file\n"
            tap += "  ---\n"
            tap += "  message: \(YAMLScalar.jsonQuoted(invalid.problems.first ?? "invalid target file"))\n"
            tap += "  severity: fail\n"
            tap += "  data:\n"
            tap += "    failure: invalid-file\n"
            tap += "    file: \(YAMLScalar.jsonQuoted(invalid.file))\n"
            tap += "  ...\n"
        }
        let offset = summary.invalidFiles.count
        for (index, (item, result)) in zip(summary.items, summary.results).enumerated() {
            let number = index + offset
            let description = TAPText.escaped(item.id)
            switch result.outcome {
            case .passed:
                tap += "ok \(number + 1) - \(description)\n"
            case .skipped:
                tap +=
                    "ok \(number + 1) - \(description) # SKIP \(TAPText.escaped(result.reasons.first ?? "skipped"))\n"
            case .notCovered:
                tap +=
                    "ok \(number + 1) - \(description) # SKIP not covered: \(TAPText.escaped(result.reasons.first ?? ""))\n"
            case .failed:
                tap += "not ok \(number + 1) - \(description)\n"
                tap += "  ---\n"
                tap += "  message: \(YAMLScalar.jsonQuoted(result.reasons.first ?? "failed"))\n"
                tap += "  severity: fail\n"
                tap += "  data:\n"
                tap += "    failure: \(result.failureKind?.rawValue ?? "failure")\n"
                if let status = result.statusCode { tap += "    status: \(status)\n" }
                if let request = result.request {
                    tap += "    request: \(YAMLScalar.jsonQuoted("\(request.method) \(request.url)"))\n"
                }
                if !result.assertions.isEmpty {
                    tap += "    assertions:\n"
                    for assertion in result.assertions {
                        tap += "      - subject: \(YAMLScalar.jsonQuoted(assertion.subject))\n"
                        tap += "        expected: \(YAMLScalar.jsonQuoted(assertion.expected))\n"
                        tap += "        found: \(YAMLScalar.jsonQuoted(assertion.found))\n"
                    }
                }
                if result.reasons.count > 1 {
                    tap += "    details:\n"
                    for reason in result.reasons.dropFirst() { tap += "      - \(YAMLScalar.jsonQuoted(reason))\n" }
                }
                tap += "  ...\n"
            }
        }
        return tap
    }
}
