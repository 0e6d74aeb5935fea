import ArgumentParser

@main
struct MoyaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moya-cli",
        abstract: "A declarative HTTP API client: call the targets described in YAML target files.",
        discussion: "Target files are described in moya-targets(5); commands and exit codes in moya-cli(1).",
        subcommands: [List.self, Validate.self, Call.self, Curl.self, Check.self]
    )
}
