import ArgumentParser

/// Where target files are found and how diagnostics look; shared by every subcommand.
struct TargetOptions: ParsableArguments {
    @Option(name: .customLong("targets"), help: ArgumentHelp(
        "A target file or folder to search first (repeatable).",
        valueName: "path"))
    var targetPaths: [String] = []

    @Flag(name: .customLong("no-color"), help: "Never use colors (also: NO_COLOR=1).")
    var noColor = false
}

extension TargetOptions: DirectlyParsable {
    static var directOptions: [DirectOption<Self>] {
        [
            .repeated("--targets") { $1(&$0._targetPaths) },
            .flag("--no-color") { $1(&$0._noColor) },
        ]
    }
}
