extension OptionGroupSpec {
    static let check = OptionGroupSpec(
        name: "CheckOptions", arguments: "CheckArguments",
        doc: ["What `check` checks, how fast, and where it reports (declared for ArgumentParser by `CheckArguments`)."],
        imports: ["TargetCheck"],
        items: [
            .flag(
                "live", "--live",
                help: "Send every request for real and compare each answer with the case's validation and sample."),
            .option(
                "jobs", "--jobs", valueName: "n", type: "Int", initial: "4", help: "Check N cases at a time.",
                sample: "8"),
            .option(
                "rate", "--rate", valueName: "n", type: "DecimalNumber?",
                help: "With --live: start at most N requests per second (a decimal number, e.g. 0.5, 10).",
                sample: "2.5"),
            .repeated(
                "only", "--only", valueName: "pattern",
                help:
                    "Check only the cases matching PATTERN: a case name or API.CASE, with * and ? wildcards (repeatable).",
                completion: "Self.casePatternCompletion", sample: "get*"),
            .repeated(
                "skip", "--skip", valueName: "pattern", help: "Leave out the cases matching PATTERN (repeatable).",
                completion: "Self.casePatternCompletion", sample: "x"),
            .flag(
                "includeUnsafe", "--include-unsafe",
                help: "With --live: also send methods that are not safe (POST, PUT, PATCH, DELETE, PURGE...)."),
            .flag(
                "strict", "--strict",
                help:
                    "With --live: keys the sample does not declare, and null where it declares a value, are drift too."),
            .flag(
                "all", "--all",
                help:
                    "Follow the pages of paginated cases (live, or offline through their samples page1, page2...); default: the first page only."
            ),
            .option(
                "maxPages", "--max-pages", valueName: "n", type: "Int?",
                help:
                    #"With --all: follow at most N pages per check (default \(PagingOptions.defaultMaxPages)); more fails the check."#,
                sample: "3"),
            .option(
                "shard", "--shard", valueName: "i/n", type: "CheckShard?",
                help: "Check a stable I-th of N parts of the cases (1 <= I <= N), to spread them over CI runners.",
                sample: "1/2"),
            // One word per report: an option taking two values would also take the API names after it.
            .repeated(
                "report", "--report", valueName: "format:file",
                help:
                    "Write a report: junit:FILE, json:FILE, tap:FILE or html:FILE (a page for a person); FILE '-' is stdout (repeatable).",
                sample: "junit:out.xml")
        ],
        codingKeys: true,
        folder: "Check")
}
