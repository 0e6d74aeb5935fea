import ArgumentParser
import FoundationEssentials

// The `TargetOptions` group: the plain values the commands use (with their defaults), the table
// that names and describes each option (read by `DirectParser`), and `TargetArguments`, the
// ArgumentParser declaration made from that table. A new option is a field, an entry and a wrapper.

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
    /// The group's options, as `DirectParser` reads them and `TargetArguments` declares them.
    static var table: [OptionDeclaration<Self>] { [targetPaths, noColor, fileRoot] }

    static var targetPaths: OptionDeclaration<Self> {
        .repeated("--targets", valueName: "path", help: "A target file or folder to search first (repeatable).") {
            $0.targetPaths.append($1)
        }
    }

    static var noColor: OptionDeclaration<Self> {
        .flag("--no-color", help: "Never use colors (also: NO_COLOR=1).") { $0.noColor = true }
    }

    static var fileRoot: OptionDeclaration<Self> {
        .option(
            "--file-root", valueName: "dir",
            help:
                "Let target files read files (dataFile, multipart and sample files) inside this folder instead of their own."
        ) {
            $0.fileRoot = $1
        }
    }
}

/// The `TargetOptions` as ArgumentParser declares them, from the group's table.
struct TargetArguments: ParsableArguments {
    @Option(TargetOptions.targetPaths) var targetPaths = TargetOptions().targetPaths
    @Flag(TargetOptions.noColor) var noColor: Bool
    @Option(TargetOptions.fileRoot, completion: .directory) var fileRoot: String?

    /// The values parsed, as the plain group the commands work with.
    var options: TargetOptions {
        TargetOptions(targetPaths: targetPaths, noColor: noColor, fileRoot: fileRoot)
    }

    func validate() throws {
        try validating(options.validate)
    }
}
