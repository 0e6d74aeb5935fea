import TargetSpec
import MoyaKit
import OrderedJSON
import TargetModel
/// `--report tap:FILE`: TAP version 13, one test point per case and example, a YAML block with
/// the details of failures, `# SKIP` for skipped and not-covered items.
enum TAPReporter {
    static func render(_ summary: CheckSummary) -> String {
        var tap = "TAP version 13\n1..\(summary.results.count + summary.invalidFiles.count)\n"
        for (number, invalid) in summary.invalidFiles.enumerated() {
            tap += "not ok \(number + 1) - \(escape(invalid.id)) invalid target file\n"
            tap += "  ---\n"
            tap += "  message: \(quote(invalid.problems.first ?? "invalid target file"))\n"
            tap += "  severity: fail\n"
            tap += "  data:\n"
            tap += "    failure: invalid-file\n"
            tap += "    file: \(quote(invalid.file))\n"
            tap += "  ...\n"
        }
        let offset = summary.invalidFiles.count
        for (index, (item, result)) in zip(summary.items, summary.results).enumerated() {
            let number = index + offset
            let description = escape(item.id)
            switch result.outcome {
            case .passed:
                tap += "ok \(number + 1) - \(description)\n"
            case .skipped:
                tap += "ok \(number + 1) - \(description) # SKIP \(escape(result.reasons.first ?? "skipped"))\n"
            case .notCovered:
                tap += "ok \(number + 1) - \(description) # SKIP not covered: \(escape(result.reasons.first ?? ""))\n"
            case .failed:
                tap += "not ok \(number + 1) - \(description)\n"
                tap += "  ---\n"
                tap += "  message: \(quote(result.reasons.first ?? "failed"))\n"
                tap += "  severity: fail\n"
                tap += "  data:\n"
                tap += "    failure: \(result.failureKind?.rawValue ?? "failure")\n"
                if let status = result.statusCode { tap += "    status: \(status)\n" }
                if let request = result.request { tap += "    request: \(quote("\(request.method) \(request.url)"))\n" }
                if result.reasons.count > 1 {
                    tap += "    details:\n"
                    for reason in result.reasons.dropFirst() { tap += "      - \(quote(reason))\n" }
                }
                tap += "  ...\n"
            }
        }
        return tap
    }

    /// A description or directive text on one line, with `#` escaped as TAP requires and control
    /// characters shown escaped (`DisplayText`).
    static func escape(_ text: String) -> String {
        var result = ""
        for character in DisplayText.escaped(text) {
            switch character {
            case "#": result += "\\#"
            case "\\": result += "\\\\"
            case "\n", "\r": result += " "
            default: result.append(character)
            }
        }
        return result
    }

    /// A double-quoted YAML scalar (JSON string syntax, which YAML accepts).
    static func quote(_ text: String) -> String {
        JSONValue.string(text).serializedString()
    }
}
