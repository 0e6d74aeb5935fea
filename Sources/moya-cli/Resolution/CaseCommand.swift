import ArgumentParser
import TargetSpec

/// The command that names a case, `call` or `curl`: where the two differ in resolving a case and
/// building its target (its help, its options, the token source).
///
/// A struct of values rather than an enum: an enum brings `Equatable` and `Hashable`
/// conformances, records that every run-time conformance look-up scans, start-up included.
struct CaseCommand {
    /// The command's name, as usage lines and help say it.
    let name: String
    /// The ArgumentParser command whose help `-h` prints.
    ///
    /// Asked for only to print that help: naming an ArgumentParser command's type makes its
    /// runtime metadata, which a call parsed by `DirectParser` does without.
    let helpCommand: () -> any ParsableCommand.Type
    /// The names of the command's options (for the suggestion after an unknown `--name`).
    let allOptionNames: () -> [String]
    /// The tokens the target gets, `nil` for the run's provider.
    let accessTokens: (TargetSettings) -> (any AccessTokenSource)?

    static var call: CaseCommand {
        CaseCommand(
            name: "call", helpCommand: { MoyaCommand.Call.self },
            allOptionNames: { CallInvocation.table.flatMap(\.names) },
            accessTokens: { _ in nil })
    }

    /// `curl` prints a placeholder for a token unless `--show-secrets` (see
    /// `AccessTokens.source(forCurl:environment:)`).
    static var curl: CaseCommand {
        CaseCommand(
            name: "curl", helpCommand: { MoyaCommand.Curl.self },
            allOptionNames: { CurlInvocation.table.flatMap(\.names) },
            accessTokens: { AccessTokens.source(forCurl: $0.request, environment: $0.environment) })
    }

    /// The command's long options.
    var optionNames: [String] {
        allOptionNames().filter { $0.hasPrefix("--") }
    }
}
