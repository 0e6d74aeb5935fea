import ArgumentParser
import MoyaKit
import TargetServe
import TargetSpec
import TextSafety

extension MoyaCommand {
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the samples of APIs over HTTP: a mock server from the target files.",
            discussion: """
                Answers each case of the APIs named (every API found, by default) at its method and path, \
                under its base URL's path, with its default sample, its placeholders filled from the request. \
                Values in the path and query are checked as `call` checks them (400 when wrong or missing). \
                `Prefer: example=NAME` or `Prefer: code=404` picks a sample per request. Each request is \
                logged on stderr. Exit codes: 64 unknown API, environment or sample, 65 invalid target file \
                or clashing routes, 74 cannot listen, 130/143 stopped by Ctrl-C/SIGTERM; see moya-cli(1).
                """
        )

        @Argument(
            help: "The APIs to serve; omit to serve every API found.",
            completion: CaseCompletion.kind(of: .apiName, in: ["serve"]) { words in
                (try? Serve.parse(words)).map {
                    CaseCompletion.Context(words: [], targetPaths: $0.targetArguments.targetPaths)
                }
            })
        var apis: [String] = []

        @Option(help: ArgumentHelp("The port to listen on (0: any free port).", valueName: "port"))
        var port = 8080

        @Option(
            help: ArgumentHelp(
                "The address to listen on; anything but loopback must be asked for here.", valueName: "address"))
        var host = "127.0.0.1"

        @Option(
            help: ArgumentHelp(
                "Wait SECONDS (a decimal number) before each sample response, as --stub --delay.", valueName: "seconds")
        )
        var delay: DecimalNumber?

        @Option(
            name: .customLong("env"),
            help: ArgumentHelp("Use each API's environment NAME (its base URL path and variables).", valueName: "name"),
            completion: CaseCompletion.optionValue(.environmentName, in: ["serve"]))
        var environmentName: String?

        @Option(
            help: ArgumentHelp(
                "Answer with the sample NAME in every case that has one (others: their default).", valueName: "name"))
        var sample: String?

        @OptionGroup(title: "Target files") var targetArguments: TargetArguments

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
            if let delay = delay?.value, !(0...SessionConfiguration.maximumInterval).contains(delay) {
                throw ValidationError(
                    "--delay must be a number of seconds from 0 to \(Int(SessionConfiguration.maximumInterval))")
            }
        }

        func run() throws {
            try reportingFailures {
                try ServeRun(command: self).run()
            }
        }
    }
}
