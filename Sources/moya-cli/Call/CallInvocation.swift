import MoyaKit
import Paging
import TargetSpec

// `CallInvocation` runs the command. Its fields, its table and `init(_ command:)` are declared in
// Sources/OptionSpecs/Declarations and generated into Call+Generated.swift (`make options`).
extension CallInvocation {
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
            var invocation = self
            invocation.outputOptions = try curlHabits.applied(to: outputOptions, paging: pagingOptions).normalized
            try mode.run(
                PreparedCall(resolved: resolved, target: target, invocation: invocation, environment: environment))
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
}
