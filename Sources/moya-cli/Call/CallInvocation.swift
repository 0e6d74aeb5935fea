import MoyaKit
import Paging
import TargetSpec

/// A `call` as its command line says: the case's words and values and the plain option groups.
///
/// `MoyaCommand.Call` makes one from what ArgumentParser parsed; `DirectParser` makes one without
/// ArgumentParser (see `DirectlyParsable`). Either way, this runs the call.
struct CallInvocation: DirectlyParsable, CaseCommandLine {
    /// `-h`/`--help`: help for the command, the API or the case instead of a call.
    var help = false
    /// `API CASE [VALUES...] [--name value...]`.
    var words: [String] = []
    /// `--value NAME=VALUE`s.
    var values: [String] = []
    var stubOptions = StubOptions()
    var requestOptions = RequestOptions()
    var credentialOptions = CredentialOptions()
    var curlHabits = CurlHabitOptions()
    var outputOptions = OutputOptions()
    var targetOptions = TargetOptions()
    var overrideOptions = OverrideOptions()
    var pagingOptions = PagingOptions()
    var recordOptions = RecordOptions()

    /// Refuses what the option groups' `validate()` refuses, in the order ArgumentParser runs them.
    func validate() throws(OptionsError) {
        try stubOptions.validate()
        try requestOptions.validate()
        try credentialOptions.validate()
        try outputOptions.validate()
        try targetOptions.validate()
        try overrideOptions.validate()
        try pagingOptions.validate()
        try pagingOptions.validate(with: outputOptions)
        try credentialOptions.validate(with: overrideOptions)
        try curlHabits.validate(with: requestOptions)
        try recordOptions.validate()
        try recordOptions.validate(stub: stubOptions, paging: pagingOptions)
    }

    func run() throws {
        try reportingFailures {
            let environment = ProcessEnvironment.current
            if outputOptions.verbose { AccessTokens.isVerbose.store(true, ordering: .relaxed) }
            let mode = CallMode(pagingOptions)
            guard let (target, resolved) = try CaseResolution.target(caseRequest(mode, environment: environment)) else {
                return
            }
            try mode.run(PreparedCall(resolved: resolved, target: target, invocation: self, environment: environment))
        }
    }

    /// What the command line asks of the case, as `mode` builds its target.
    func caseRequest(_ mode: CallMode, environment: [String: String]) -> CaseRequest {
        CaseRequest(
            command: .call, help: help, words: words, values: values, targets: targetOptions,
            overrides: overrideOptions,
            credentials: credentialOptions, curlHabits: curlHabits,
            settings: TargetSettings(
                environment: environment, request: requestOptions, stub: stubOptions,
                download: mode.download(outputOptions)),
            checksOverridesBeforeBuilding: mode.checksOverridesBeforeBuilding)
    }

    /// The command's options, as `DirectParser` reads them: its groups' tables and its own entries
    /// (see `CaseCommandLine`), which `MoyaCommand.Call` declares for ArgumentParser.
    static var table: [OptionDeclaration<Self>] {
        typealias Entry = OptionDeclaration<Self>
        return [help]
            + Entry.group(StubOptions.table) { $1(&$0.stubOptions) }
            + Entry.group(RequestOptions.table) { $1(&$0.requestOptions) }
            + Entry.group(CredentialOptions.table) { $1(&$0.credentialOptions) }
            + Entry.group(CurlHabitOptions.table) { $1(&$0.curlHabits) }
            + Entry.group(OutputOptions.table) { $1(&$0.outputOptions) }
            + Entry.group(TargetOptions.table) { $1(&$0.targetOptions) }
            + Entry.group(OverrideOptions.table) { $1(&$0.overrideOptions) }
            + Entry.group(PagingOptions.table) { $1(&$0.pagingOptions) }
            + Entry.group(RecordOptions.table) { $1(&$0.recordOptions) }
            + [words, values]
    }
}
