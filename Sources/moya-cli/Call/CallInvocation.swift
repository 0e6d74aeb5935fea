import MoyaKit
import Paging
import TargetSpec

/// A `call` as its command line says: the case's words and values and the plain option groups.
///
/// `MoyaCommand.Call` makes one from what ArgumentParser parsed; `DirectParser` makes one without
/// ArgumentParser (see `DirectlyParsable`). Either way, this runs the call.
struct CallInvocation: DirectlyParsable, CaseCommandLine {
    /// `-h`/`--help`: help for the command, the API or the case instead of a call.
    var help = false
    /// `API CASE [VALUES...] [--name value...]`.
    var words: [String] = []
    /// `--value NAME=VALUE`s.
    var values: [String] = []
    var stubOptions = StubOptions()
    var requestOptions = RequestOptions()
    var outputOptions = OutputOptions()
    var targetOptions = TargetOptions()
    var overrideOptions = OverrideOptions()
    var pagingOptions = PagingOptions()

    /// Refuses what the option groups' `validate()` refuses, in the order ArgumentParser runs them.
    func validate() throws(OptionsError) {
        try stubOptions.validate()
        try requestOptions.validate()
        try outputOptions.validate()
        try targetOptions.validate()
        try overrideOptions.validate()
        try pagingOptions.validate()
        try pagingOptions.validate(with: outputOptions)
    }

    func run() throws {
        try reportingFailures {
            let environment = ProcessEnvironment.current
            if outputOptions.verbose { AccessTokens.isVerbose.store(true, ordering: .relaxed) }
            if pagingOptions.all || pagingOptions.capture {
                try runPagedOrCaptured(environment: environment)
                return
            }
            guard let (target, spec) = try CaseResolution.target(
                words: words, values: values, command: MoyaCommand.Call.self, name: "call", help: help,
                targets: targetOptions, request: requestOptions, isStubbed: stubOptions.stub, sample: stubOptions.sample,
                output: outputOptions.output, force: outputOptions.force, environment: environment)
            else { return }
            try RequestPlugins.checkBodyOverride(overrideOptions, task: spec.task)
            let override = RequestOverridePlugin(queryEdits: overrideOptions.queryEdits, body: try overrideOptions.body(limit: requestOptions.maxBodySize))
            if let path = outputOptions.output, !spec.task.isDownload {
                try OutputFileCheck.checkAvailable(path, overwrite: outputOptions.force)
            }
            let writer = ResponseWriter(output: outputOptions, target: target, isStubbed: stubOptions.stub,
                                        environment: environment, noColor: targetOptions.noColor, bodyLimit: requestOptions.maxBodySize)
            let sink = writer.makeBodySink()
            var runner = CallRunner(target: target, request: requestOptions, stub: stubOptions, output: outputOptions,
                                    noColor: targetOptions.noColor, environment: environment, override: override)
            guard let result = try runner.run(body: writer.bodyHandling(sink: sink), sink: sink) else {
                sink?.abandon()
                throw Interrupt.failureIfSignalled ?? CommandFailure(.interrupted, "interrupted")
            }
            try CallOutcome.finish(result, writer: writer, sink: sink, target: target, redactor: runner.redactor)
        }
    }

    /// `--all` and `--capture`: the case's pages, or its captures, instead of its body.
    private func runPagedOrCaptured(environment: [String: String]) throws {
        let loader = CatalogLoader(options: targetOptions, environment: environment)
        let resolved = try CaseResolution.resolve(words, values: values, command: MoyaCommand.Call.self, name: "call", help: help, loader: loader)
        guard case .invocation(let api, let spec, let arguments) = resolved else { return }
        try RequestPlugins.checkBodyOverride(overrideOptions, task: spec.task)
        let target = try CaseResolution.build(spec, api: api, arguments: arguments, environment: environment, request: requestOptions,
                                              isStubbed: stubOptions.stub, sample: stubOptions.sample, output: nil, force: false)
        if pagingOptions.capture {
            let runner = CallRunner(target: target, request: requestOptions, stub: stubOptions, output: outputOptions,
                                    noColor: targetOptions.noColor, environment: environment,
                                    override: RequestOverridePlugin(queryEdits: overrideOptions.queryEdits, body: try overrideOptions.body(limit: requestOptions.maxBodySize)))
            try CapturedCall(api: api, spec: spec, runner: runner, bodyLimit: requestOptions.maxBodySize.bytes).run()
            return
        }
        guard let pagination = api.pagination(for: spec) else {
            throw CommandFailure(.usage, "case '\(spec.name)' of API '\(api.name)' does not page; --all needs 'pagination:' on the case "
                                 + "or the API (see moya-targets(5))")
        }
        try PagedCall(api: api, spec: spec, arguments: arguments, pagination: pagination, firstTarget: target, invocation: self,
                      environment: environment).run()
    }

    /// The command's options, as `DirectParser` reads them: its groups' tables and its own entries
    /// (see `CaseCommandLine`), which `MoyaCommand.Call` declares for ArgumentParser.
    static var table: [OptionDeclaration<Self>] {
        typealias Entry = OptionDeclaration<Self>
        return [help]
            + Entry.group(StubOptions.table) { $1(&$0.stubOptions) }
            + Entry.group(RequestOptions.table) { $1(&$0.requestOptions) }
            + Entry.group(OutputOptions.table) { $1(&$0.outputOptions) }
            + Entry.group(TargetOptions.table) { $1(&$0.targetOptions) }
            + Entry.group(OverrideOptions.table) { $1(&$0.overrideOptions) }
            + Entry.group(PagingOptions.table) { $1(&$0.pagingOptions) }
            + [words, values]
    }
}
