import MoyaKit
import TargetSpec

/// A `curl` as its command line says: the case's words and values, the plain option groups and
/// the download destination.
///
/// `MoyaCommand.Curl` makes one from what ArgumentParser parsed; `DirectParser` makes one without
/// ArgumentParser (see `DirectlyParsable`). Either way, this prints the curl command.
struct CurlInvocation: DirectlyParsable, CaseCommandLine {
    /// `-h`/`--help`: help for the command, the API or the case instead of a curl command.
    var help = false
    /// `API CASE [VALUES...] [--name value...]`.
    var words: [String] = []
    /// `--value NAME=VALUE`s.
    var values: [String] = []
    var requestOptions = RequestOptions()
    var credentialOptions = CredentialOptions()
    var curlHabits = CurlHabitOptions()
    var targetOptions = TargetOptions()
    var overrideOptions = OverrideOptions()
    /// `-o`/`--output`: the download destination of download cases.
    var output: String?
    /// `-s`: accepted, as there is nothing but the command to print.
    var silent = false

    /// Refuses what the option groups' `validate()` refuses, in the order ArgumentParser runs them.
    func validate() throws(OptionsError) {
        try requestOptions.validate()
        try credentialOptions.validate()
        try targetOptions.validate()
        try overrideOptions.validate()
        try credentialOptions.validate(with: overrideOptions)
        try curlHabits.validate(with: requestOptions)
    }

    func run() throws {
        try reportingFailures {
            guard let (target, _) = try CaseResolution.target(caseRequest(environment: ProcessEnvironment.current))
            else { return }
            let override = RequestOverridePlugin(
                queryEdits: overrideOptions.queryEdits,
                body: try overrideOptions.body(limit: requestOptions.maxBodySize, spools: false))
            StandardStream.output.write(
                try CurlCommandBuilder(target: target, request: requestOptions, override: override).command() + "\n")
        }
    }

    /// What the command line asks of the case: built unstubbed, a download going to `--output`,
    /// replacing a file there.
    func caseRequest(environment: [String: String]) -> CaseRequest {
        CaseRequest(
            command: .curl, help: help, words: words, values: values, targets: targetOptions,
            overrides: overrideOptions,
            credentials: credentialOptions, curlHabits: curlHabits,
            settings: TargetSettings(
                environment: environment, request: requestOptions,
                download: DownloadOverride(path: output, overwrites: true)))
    }

    /// The command's options, as `DirectParser` reads them: its groups' tables and its own entries
    /// (`output`; see `CaseCommandLine`), which `MoyaCommand.Curl` declares for ArgumentParser.
    static var table: [OptionDeclaration<Self>] {
        typealias Entry = OptionDeclaration<Self>
        return [help]
            + Entry.group(RequestOptions.table) { $1(&$0.requestOptions) }
            + Entry.group(CredentialOptions.table) { $1(&$0.credentialOptions) }
            + Entry.group(CurlHabitOptions.table) { $1(&$0.curlHabits) }
            + Entry.group(TargetOptions.table) { $1(&$0.targetOptions) }
            + Entry.group(OverrideOptions.table) { $1(&$0.overrideOptions) }
            + [output, silent, words, values]
    }

    static var output: OptionDeclaration<Self> {
        .option("-o", "--output", valueName: "file", help: "Download destination for download cases.") {
            $0.output = $1
        }
    }

    static var silent: OptionDeclaration<Self> {
        .flag("-s", help: "As curl's: accepted and changes nothing, since only the command is printed.") {
            $0.silent = true
        }
    }
}
