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
