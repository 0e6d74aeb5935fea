import ArgumentParser
import TargetSpec

/// The command that names a case, `call` or `curl`: where the two differ in resolving a case and
/// building its target (its help, its options, the token source).
enum CaseCommand: String {
    case call
    case curl

    /// The command's name, as usage lines and help say it.
    var name: String { rawValue }

    /// The ArgumentParser command whose help `-h` prints.
    ///
    /// Asked for only to print that help: naming an ArgumentParser command's type makes its
    /// runtime metadata, which a call parsed by `DirectParser` does without.
    var helpCommand: any ParsableCommand.Type {
        switch self {
        case .call: MoyaCommand.Call.self
        case .curl: MoyaCommand.Curl.self
        }
    }

    /// The command's long options (for the suggestion after an unknown `--name`).
    var optionNames: [String] {
        let names = switch self {
        case .call: CallInvocation.table.flatMap(\.names)
        case .curl: CurlInvocation.table.flatMap(\.names)
        }
        return names.filter { $0.hasPrefix("--") }
    }

    /// The tokens the target gets, `nil` for the run's provider: `curl` prints a placeholder
    /// unless `--show-secrets` (see `AccessTokens.source(forCurl:environment:)`).
    func accessTokens(_ settings: TargetSettings) -> (any AccessTokenSource)? {
        switch self {
        case .call: nil
        case .curl: AccessTokens.source(forCurl: settings.request, environment: settings.environment)
        }
    }
}
