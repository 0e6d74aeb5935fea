/// Where target files are found and how diagnostics look; shared by every subcommand (declared
/// for ArgumentParser by `TargetArguments`).
struct TargetOptions: Equatable {
    /// `--targets`, in the order given.
    var targetPaths: [String] = []
    /// `--no-color`.
    var noColor = false

    /// Nothing to refuse: any path may be searched.
    func validate() throws(OptionsError) {}
}

extension TargetOptions {
    /// The options as `DirectParser` reads them.
    static var directOptions: [DirectOption<Self>] {
        [
            .repeated("--targets") { $0.targetPaths.append($1) },
            .flag("--no-color") { $0.noColor = true },
        ]
    }
}
