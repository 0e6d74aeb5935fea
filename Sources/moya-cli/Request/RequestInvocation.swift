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
            if saveSample, offline {
                throw CommandFailure(.usage, "--save-sample saves the response, and --offline sends nothing; give one")
            }
            if let auth, credentialOptions != CredentialOptions() {
                throw CommandFailure(
                    .usage,
                    "--auth \(auth): -u and --bearer replace the API's auth for this request; leave out one or the other"
                )
            }
            var invocation = self
            invocation.words = try curlHabits.requestWords(RequestShorthand.expandingLocalhost(words))
            invocation.words = RequestShorthand.addingDefaultMethod(
                invocation.words, hasBodyOption: overrideOptions.json != nil || overrideOptions.data != nil)
            if curlHabits.head {
                invocation.outputOptions.headersOnly = true
                do throws(OptionsError) {
                    try invocation.outputOptions.validate()
                } catch {
                    throw CommandFailure(.usage, "-I (as --headers-only): \(error.message)")
                }
            }
            if !IgnoredInput.isRead(
                words: invocation.words, json: overrideOptions.json, data: overrideOptions.data,
                bearer: credentialOptions.bearer), let note = IgnoredInput.note()
            {
                StandardStream.error.write(note)
            }
            invocation.outputOptions = invocation.outputOptions.normalized
            let prepared = try AdHocResolution(invocation: invocation, environment: environment).prepared()
            let saving = try saveAs.map {
                try CaseSaving(
                    name: $0, savesSample: saveSample, invocation: invocation, api: prepared.call.api,
                    credential: prepared.call.resolved.credential)
            }
            let sent =
                offline
                ? try Self.printOffline(prepared.call)
                : try PlainCall(
                    call: prepared.call, keptBodyPrefix: saveSample ? NewCase.maximumSampleBytes + 1 : 0
                ).send()
            try saving?.save(
                prepared.request, target: prepared.call.target, credential: prepared.call.resolved.credential,
                invocation: invocation, override: sent.override,
                response: sent.response)
        }
    }

    /// `--offline`: the request built by every plugin, printed and not sent (see `CallRunner.isOffline`).
    private static func printOffline(_ call: PreparedCall) throws -> (
        response: Response, override: RequestOverridePlugin
    ) {
        let override = try call.override()
        var runner = call.runner(for: call.target, override: override)
        runner.isOffline = true
        guard let result = try runner.run() else {
            throw Interrupt.failureIfSignalled ?? CommandFailure(.interrupted, "interrupted")
        }
        // The answer is the stub's, never shown: only the request was asked for.
        switch result {
        case .success(let response): return (response, override)
        case .failure(let error):
            guard let response = error.response else { throw CommandFailure(.transportFailure, error.description) }
            return (response, override)
        }
    }

    /// The options as a `call` of the ad-hoc case takes them.
    func callInvocation(requestOptions: RequestOptions) -> CallInvocation {
        CallInvocation(
            requestOptions: requestOptions, outputOptions: outputOptions, targetOptions: targetOptions,
            overrideOptions: overrideOptions)
    }
}
