import ArgumentParser

// The `OutputOptions` group: the plain values the commands use, the fast start-up path's
// option table (`directOptions`), and `OutputArguments`, their ArgumentParser declaration with the
// help texts. A new option is added here, in all three.

/// What `call` prints and where (declared for ArgumentParser by `OutputArguments`).
struct OutputOptions: Equatable {
    /// `-i`/`--include`.
    var include = false
    /// `--headers-only`.
    var headersOnly = false
    /// `--keypath`.
    var keyPath: String?
    /// `--format`.
    var format: CallFormat = .raw
    /// `-o`/`--output`.
    var output: String?
    /// `--force`.
    var force = false
    /// `-v`/`--verbose`.
    var verbose = false
    /// `--curl`.
    var curl = false

    /// Refuses combinations that print nothing sensible.
    func validate() throws(OptionsError) {
        if headersOnly && keyPath != nil { throw OptionsError("--headers-only and --keypath cannot be combined") }
        if output != nil && (keyPath != nil || format == .json || headersOnly) {
            throw OptionsError("--output writes the body; it cannot be combined with --keypath, --headers-only or --format json")
        }
        if format == .json && (include || headersOnly || keyPath != nil) {
            throw OptionsError("--format json already holds the headers; drop --include, --headers-only and --keypath")
        }
    }
}

/// The formats `call` prints.
enum CallFormat: String, CaseIterable {
    case raw
    case json
    /// With `--all`: one item per line.
    case jsonl
}

extension OutputOptions {
    /// The options as `DirectParser` reads them.
    static var directOptions: [DirectOption<Self>] {
        [
            .flag("-i", "--include") { $0.include = true },
            .flag("--headers-only") { $0.headersOnly = true },
            .option("--keypath") { $0.keyPath = $1 },
            .option("--format") { $0.format = $1 },
            .option("-o", "--output") { $0.output = $1 },
            .flag("--force") { $0.force = true },
            .flag("-v", "--verbose") { $0.verbose = true },
            .flag("--curl") { $0.curl = true },
        ]
    }
}

/// The `OutputOptions` as ArgumentParser declares them (help texts included).
struct OutputArguments: ParsableArguments {
    @Flag(name: [.customShort("i"), .customLong("include")], help: "Print the status line and headers before the body.")
    var include = false

    @Flag(name: .customLong("headers-only"), help: "Print only the status line and headers.")
    var headersOnly = false

    @Option(name: .customLong("keypath"), help: ArgumentHelp("Print only the value at KEYPATH of a JSON body, e.g. a.b.0.c (strings unquoted).", valueName: "keypath"))
    var keyPath: String?

    @Option(help: "Output format: the body as received (raw), or a JSON envelope with status, headers, body and timing (json); with --all, jsonl prints one item per line.")
    var format: CallFormat = .raw

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("Write the body (or the download) to FILE ('-': stdout); a regular file whole or not at all, a device or FIFO written through.", valueName: "file"))
    var output: String?

    @Flag(help: "Replace an existing --output or download destination.")
    var force = false

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "Show the exchange as HTTP on stderr (> request, < response headers), like curl -v.")
    var verbose = false

    @Flag(help: "Print the request as a curl command to stderr, then send it.")
    var curl = false

    /// The values parsed, as the plain group the commands work with.
    var options: OutputOptions {
        OutputOptions(include: include, headersOnly: headersOnly, keyPath: keyPath, format: format, output: output,
                      force: force, verbose: verbose, curl: curl)
    }

    func validate() throws {
        try validating(options.validate)
    }
}

extension CallFormat: ExpressibleByArgument {}
