import ArgumentParser

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
