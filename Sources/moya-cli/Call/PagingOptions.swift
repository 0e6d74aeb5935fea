import ArgumentParser

// The `PagingOptions` group's checks and helpers. Its fields, its table and `PagingArguments` are generated
// (`PagingOptions+Generated.swift`) from Sources/OptionSpecs/Declarations: add or change an option there.

extension PagingOptions {
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
        if (all || capture)
            && (output.writeOut != nil || output.dumpHeader != nil || output.print != nil || output.meta
                || output.maxEvents != nil || output.stream || output.continueDownload || output.etagSave != nil
                || output.etagCompare != nil)
        {
            throw OptionsError(
                "-w, -D, --print, --meta, --max-events, --stream, --continue, --etag-save and --etag-compare are about "
                    + "one response; they cannot be combined with --all or --capture"
            )
        }
        if (all || capture) && !output.expect.isEmpty {
            throw OptionsError("--expect tests one response as printed; it cannot go with --all or --capture")
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
}
