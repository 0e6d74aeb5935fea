extension OptionGroupSpec {
    static let paging = OptionGroupSpec(
        name: "PagingOptions", arguments: "PagingArguments",
        doc: ["`--all`, `--max-pages` and `--capture` (declared for ArgumentParser by `PagingArguments`)."],
        items: [
            .flag(
                "all", "--all",
                help:
                    "Follow the case's pages (its pagination:) and print the items of all of them as one JSON array, streamed as pages arrive.",
                doc: ["`--all`: follow the case's pages and print their items."]),
            .option(
                "maxPages", "--max-pages", valueName: "n", type: "Int?",
                help:
                    #"With --all: fetch at most N pages (default \(defaultMaxPages)); stopping with pages left exits 9."#,
                doc: ["`--max-pages N`; `nil`: the default."], sample: "3"),
            .flag(
                "capture", "--capture",
                help:
                    "Print the case's captures as name='value' lines for eval in sh, instead of the body; a missing one exits 1.",
                doc: ["`--capture`: print the case's captures as `name=value` lines."])
        ],
        folder: "Call")
}
