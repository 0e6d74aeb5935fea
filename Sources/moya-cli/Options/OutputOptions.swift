import ArgumentParser
import TargetModel

// The `OutputOptions` group: the plain values the commands use (with their defaults), the table
// that names and describes each option (read by `DirectParser`), and `OutputArguments`, the
// ArgumentParser declaration made from that table. A new option is a field, an entry and a wrapper.

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
    /// `-s`/`--silent`.
    var silent = false

    /// Refuses combinations that print nothing sensible.
    func validate() throws(OptionsError) {
        if headersOnly && keyPath != nil { throw OptionsError("--headers-only and --keypath cannot be combined") }
        if output != nil && (keyPath != nil || format == .json || headersOnly) {
            throw OptionsError(
                "--output writes the body; it cannot be combined with --keypath, --headers-only or --format json")
        }
        if format == .json && (include || headersOnly || keyPath != nil) {
            throw OptionsError("--format json already holds the headers; drop --include, --headers-only and --keypath")
        }
        if let keyPath {
            do {
                _ = try BodyKeyPath(parsing: keyPath)
            } catch {
                throw OptionsError(
                    "--keypath '\(keyPath)': \(error.message) (at character \(error.offset + 1)); "
                        + "write a JSON path ($.items[0].name, $['dotted.key']) or a dotted one (items.0.name)")
            }
        }
    }

    /// `--keypath` as read (`validate()` has refused one that does not parse).
    var bodyKeyPath: BodyKeyPath? {
        keyPath.flatMap { try? BodyKeyPath(parsing: $0) }
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
    /// The group's options, as `DirectParser` reads them and `OutputArguments` declares them.
    static var table: [OptionDeclaration<Self>] {
        [include, headersOnly, keyPath, format, output, force, verbose, curl, silent]
    }

    static var include: OptionDeclaration<Self> {
        .flag("-i", "--include", help: "Print the status line and headers before the body.") { $0.include = true }
    }

    static var headersOnly: OptionDeclaration<Self> {
        .flag("--headers-only", help: "Print only the status line and headers.") { $0.headersOnly = true }
    }

    static var keyPath: OptionDeclaration<Self> {
        .option(
            "--keypath", valueName: "keypath",
            help:
                "Print only the value at KEYPATH of a JSON body: a JSON path ($.a[0].b, $['dotted.key']) or a dotted one (a.0.b); strings unquoted."
        ) {
            $0.keyPath = $1
        }
    }

    static var format: OptionDeclaration<Self> {
        .option(
            "--format",
            help:
                "Output format: the body as received (raw), or a JSON envelope with status, headers, body and timing (json); with --all, jsonl prints one item per line."
        ) {
            $0.format = $1
        }
    }

    static var output: OptionDeclaration<Self> {
        .option(
            "-o", "--output", valueName: "file",
            help:
                "Write the body (or the download) to FILE ('-': stdout), replacing it as curl does; a regular file whole or not at all, a device or FIFO written through."
        ) {
            $0.output = $1
        }
    }

    static var force: OptionDeclaration<Self> {
        .flag(
            "--force",
            help:
                "Replace the existing file at a download case's own destination (else a numbered name is used); write to a block device with -o."
        ) { $0.force = true }
    }

    static var verbose: OptionDeclaration<Self> {
        .flag(
            "-v", "--verbose",
            help: "Show the exchange as HTTP on stderr (> request, < response headers), like curl -v."
        ) { $0.verbose = true }
    }

    static var curl: OptionDeclaration<Self> {
        .flag("--curl", help: "Print the request as a curl command to stderr, then send it.") { $0.curl = true }
    }

    static var silent: OptionDeclaration<Self> {
        .flag(
            "-s", "--silent",
            help:
                "No progress line (shown on a terminal for a transfer that lasts) and no notes on stderr (saved, wrote, retrying); errors are still printed, as with curl -sS."
        ) {
            $0.silent = true
        }
    }
}

/// The `OutputOptions` as ArgumentParser declares them, from the group's table.
struct OutputArguments: ParsableArguments {
    @Flag(OutputOptions.include) var include: Bool
    @Flag(OutputOptions.headersOnly) var headersOnly: Bool
    @Option(OutputOptions.keyPath) var keyPath: String?
    @Option(OutputOptions.format) var format = OutputOptions().format
    @Option(OutputOptions.output) var output: String?
    @Flag(OutputOptions.force) var force: Bool
    @Flag(OutputOptions.verbose) var verbose: Bool
    @Flag(OutputOptions.curl) var curl: Bool
    @Flag(OutputOptions.silent) var silent: Bool

    /// The values parsed, as the plain group the commands work with.
    var options: OutputOptions {
        OutputOptions(
            include: include, headersOnly: headersOnly, keyPath: keyPath, format: format, output: output,
            force: force, verbose: verbose, curl: curl, silent: silent)
    }

    func validate() throws {
        try validating(options.validate)
    }
}

extension CallFormat: ExpressibleByArgument {}
