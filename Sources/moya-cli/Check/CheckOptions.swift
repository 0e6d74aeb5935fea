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

    /// The values parsed, as the plain settings the command works with.
    var settings: CheckSettings {
        CheckSettings(live: live, jobs: jobs, rate: rate, only: only, skip: skip, includeUnsafe: includeUnsafe, strict: strict,
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
        try validating(settings.validate)
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
    init(word: String) throws(OptionsError) {
        let formats = ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")
        guard let colon = word.firstIndex(of: ":") else {
            if ReportFormat(rawValue: word) != nil {
                // The two-word spelling of earlier versions: its FILE went to the API names.
                throw OptionsError("--report takes FORMAT:FILE as one word: --report \(word):FILE ('\(word):-' for stdout)")
            }
            throw OptionsError("--report '\(word)' is not FORMAT:FILE; FORMAT is one of \(formats), e.g. --report junit:check.xml")
        }
        let name = String(word[..<colon])
        guard let format = ReportFormat(rawValue: name) else {
            throw OptionsError("--report '\(word)': '\(name)' is not a format; use \(formats)")
        }
        let path = String(word[word.index(after: colon)...])
        guard !path.isEmpty else {
            throw OptionsError("--report \(name): needs a FILE after the colon ('\(name):-' for stdout)")
        }
        self.init(format: format, path: path)
    }

    init(format: ReportFormat, path: String) {
        self.format = format
        self.path = path
    }
}

typealias ReportFormat = CheckReport.Format
