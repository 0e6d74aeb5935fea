import ArgumentParser

// The `PagingOptions` group of `call`: the plain values, the fast start-up path's option table
// (`directOptions`), and `PagingArguments`, their ArgumentParser declaration with the help texts.

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
        if output.format == .jsonl && !all { throw OptionsError("--format jsonl prints the items of pages; it needs --all") }
        if all && (output.include || output.headersOnly || output.output != nil || output.format == .json) {
            throw OptionsError("--all prints the items of every page as one JSON array (or JSON lines with --format jsonl); "
                               + "it cannot be combined with --include, --headers-only, --output or --format json")
        }
        if capture && (output.include || output.headersOnly || output.output != nil || output.format != .raw || output.keyPath != nil) {
            throw OptionsError("--capture prints only name=value lines; it cannot be combined with --include, --headers-only, "
                               + "--output, --format or --keypath")
        }
    }

    /// The options as `DirectParser` reads them.
    static var directOptions: [DirectOption<Self>] {
        [
            .flag("--all") { $0.all = true },
            .option("--max-pages") { $0.maxPages = $1 },
            .flag("--capture") { $0.capture = true },
        ]
    }
}

/// The `PagingOptions` as ArgumentParser declares them (help texts included).
struct PagingArguments: ParsableArguments {
    @Flag(help: "Follow the case's pages (its pagination:) and print the items of all of them as one JSON array, streamed as pages arrive.")
    var all = false

    @Option(name: .customLong("max-pages"), help: ArgumentHelp(
        "With --all: fetch at most N pages (default 100); stopping with pages left exits 9.", valueName: "n"))
    var maxPages: Int?

    @Flag(help: "Print the case's captures as name='value' lines for eval in sh, instead of the body; a missing one exits 1.")
    var capture = false

    var options: PagingOptions {
        PagingOptions(all: all, maxPages: maxPages, capture: capture)
    }

    func validate() throws {
        try validating(options.validate)
    }
}
