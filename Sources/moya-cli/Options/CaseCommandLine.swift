/// A command line that names a case, as `call` and `curl` take it: their shared entries, declared
/// once for both tables and both ArgumentParser commands.
protocol CaseCommandLine {
    /// `-h`/`--help`: help for the command, the API or the case instead of running it.
    var help: Bool { get set }
    /// `API CASE [VALUES...] [--name value...]`.
    var words: [String] { get set }
    /// `--value NAME=VALUE`s.
    var values: [String] { get set }
}

extension CaseCommandLine {
    static var help: OptionDeclaration<Self> {
        .flag("-h", "--help", help: "Show help: for the command, an API or a case.") { $0.help = true }
    }

    static var words: OptionDeclaration<Self> {
        .words(valueName: "api-case-values", help: "API CASE [VALUES...] [--name value...]") { $0.words.append($1) }
    }

    static var values: OptionDeclaration<Self> {
        .repeated(
            "--value", valueName: "name=value",
            help: "Give the case's value NAME (repeatable); for a value named like an option of this command."
        ) { $0.values.append($1) }
    }
}
