import MoyaKit
import TargetCheck

/// What `check`'s own options say, as plain values: what `CheckOptions` parses with
/// ArgumentParser and `DirectParser` parses without it (see `CheckInvocation`).
struct CheckSettings: Equatable {
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
        for pattern in only + skip where pattern.isEmpty { throw OptionsError("--only and --skip need a non-empty pattern") }
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

    /// The options as `DirectParser` reads them.
    static var directOptions: [DirectOption<Self>] {
        typealias Entry = DirectOption<Self>
        return [
            .flag("--live") { $0.live = true },
            .option("--jobs") { $0.jobs = $1 },
            .option("--rate") { $0.rate = $1 },
            .repeated("--only") { $0.only.append($1) },
            .repeated("--skip") { $0.skip.append($1) },
            .flag("--include-unsafe") { $0.includeUnsafe = true },
            .flag("--strict") { $0.strict = true },
            .flag("--all") { $0.all = true },
            .option("--max-pages") { $0.maxPages = $1 },
            .option("--shard") { $0.shard = $1 },
            .repeated("--report") { $0.report.append($1) },
        ]
    }
}
