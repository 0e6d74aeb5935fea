import ArgumentParser

/// The `TargetOptions` as ArgumentParser declares them (help texts included).
struct TargetArguments: ParsableArguments {
    @Option(name: .customLong("targets"), help: ArgumentHelp(
        "A target file or folder to search first (repeatable).",
        valueName: "path"))
    var targetPaths: [String] = []

    @Flag(name: .customLong("no-color"), help: "Never use colors (also: NO_COLOR=1).")
    var noColor = false

    /// The values parsed, as the plain group the commands work with.
    var options: TargetOptions {
        TargetOptions(targetPaths: targetPaths, noColor: noColor)
    }
}
