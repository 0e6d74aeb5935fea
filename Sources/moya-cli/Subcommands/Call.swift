import ArgumentParser
import MoyaKit
import TargetSpec

extension MoyaCommand {
    struct Call: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Call one case of an API, live or from its sample data (--stub).",
            discussion: """
                Values follow the case in declared order, or by name (--name value). The body goes to \
                stdout; logs, progress and errors to stderr. 'moya-cli call API --help' lists the cases \
                of API; 'moya-cli call API CASE --help' describes one. Exit codes: see moya-cli(1).
                """,
            helpNames: []
        )

        @Flag(name: [.customShort("h"), .customLong("help")], help: "Show help: for the command, an API or a case.")
        var help = false

        @OptionGroup(title: "Stubs") var stubOptions: StubOptions
        @OptionGroup(title: "Request") var requestOptions: RequestOptions
        @OptionGroup(title: "Output") var outputOptions: OutputOptions
        @OptionGroup(title: "Target files") var targetOptions: TargetOptions

        @Argument(
            parsing: .allUnrecognized, help: ArgumentHelp("API CASE [VALUES...] [--name value...]", valueName: "api-case-values"),
            completion: CaseCompletion.kind { words in
                (try? Call.parse(words)).map { CaseCompletion.Context(words: $0.words, targetPaths: $0.targetOptions.targetPaths) }
            })
        var words: [String] = []

        @Option(name: .customLong("value"), help: ArgumentHelp(
            "Give the case's value NAME (repeatable); for a value named like an option of this command.",
            valueName: "name=value"))
        var values: [String] = []

        func run() throws {
            try reportingFailures {
                let environment = ProcessInfo.processInfo.environment
                let loader = CatalogLoader(options: targetOptions, environment: environment)
                let resolved = try CaseResolution.resolve(words, values: values, command: Call.self, name: "call", help: help, loader: loader)
                guard case .invocation(let api, let spec, let arguments) = resolved else { return }
                let target = try CaseResolution.build(
                    spec, api: api, arguments: arguments, environment: environment, request: requestOptions,
                    isStubbed: stubOptions.stub, sample: stubOptions.sample, output: outputOptions.output, force: outputOptions.force)
                if let path = outputOptions.output, !spec.task.isDownload {
                    try OutputFile.checkAvailable(path, overwrite: outputOptions.force)
                }
                let runner = CallRunner(target: target, request: requestOptions, stub: stubOptions, output: outputOptions)
                guard let result = runner.run() else {
                    throw CommandFailure(.interrupted, "interrupted")
                }
                let writer = ResponseWriter(output: outputOptions, target: target, isStubbed: stubOptions.stub,
                                            environment: environment, noColor: targetOptions.noColor)
                try CallOutcome.finish(result, writer: writer, target: target)
            }
        }
    }
}

extension MoyaCommand.Call: DirectlyParsable {
    static var directOptions: [DirectOption<Self>] {
        typealias Entry = DirectOption<Self>
        return [Entry.flag("-h", "--help") { $1(&$0._help) }]
            + Entry.group { $1(&$0._stubOptions) }
            + Entry.group { $1(&$0._requestOptions) }
            + Entry.group { $1(&$0._outputOptions) }
            + Entry.group { $1(&$0._targetOptions) }
            + [.words { $1(&$0._words) }, .repeated("--value") { $1(&$0._values) }]
    }
}
