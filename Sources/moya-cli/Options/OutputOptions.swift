import ArgumentParser
import TargetModel

// The `OutputOptions` group's checks and helpers. Its fields, its table and `OutputArguments` are generated
// (`OutputOptions+Generated.swift`) from Sources/OptionSpecs/Declarations: add or change an option there.

extension OutputOptions {
    /// Refuses combinations that print nothing sensible.
    func validate() throws(OptionsError) {
        if let pretty, !["all", "colors", "format", "none"].contains(pretty) {
            throw OptionsError("--pretty '\(pretty)': give all, colors, format or none")
        }
        if let print {
            guard !print.isEmpty, print.allSatisfy({ "HBhbm".contains($0) }) else {
                throw OptionsError(
                    "--print '\(print)': give letters of H (request head), B (request body), h (response head), b (response body), m (meta)"
                )
            }
            if include || headersOnly || meta {
                throw OptionsError("--print says what is printed; leave out -i, --headers-only and --meta")
            }
            if format != .raw { throw OptionsError("--print and --format \(format.rawValue) cannot be combined") }
        }
        if meta && (include || headersOnly) {
            throw OptionsError("--meta prints the status line; leave out -i and --headers-only")
        }
        if let maxEvents, maxEvents < 1 { throw OptionsError("--max-events must be 1 or more") }
        if headersOnly && keyPath != nil { throw OptionsError("--headers-only and --keypath cannot be combined") }
        if output != nil && output != "-" && (keyPath != nil || headersOnly || format == .jsonl || maxEvents != nil) {
            throw OptionsError(
                "--output writes the body; it cannot be combined with --keypath, --headers-only, --max-events or --format jsonl"
            )
        }
        if let writeOut, !writeOut.hasPrefix("@") { _ = try WriteOut(parsing: writeOut) }
        if dumpHeader == "-" && format == .json {
            throw OptionsError("--format json already holds the headers; -D - would print them twice")
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

    /// What is printed on stdout, as HTTPie's `--print` letters say: `-p` itself, or what `-i`,
    /// `--headers-only` and `--meta` mean (by default the response body).
    var printed: Set<Character> {
        if let print { return Set(print) }
        if meta { return ["m"] }
        if headersOnly { return ["h"] }
        return include ? ["h", "b"] : ["b"]
    }

    /// The options with `-p`, `--meta` and `-D -` said as `-i` and `--headers-only` say them, for
    /// the writer: `-p hb` is `-i`, `-p h` `--headers-only`, `-D -` `-i`.
    var normalized: OutputOptions {
        var options = self
        let printed = printed
        if print != nil {
            options.include = printed.contains("h") && printed.contains("b")
            options.headersOnly = printed.contains("h") && !printed.contains("b")
        }
        if dumpHeader == "-" {
            if !options.headersOnly { options.include = true }
            options.dumpHeader = nil
        }
        return options
    }

    /// Whether the response body is printed (or written to `--output`).
    var printsBody: Bool { printed.contains("b") || (output != nil && output != "-") }

    /// Whether events of a stream are read one by one: `--keypath`, `--format jsonl` and
    /// `--max-events` work per event.
    var readsEvents: Bool { keyPath != nil || format == .jsonl || maxEvents != nil }

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

extension CallFormat: ExpressibleByArgument {}
