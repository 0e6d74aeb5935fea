import ArgumentParser
import MoyaKit
import TargetCheck

// The `CheckOptions` group's checks and helpers. Its fields, its table and `CheckArguments` are generated
// (`CheckOptions+Generated.swift`) from Sources/OptionSpecs/Declarations: add or change an option there.

extension CheckOptions {
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
}

extension CheckArguments {
    /// `--only`/`--skip` complete the cases of the APIs named, from the target files found.
    static var casePatternCompletion: CompletionKind {
        CaseCompletion.kind(of: .casePattern, in: ["check"], parsing: MoyaCommand.Check.completionContext)
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
