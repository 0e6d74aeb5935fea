import ArgumentParser
import FoundationEssentials

// The `TargetOptions` group: the plain values the commands use, the fast start-up path's
// option table (`directOptions`), and `TargetArguments`, their ArgumentParser declaration with the
// help texts. A new option is added here, in all three.

/// Where target files are found and how diagnostics look; shared by every subcommand (declared
/// for ArgumentParser by `TargetArguments`).
struct TargetOptions: Equatable {
    /// `--targets`, in the order given.
    var targetPaths: [String] = []
    /// `--no-color`.
    var noColor = false
    /// `--file-root DIR`: files target files name (data files, multipart and sample files) must
    /// be inside DIR instead of inside each target file's folder.
    var fileRoot: String?

    /// Refuses a `--file-root` that is not a folder; any path may be searched.
    func validate() throws(OptionsError) {
        guard let fileRoot else { return }
        var isFolder = false
        guard FileManager.default.fileExists(atPath: fileRoot, isDirectory: &isFolder), isFolder else {
            throw OptionsError("--file-root '\(fileRoot)' is not a folder")
        }
    }
}

extension TargetOptions {
    /// The options as `DirectParser` reads them.
    static var directOptions: [DirectOption<Self>] {
        [
            .repeated("--targets") { $0.targetPaths.append($1) },
            .flag("--no-color") { $0.noColor = true },
            .option("--file-root") { $0.fileRoot = $1 },
        ]
    }
}

/// The `TargetOptions` as ArgumentParser declares them (help texts included).
struct TargetArguments: ParsableArguments {
    @Option(name: .customLong("targets"), help: ArgumentHelp(
        "A target file or folder to search first (repeatable).",
        valueName: "path"))
    var targetPaths: [String] = []

    @Flag(name: .customLong("no-color"), help: "Never use colors (also: NO_COLOR=1).")
    var noColor = false

    @Option(name: .customLong("file-root"), help: ArgumentHelp(
        "Let target files read files (dataFile, multipart and sample files) inside this folder instead of their own.",
        valueName: "dir"), completion: .directory)
    var fileRoot: String?

    /// The values parsed, as the plain group the commands work with.
    var options: TargetOptions {
        TargetOptions(targetPaths: targetPaths, noColor: noColor, fileRoot: fileRoot)
    }

    func validate() throws {
        try validating(options.validate)
    }
}
