import ArgumentParser
import MoyaKit
import TargetCheck

// The `CheckOptions` group of `check`: the plain values (with their defaults), the table that names
// and describes each option (read by `DirectParser`), and `CheckArguments`, the ArgumentParser
// declaration made from that table.

/// What `check` checks, how fast, and where it reports (declared for ArgumentParser by `CheckArguments`).
struct CheckOptions: Equatable {
    var live = false
    var jobs = 4
    var rate: DecimalNumber?
    var only: [String] = []
    var skip: [String] = []
    var includeUnsafe = false
    var strict = false
    var all = false
    var maxPages: Int?
    var shard: CheckShard?
    var report: [String] = []

    /// Refuses the combinations `check` cannot run, with the messages ArgumentParser shows.
    func validate() throws(OptionsError) {
        guard (1...256).contains(jobs) else { throw OptionsError("--jobs must be between 1 and 256") }
        if let rate = rate?.value {
            // At least one request per `maximumInterval` seconds: the pause between two stays sleepable.
            guard rate >= 1 / SessionConfiguration.maximumInterval, rate.isFinite else {
                throw OptionsError("--rate must be a number of requests per second from 0.000001 up")
            }
            guard live else { throw OptionsError("--rate needs --live") }
        }
        if includeUnsafe && !live { throw OptionsError("--include-unsafe needs --live") }
        if strict && !live { throw OptionsError("--strict needs --live") }
        if let maxPages {
            guard maxPages >= 1 else { throw OptionsError("--max-pages must be 1 or more") }
            guard all else { throw OptionsError("--max-pages needs --all") }
        }
        for pattern in only + skip where pattern.isEmpty {
            throw OptionsError("--only and --skip need a non-empty pattern")
        }
        _ = try reports()
    }

    /// The `--report FORMAT:FILE` requests.
    func reports() throws(OptionsError) -> [ReportRequest] {
        var reports: [ReportRequest] = []
        for word in report { reports.append(try ReportRequest(word: word)) }
        let files = reports.map { $0.path }.filter { $0 != "-" }
        if Set(files).count != files.count { throw OptionsError("two reports are written to the same file") }
        return reports
    }

    /// The group's options, as `DirectParser` reads them and `CheckArguments` declares them.
    static var table: [OptionDeclaration<Self>] {
        [live, jobs, rate, only, skip, includeUnsafe, strict, all, maxPages, shard, report]
    }

    static var live: OptionDeclaration<Self> {
        .flag(
            "--live", help: "Send every request for real and compare each answer with the case's validation and sample."
        ) { $0.live = true }
    }

    static var jobs: OptionDeclaration<Self> {
        .option("--jobs", valueName: "n", help: "Check N cases at a time.") { $0.jobs = $1 }
    }

    static var rate: OptionDeclaration<Self> {
        .option(
            "--rate", valueName: "n",
            help: "With --live: start at most N requests per second (a decimal number, e.g. 0.5, 10)."
        ) {
            $0.rate = $1
        }
    }

    static var only: OptionDeclaration<Self> {
        .repeated(
            "--only", valueName: "pattern",
            help: "Check only the cases matching PATTERN: a case name or API.CASE, with * and ? wildcards (repeatable)."
        ) {
            $0.only.append($1)
        }
    }

    static var skip: OptionDeclaration<Self> {
        .repeated("--skip", valueName: "pattern", help: "Leave out the cases matching PATTERN (repeatable).") {
            $0.skip.append($1)
        }
    }

    static var includeUnsafe: OptionDeclaration<Self> {
        .flag("--include-unsafe", help: "With --live: also send POST, PUT, PATCH and DELETE requests.") {
            $0.includeUnsafe = true
        }
    }

    static var strict: OptionDeclaration<Self> {
        .flag(
            "--strict",
            help: "With --live: keys the sample does not declare, and null where it declares a value, are drift too."
        ) {
            $0.strict = true
        }
    }

    static var all: OptionDeclaration<Self> {
        .flag(
            "--all",
            help:
                "Follow the pages of paginated cases (live, or offline through their samples page1, page2...); default: the first page only."
        ) {
            $0.all = true
        }
    }

    static var maxPages: OptionDeclaration<Self> {
        .option(
            "--max-pages", valueName: "n",
            help:
                "With --all: follow at most N pages per check (default \(PagingOptions.defaultMaxPages)); more fails the check."
        ) {
            $0.maxPages = $1
        }
    }

    static var shard: OptionDeclaration<Self> {
        .option(
            "--shard", valueName: "i/n",
            help: "Check a stable I-th of N parts of the cases (1 <= I <= N), to spread them over CI runners."
        ) {
            $0.shard = $1
        }
    }

    // One word per report: an option taking two values would also take the API names after it.
    static var report: OptionDeclaration<Self> {
        .repeated(
            "--report", valueName: "format:file",
            help: "Write a report: junit:FILE, json:FILE or tap:FILE; FILE '-' is stdout (repeatable)."
        ) {
            $0.report.append($1)
        }
    }
}

/// The `CheckOptions` as ArgumentParser declares them, from the group's table.
struct CheckArguments: ParsableArguments {
    @Flag(CheckOptions.live) var live: Bool
    @Option(CheckOptions.jobs) var jobs = CheckOptions().jobs
    @Option(CheckOptions.rate) var rate: DecimalNumber?
    @Option(CheckOptions.only, completion: Self.casePatternCompletion) var only = CheckOptions().only
    @Option(CheckOptions.skip, completion: Self.casePatternCompletion) var skip = CheckOptions().skip
    @Flag(CheckOptions.includeUnsafe) var includeUnsafe: Bool
    @Flag(CheckOptions.strict) var strict: Bool
    @Flag(CheckOptions.all) var all: Bool
    @Option(CheckOptions.maxPages) var maxPages: Int?
    @Option(CheckOptions.shard) var shard: CheckShard?
    @Option(CheckOptions.report) var report = CheckOptions().report

    /// The values parsed, as the plain group the command works with.
    var options: CheckOptions {
        CheckOptions(
            live: live, jobs: jobs, rate: rate, only: only, skip: skip, includeUnsafe: includeUnsafe, strict: strict,
            all: all, maxPages: maxPages, shard: shard, report: report)
    }

    /// `--only`/`--skip` complete the cases of the APIs named, from the target files found.
    static var casePatternCompletion: CompletionKind {
        CaseCompletion.kind(of: .casePattern, in: ["check"], parsing: MoyaCommand.Check.completionContext)
    }

    enum CodingKeys: CodingKey {
        case live, jobs, rate, only, skip, includeUnsafe, strict, all, maxPages, shard, report
    }

    func validate() throws {
        try validating(options.validate)
    }
}

/// `--shard I/N`: the I-th (1-based) of N parts.
extension CheckShard: ExpressibleByArgument {
    public init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    public static var defaultCompletionKind: CompletionKind { .default }
}
