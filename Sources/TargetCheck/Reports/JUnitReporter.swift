import TextSafety

/// `--report junit:FILE`: JUnit XML as CI servers render it: a `testsuite` per API, a `testcase`
/// per case and example (`classname` the API, `name` the case with `#n`), `failure` with the
/// reason (`type` says which: status, drift, timeout, transport, sample, build), `skipped` for
/// skipped and not-covered items.
enum JUnitReporter {
    static func render(_ summary: CheckSummary) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let invalid = summary.invalidFiles.count
        xml +=
            "<testsuites name=\"moya-cli check\" tests=\"\(summary.results.count + invalid)\" failures=\"\(summary.count(.failed) + invalid)\""
            + " errors=\"0\" skipped=\"\(summary.count(.skipped) + summary.count(.notCovered))\" time=\"\(seconds(summary.duration))\">\n"
        for group in summary.byAPI {
            let results = group.entries.map(\.result)
            let failures = results.count { $0.outcome == .failed }
            let skipped = results.count { $0.outcome == .skipped || $0.outcome == .notCovered }
            let time = results.compactMap(\.duration).reduce(0, +)
            xml +=
                "  <testsuite name=\"\(XMLText.escaped(group.api))\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\""
                + " skipped=\"\(skipped)\" time=\"\(seconds(time))\">\n"
            for (item, result) in group.entries {
                xml += testcase(item, result)
            }
            xml += "  </testsuite>\n"
        }
        if !summary.invalidFiles.isEmpty {
            xml +=
                "  <testsuite name=\"invalid target files\" tests=\"\(invalid)\" failures=\"\(invalid)\" errors=\"0\" skipped=\"0\" time=\"0.000\">\n"
            for file in summary.invalidFiles {
                xml +=
                    "    <testcase classname=\"\(XMLText.escaped(file.id))\" name=\"(target file)\" file=\"\(XMLText.escaped(file.file))\" time=\"0.000\">\n"
                xml +=
                    "      <failure message=\"\(XMLText.escaped(file.problems.first ?? "invalid target file"))\" type=\"invalid-file\">"
                xml += XMLText.escaped(file.problems.joined(separator: "\n")) + "</failure>\n    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    static func testcase(_ item: CheckItem, _ result: CheckResult) -> String {
        let name = String(item.id.dropFirst(item.api.name.count + 1))
        var xml =
            "    <testcase classname=\"\(XMLText.escaped(item.api.name))\" name=\"\(XMLText.escaped(name))\" file=\"\(XMLText.escaped(item.api.file))\""
            + " time=\"\(seconds(result.duration ?? 0))\""
        let details = ([result.request.map { "\($0.method) \($0.url)" }].compactMap { $0 } + result.reasons).joined(
            separator: "\n")
        switch result.outcome {
        case .passed:
            return xml + "/>\n"
        case .failed:
            // The first difference itself (`$.id: expected number, found string`) beats a summary.
            let message =
                result.drifts.first.map { "\($0)" } ?? result.assertions.first.map { "\($0)" } ?? result.reasons.first
                ?? "failed"
            xml +=
                ">\n      <failure message=\"\(XMLText.escaped(message))\" type=\"\(result.failureKind?.rawValue ?? "failure")\">"
            xml += XMLText.escaped(details) + "</failure>\n"
        case .skipped:
            xml += ">\n      <skipped message=\"\(XMLText.escaped(result.reasons.first ?? "skipped"))\"/>\n"
        case .notCovered:
            xml += ">\n      <skipped message=\"not covered: \(XMLText.escaped(result.reasons.first ?? ""))\"/>\n"
        }
        return xml + "    </testcase>\n"
    }

    /// Seconds with millisecond precision, as JUnit readers expect.
    static func seconds(_ value: Double) -> String {
        HumanReporter.decimal(value, places: 3)
    }
}
