import ArgumentParser

@main
struct MoyaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moya-cli",
        abstract: "A declarative HTTP API client: call the targets described in YAML target files."
    )
}
