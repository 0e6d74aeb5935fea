import MoyaKit
import ArgumentParser
import TargetCheck

/// What `check` checks, how fast, and where it reports.
struct CheckOptions: ParsableArguments {
    @Flag(help: "Send every request for real and compare each answer with the case's validation and sample.")
    var live = false

    @Option(help: ArgumentHelp("Check N cases at a time.", valueName: "n"))
    var jobs: Int = 4

    @Option(help: ArgumentHelp("With --live: start at most N requests per second (a decimal number, e.g. 0.5, 10).", valueName: "n"))
    var rate: DecimalNumber?

    @Option(help: ArgumentHelp(
        "Check only the cases matching PATTERN: a case name or API.CASE, with * and ? wildcards (repeatable).", valueName: "pattern"),
        completion: Self.casePatternCompletion)
    var only: [String] = []

    @Option(help: ArgumentHelp("Leave out the cases matching PATTERN (repeatable).", valueName: "pattern"),
            completion: Self.casePatternCompletion)
    var skip: [String] = []

    @Flag(name: .customLong("include-unsafe"), help: "With --live: also send POST, PUT, PATCH and DELETE requests.")
    var includeUnsafe = false

    @Flag(help: "With --live: keys the sample does not declare, and null where it declares a value, are drift too.")
    var strict = false

    @Flag(help: "Follow the pages of paginated cases (live, or offline through their samples page1, page2...); default: the first page only.")
    var all = false

    @Option(name: .customLong("max-pages"), help: ArgumentHelp("With --all: follow at most N pages per check (default 100); more fails the check.", valueName: "n"))
    var maxPages: Int?

    @Option(help: ArgumentHelp(
        "Check a stable I-th of N parts of the cases (1 <= I <= N), to spread them over CI runners.", valueName: "i/n"))
    var shard: CheckShard?

    // One word per report: an option taking two values would also take the API names after it.
    @Option(help: ArgumentHelp(
        "Write a report: junit:FILE, json:FILE or tap:FILE; FILE '-' is stdout (repeatable).",
        valueName: "format:file"))
    var report: [String] = []

    /// The `--report FORMAT:FILE` requests, once validated.
    var reports: [ReportRequest] = []

    /// `--only`/`--skip` complete the cases of the APIs named, from the target files found.
    static var casePatternCompletion: CompletionKind {
        CaseCompletion.kind(of: .casePattern, in: ["check"], parsing: MoyaCommand.Check.completionContext)
    }

    enum CodingKeys: CodingKey {
        case live, jobs, rate, only, skip, includeUnsafe, strict, all, maxPages, shard, report
    }

    mutating func validate() throws {
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 256") }
        if let rate = rate?.value {
            // At least one request per `maximumInterval` seconds: the pause between two stays sleepable.
            guard rate >= 1 / SessionConfiguration.maximumInterval, rate.isFinite else {
                throw ValidationError("--rate must be a number of requests per second from 0.000001 up")
            }
            guard live else { throw ValidationError("--rate needs --live") }
        }
        if includeUnsafe && !live { throw ValidationError("--include-unsafe needs --live") }
        if strict && !live { throw ValidationError("--strict needs --live") }
        if let maxPages {
            guard maxPages >= 1 else { throw ValidationError("--max-pages must be 1 or more") }
            guard all else { throw ValidationError("--max-pages needs --all") }
        }
        for pattern in only + skip where pattern.isEmpty { throw ValidationError("--only and --skip need a non-empty pattern") }
        reports = try report.map(ReportRequest.init(word:))
        let files = reports.map(\.path).filter { $0 != "-" }
        if Set(files).count != files.count { throw ValidationError("two reports are written to the same file") }
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

/// One `--report FORMAT:FILE`.
struct ReportRequest: Hashable {
    var format: ReportFormat
    /// The file, or `-` for stdout.
    var path: String

    /// Reads `FORMAT:FILE`, split at the first colon (format names have none, file names may).
    init(word: String) throws {
        let formats = ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")
        guard let colon = word.firstIndex(of: ":") else {
            if ReportFormat(rawValue: word) != nil {
                // The two-word spelling of earlier versions: its FILE went to the API names.
                throw ValidationError("--report takes FORMAT:FILE as one word: --report \(word):FILE ('\(word):-' for stdout)")
            }
            throw ValidationError("--report '\(word)' is not FORMAT:FILE; FORMAT is one of \(formats), e.g. --report junit:check.xml")
        }
        let name = String(word[..<colon])
        guard let format = ReportFormat(rawValue: name) else {
            throw ValidationError("--report '\(word)': '\(name)' is not a format; use \(formats)")
        }
        let path = String(word[word.index(after: colon)...])
        guard !path.isEmpty else {
            throw ValidationError("--report \(name): needs a FILE after the colon ('\(name):-' for stdout)")
        }
        self.init(format: format, path: path)
    }

    init(format: ReportFormat, path: String) {
        self.format = format
        self.path = path
    }
}

typealias ReportFormat = CheckReport.Format
