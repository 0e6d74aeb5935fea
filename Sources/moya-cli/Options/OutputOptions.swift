import ArgumentParser
import TargetModel

// The `OutputOptions` group's checks and helpers. Its fields, its table and `OutputArguments` are generated
// (`OutputOptions+Generated.swift`) from Sources/OptionSpecs/Declarations: add or change an option there.

extension OutputOptions {
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

extension CallFormat: ExpressibleByArgument {}
