import ArgumentParser
import MoyaKit

@main
struct MoyaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moya-cli",
        abstract: "A declarative HTTP API client: call the targets described in YAML target files.",
        discussion: "Target files are described in moya-targets(5); commands and exit codes in moya-cli(1).",
        subcommands: [List.self, Validate.self, Call.self, Curl.self]
    )

    static func main() {
        // A live call loads libcurl (about 8 ms); start that now, in parallel with parsing
        // arguments and loading target files, instead of after them.
        if willSendRequests(Array(CommandLine.arguments.dropFirst())) {
            Session.warmUpTransport()
        }
        main(nil)
    }

    /// Whether these arguments will send something over the network (not stubbed, not help).
    static func willSendRequests(_ arguments: [String]) -> Bool {
        guard let command = arguments.first else { return false }
        let asksForHelp = arguments.contains("--help") || arguments.contains("-h")
        switch command {
        case "call": return !arguments.contains("--stub") && !asksForHelp
        case "check": return arguments.contains("--live") && !asksForHelp
        default: return false
        }
    }
}
