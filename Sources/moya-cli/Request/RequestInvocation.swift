import ArgumentParser
import MoyaKit
import TargetModel
import TargetSpec

// `RequestInvocation` runs the command. Its fields, its table and `init(_ command:)` are declared in
// Sources/OptionSpecs/Declarations and generated into Request+Generated.swift (`make options`).
extension RequestInvocation {
    /// An unknown `--name` is no item: ArgumentParser refuses it.
    static var takesValueNames: Bool { false }

    func validate() throws(OptionsError) {
        try requestOptions.validate()
        try credentialOptions.validate()
        try outputOptions.validate()
        try targetOptions.validate()
        try overrideOptions.validate()
        try credentialOptions.validate(with: overrideOptions)
        try curlHabits.validate(with: requestOptions)
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
            var invocation = self
            invocation.words = try curlHabits.requestWords(words)
            if curlHabits.head {
                invocation.outputOptions.headersOnly = true
                do throws(OptionsError) {
                    try invocation.outputOptions.validate()
                } catch {
                    throw CommandFailure(.usage, "-I (as --headers-only): \(error.message)")
                }
            }
            let prepared = try AdHocResolution(invocation: invocation, environment: environment).prepared()
            let saving = try saveAs.map {
                try CaseSaving(name: $0, savesSample: saveSample, invocation: invocation, api: prepared.call.api)
            }
            let sent = try PlainCall(
                call: prepared.call, keptBodyPrefix: saveSample ? NewCase.maximumSampleBytes + 1 : 0
            ).send()
            try saving?.save(
                prepared.request, target: prepared.call.target, credential: prepared.call.resolved.credential,
                invocation: invocation, override: sent.override,
                response: sent.response)
        }
    }

    /// The options as a `call` of the ad-hoc case takes them.
    func callInvocation(requestOptions: RequestOptions) -> CallInvocation {
        CallInvocation(
            requestOptions: requestOptions, outputOptions: outputOptions, targetOptions: targetOptions,
            overrideOptions: overrideOptions)
    }
}
