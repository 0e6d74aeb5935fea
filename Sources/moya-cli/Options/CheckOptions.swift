import MoyaKit
import ArgumentParser

/// What `check` checks, how fast, and where it reports.
struct CheckOptions: ParsableArguments {
    @Flag(help: "Send every request for real and compare each answer with the case's validation and sample.")
    var live = false

    @Option(help: ArgumentHelp("Check N cases at a time.", valueName: "n"))
    var jobs: Int = 4

    @Option(help: ArgumentHelp("With --live: start at most N requests per second (e.g. 0.5, 10).", valueName: "n"))
    var rate: Double?

    @Option(help: ArgumentHelp(
        "Check only the cases matching PATTERN: a case name or API.CASE, with * and ? wildcards (repeatable).", valueName: "pattern"))
    var only: [String] = []

    @Option(help: ArgumentHelp("Leave out the cases matching PATTERN (repeatable).", valueName: "pattern"))
    var skip: [String] = []

    @Flag(name: .customLong("include-unsafe"), help: "With --live: also send POST, PUT, PATCH and DELETE requests.")
    var includeUnsafe = false

    @Flag(help: "With --live: keys the sample does not declare, and null where it declares a value, are drift too.")
    var strict = false

    @Option(help: ArgumentHelp(
        "Check a stable I-th of N parts of the cases (1 <= I <= N), to spread them over CI runners.", valueName: "i/n"))
    var shard: Shard?

    @Option(parsing: .upToNextOption, help: ArgumentHelp(
        "Write a report: junit FILE, json FILE or tap FILE; FILE '-' is stdout (repeatable; give APIs before it).",
        valueName: "format file"))
    var report: [String] = []

    /// The `--report FORMAT FILE` pairs, once validated.
    var reports: [ReportRequest] = []
    /// Words after a `--report` pair that are API names (ArgumentParser gives them to `--report`).
    var trailingAPINames: [String] = []

    enum CodingKeys: CodingKey {
        case live, jobs, rate, only, skip, includeUnsafe, strict, shard, report
    }

    mutating func validate() throws {
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 256") }
        if let rate {
            // At least one request per `maximumInterval` seconds: the pause between two stays sleepable.
            guard rate >= 1 / SessionConfiguration.maximumInterval, rate.isFinite else {
                throw ValidationError("--rate must be a number of requests per second from 0.000001 up")
            }
            guard live else { throw ValidationError("--rate needs --live") }
        }
        if includeUnsafe && !live { throw ValidationError("--include-unsafe needs --live") }
        if strict && !live { throw ValidationError("--strict needs --live") }
        for pattern in only + skip where pattern.isEmpty { throw ValidationError("--only and --skip need a non-empty pattern") }
        (reports, trailingAPINames) = try ReportRequest.parse(report)
        let files = reports.map(\.path).filter { $0 != "-" }
        if Set(files).count != files.count { throw ValidationError("two reports are written to the same file") }
    }
}

/// `--shard I/N`: the I-th (1-based) of N parts.
struct Shard: ExpressibleByArgument, Hashable {
    var index: Int
    var count: Int

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else {
            return nil
        }
        self.index = index
        self.count = count
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// One `--report FORMAT FILE`.
struct ReportRequest: Hashable {
    var format: ReportFormat
    /// The file, or `-` for stdout.
    var path: String

    /// Pairs the words given to `--report`; words that follow a complete pair and are not a format
    /// are API names (`check --report json out.json github`).
    static func parse(_ words: [String]) throws -> ([ReportRequest], [String]) {
        var requests: [ReportRequest] = []
        var apiNames: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            guard let format = ReportFormat(rawValue: word) else {
                if requests.isEmpty {
                    throw ValidationError("--report '\(word)' is not a format; use junit, json or tap, then FILE ('-' for stdout)")
                }
                apiNames.append(word)
                index += 1
                continue
            }
            guard apiNames.isEmpty else {
                throw ValidationError("give API names before --report, not between reports ('\(apiNames.joined(separator: " "))')")
            }
            guard index + 1 < words.count else {
                throw ValidationError("--report \(word) needs a FILE ('-' for stdout)")
            }
            requests.append(ReportRequest(format: format, path: words[index + 1]))
            index += 2
        }
        return (requests, apiNames)
    }
}

/// The report formats.
enum ReportFormat: String, CaseIterable {
    case junit
    case json
    case tap
}
