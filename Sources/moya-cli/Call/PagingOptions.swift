import ArgumentParser

// The `PagingOptions` group of `call`: the plain values (with their defaults), the table that names
// and describes each option (read by `DirectParser`), and `PagingArguments`, the ArgumentParser
// declaration made from that table.

/// `--all`, `--max-pages` and `--capture` (declared for ArgumentParser by `PagingArguments`).
struct PagingOptions: Equatable {
    /// `--all`: follow the case's pages and print their items.
    var all = false
    /// `--max-pages N`; `nil`: the default.
    var maxPages: Int?
    /// `--capture`: print the case's captures as `name=value` lines.
    var capture = false

    /// The default of `--max-pages`.
    static let defaultMaxPages = 100

    /// The page limit in force.
    var pageLimit: Int { maxPages ?? Self.defaultMaxPages }

    func validate() throws(OptionsError) {
        if let maxPages {
            guard maxPages >= 1 else { throw OptionsError("--max-pages must be 1 or more") }
            guard all else { throw OptionsError("--max-pages needs --all") }
        }
        if all && capture { throw OptionsError("--capture reads one response; it cannot be combined with --all") }
    }

    /// Refuses output options that do not fit a paged or captured call.
    func validate(with output: OutputOptions) throws(OptionsError) {
        if output.format == .jsonl && !all {
            throw OptionsError("--format jsonl prints the items of pages; it needs --all")
        }
        if all && (output.include || output.headersOnly || output.output != nil || output.format == .json) {
            throw OptionsError(
                "--all prints the items of every page as one JSON array (or JSON lines with --format jsonl); "
                    + "it cannot be combined with --include, --headers-only, --output or --format json")
        }
        if capture
            && (output.include || output.headersOnly || output.output != nil || output.format != .raw
                || output.keyPath != nil)
        {
            throw OptionsError(
                "--capture prints only name=value lines; it cannot be combined with --include, --headers-only, "
                    + "--output, --format or --keypath")
        }
    }

    /// The group's options, as `DirectParser` reads them and `PagingArguments` declares them.
    static var table: [OptionDeclaration<Self>] { [all, maxPages, capture] }

    static var all: OptionDeclaration<Self> {
        .flag(
            "--all",
            help:
                "Follow the case's pages (its pagination:) and print the items of all of them as one JSON array, streamed as pages arrive."
        ) {
            $0.all = true
        }
    }

    static var maxPages: OptionDeclaration<Self> {
        .option(
            "--max-pages", valueName: "n",
            help: "With --all: fetch at most N pages (default \(defaultMaxPages)); stopping with pages left exits 9."
        ) {
            $0.maxPages = $1
        }
    }

    static var capture: OptionDeclaration<Self> {
        .flag(
            "--capture",
            help:
                "Print the case's captures as name='value' lines for eval in sh, instead of the body; a missing one exits 1."
        ) {
            $0.capture = true
        }
    }
}

/// The `PagingOptions` as ArgumentParser declares them, from the group's table.
struct PagingArguments: ParsableArguments {
    @Flag(PagingOptions.all) var all: Bool
    @Option(PagingOptions.maxPages) var maxPages: Int?
    @Flag(PagingOptions.capture) var capture: Bool

    var options: PagingOptions {
        PagingOptions(all: all, maxPages: maxPages, capture: capture)
    }

    func validate() throws {
        try validating(options.validate)
    }
}
