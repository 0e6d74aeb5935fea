import MoyaKit
import TargetSpec

// `CurlInvocation` runs the command. Its fields, its table and `init(_ command:)` are declared in
// Sources/OptionSpecs/Declarations and generated into Curl+Generated.swift (`make options`).
extension CurlInvocation {
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
            try curlLetters.refuseLetters()
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
}
