import ArgumentParser
import MoyaKit
import TargetModel
import TargetSpec

/// A `request` as its command line says: `[API] METHOD PATH|URL [ITEM...]` and the option groups
/// it shares with `call` (request, output, target files, `--query`/`--json`/`--data`), plus its own.
///
/// `MoyaCommand.Request` makes one from what ArgumentParser parsed; `DirectParser` makes one
/// without ArgumentParser. Either way, this sends the request as `call` sends a case.
struct RequestInvocation: DirectlyParsable {
    /// `-h`/`--help`: ArgumentParser's help for the command.
    var help = false
    /// `API METHOD PATH [ITEM...]` or `METHOD URL [ITEM...]`.
    var words: [String] = []
    /// `--form`: `name=value` items are form fields, not JSON.
    var form = false
    /// `--auth NAME|none`.
    var auth: String?
    /// `--save-as CASE`: add the request to the API's target file once it succeeds.
    var saveAs: String?
    /// `--save-sample`: with `--save-as`, the response becomes the case's sample.
    var saveSample = false
    var requestOptions = RequestOptions()
    var credentialOptions = CredentialOptions()
    var outputOptions = OutputOptions()
    var targetOptions = TargetOptions()
    var overrideOptions = OverrideOptions()

    /// An unknown `--name` is no item: ArgumentParser refuses it.
    static var takesValueNames: Bool { false }

    func validate() throws(OptionsError) {
        try requestOptions.validate()
        try credentialOptions.validate()
        try outputOptions.validate()
        try targetOptions.validate()
        try overrideOptions.validate()
        try credentialOptions.validate(with: overrideOptions)
    }

    func run() throws {
        if help { throw CleanExit.helpRequest(MoyaCommand.Request.self) }
        try reportingFailures {
            let environment = ProcessEnvironment.current
            if outputOptions.verbose { AccessTokens.isVerbose.store(true, ordering: .relaxed) }
            if saveSample, saveAs == nil { throw CommandFailure(.usage, "--save-sample needs --save-as CASE") }
            if let auth, credentialOptions != CredentialOptions() {
                throw CommandFailure(
                    .usage,
                    "--auth \(auth): -u and --bearer replace the API's auth for this request; leave out one or the other"
                )
            }
            let prepared = try AdHocResolution(invocation: self, environment: environment).prepared()
            let saving = try saveAs.map {
                try CaseSaving(name: $0, savesSample: saveSample, invocation: self, api: prepared.call.api)
            }
            let sent = try PlainCall(
                call: prepared.call, keptBodyPrefix: saveSample ? NewCase.maximumSampleBytes + 1 : 0
            ).send()
            try saving?.save(
                prepared.request, target: prepared.call.target, credential: prepared.call.resolved.credential,
                invocation: self, override: sent.override,
                response: sent.response)
        }
    }

    /// The options as a `call` of the ad-hoc case takes them.
    func callInvocation(requestOptions: RequestOptions) -> CallInvocation {
        CallInvocation(
            requestOptions: requestOptions, outputOptions: outputOptions, targetOptions: targetOptions,
            overrideOptions: overrideOptions)
    }

    /// The command's options, as `DirectParser` reads them and `MoyaCommand.Request` declares them.
    static var table: [OptionDeclaration<Self>] {
        typealias Entry = OptionDeclaration<Self>
        return [Entry.builtInHelp { $0.help = true }, form, auth, saveAs, saveSample]
            + Entry.group(RequestOptions.table) { $1(&$0.requestOptions) }
            + Entry.group(CredentialOptions.table) { $1(&$0.credentialOptions) }
            + Entry.group(OutputOptions.table) { $1(&$0.outputOptions) }
            + Entry.group(TargetOptions.table) { $1(&$0.targetOptions) }
            + Entry.group(OverrideOptions.table) { $1(&$0.overrideOptions) }
            + [words]
    }

    static var words: OptionDeclaration<Self> {
        .words(valueName: "request", help: "API METHOD PATH [ITEM...], or METHOD URL [ITEM...] without a target file.")
        { $0.words.append($1) }
    }

    static var form: OptionDeclaration<Self> {
        .flag(
            "--form", help: "Send NAME=VALUE items as form fields (application/x-www-form-urlencoded) instead of JSON."
        ) { $0.form = true }
    }

    static var saveAs: OptionDeclaration<Self> {
        .option(
            "--save-as", valueName: "case",
            help:
                "Once the request succeeds, add it to the API's target file as the case CASE (the file's other bytes kept; secret headers as ${secret:VAR})."
        ) {
            $0.saveAs = $1
        }
    }

    static var saveSample: OptionDeclaration<Self> {
        .flag(
            "--save-sample",
            help: "With --save-as, save the response as the case's sample (up to 64 KiB of text or JSON)."
        ) { $0.saveSample = true }
    }

    static var auth: OptionDeclaration<Self> {
        .option(
            "--auth", valueName: "scheme",
            help:
                "Send the API's auth scheme SCHEME, or none (default: the API's default auth, as a case without auth: gets)."
        ) {
            $0.auth = $1
        }
    }
}
