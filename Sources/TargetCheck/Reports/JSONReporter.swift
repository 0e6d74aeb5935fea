import MoyaKit
import OrderedJSON
import TargetSpec

/// `--report json:FILE`: the run as a JSON document whose schema is stable (documented in
/// moya-cli(1) under CHECK; `schema` changes only if a field changes meaning or goes away).
enum JSONReporter {
    static let schema = "moya-cli-check/1"

    static func render(_ summary: CheckSummary) -> String {
        let shard: JSONValue =
            summary.shard.map { .object([("index", .int($0.index)), ("count", .int($0.count))]) } ?? .null
        let document: JSONValue = .object([
            ("schema", .string(schema)),
            ("mode", .string(summary.isLive ? "live" : "offline")),
            ("shard", shard),
            ("durationSeconds", .double(rounded(summary.duration))),
            (
                "summary",
                .object([
                    ("checks", .int(summary.results.count)),
                    ("passed", .int(summary.count(.passed))),
                    ("failed", .int(summary.count(.failed))),
                    ("invalidFiles", .int(summary.invalidFiles.count)),
                    ("skipped", .int(summary.count(.skipped))),
                    ("notCovered", .int(summary.count(.notCovered)))
                ])
            ),
            ("results", .array(zip(summary.items, summary.results).map(entry))),
            (
                "invalidFiles",
                .array(
                    summary.invalidFiles.map { invalid in
                        .object([
                            ("file", .string(invalid.file)), ("api", invalid.apiName.map { .string($0) } ?? .null),
                            ("problems", .array(invalid.problems.map { .string($0) }))
                        ])
                    })
            )
        ])
        return document.serializedString(options: [.prettyPrinted]) + "\n"
    }

    static func entry(_ item: CheckItem, _ result: CheckResult) -> JSONValue {
        .object([
            ("id", .string(item.id)),
            ("api", .string(item.api.name)),
            ("case", .string(item.spec.name)),
            ("example", item.exampleNumber.map { .int($0) } ?? .null),
            ("arguments", .object((result.chainArguments ?? item.orderedArguments).map { ($0.name, $0.value.json) })),
            ("method", result.request.map { .string($0.method) } ?? .null),
            ("url", result.request.map { .string($0.url) } ?? .null),
            ("outcome", .string(result.outcome.rawValue)),
            ("failure", result.failureKind.map { .string($0.rawValue) } ?? .null),
            ("status", result.statusCode.map { .int($0) } ?? .null),
            ("durationSeconds", result.duration.map { .double(rounded($0)) } ?? .null),
            ("attempts", .int(result.attempts)),
            ("reasons", .array(result.reasons.map { .string($0) })),
            ("drifts", .array(result.drifts.map(json))),
            (
                "assertions",
                .array(
                    result.assertions.map { assertion in
                        .object([
                            ("subject", .string(assertion.subject)), ("expected", .string(assertion.expected)),
                            ("found", .string(assertion.found)), ("message", .string(assertion.description))
                        ])
                    })
            )
        ])
    }

    static func json(_ drift: ShapeDrift) -> JSONValue {
        .object([
            ("path", .string(drift.path)),
            ("problem", .string(drift.kind)),
            ("expected", drift.expectedType.map { .string($0) } ?? .null),
            ("found", drift.foundType.map { .string($0) } ?? .null)
        ])
    }

    /// Microsecond precision: enough for timings, and stable-looking output.
    static func rounded(_ seconds: Double) -> Double {
        (seconds * 1_000_000).rounded() / 1_000_000
    }
}
