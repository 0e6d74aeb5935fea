import MoyaKit

/// A plain `call`: the case's response printed as the output options say (body, headers,
/// `--format`, `--keypath`, `--output`), and its exit status (see `CallOutcome`).
struct PlainCall {
    var call: PreparedCall
    /// The first bytes of a streamed body to keep in the response too (`request --save-sample`).
    var keptBodyPrefix = 0

    func run() throws {
        _ = try send()
    }

    /// Sends the request and writes the response; returns it (a success: a failure throws) and
    /// the `--json`/`--data` body it sent.
    func send() throws -> (response: Response, override: RequestOverridePlugin) {
        let invocation = call.invocation
        let outputOptions = invocation.outputOptions
        let requestOptions = invocation.requestOptions
        let target = call.target
        let override = try call.override()
        if let path = outputOptions.output {
            try OutputFileCheck.checkAvailable(path, force: outputOptions.force)
        }
        let writer = ResponseWriter(
            output: outputOptions, target: target, isStubbed: invocation.stubOptions.stub,
            environment: call.environment, noColor: invocation.targetOptions.noColor,
            bodyLimit: requestOptions.maxBodySize)
        let sink = writer.makeBodySink()
        var runner = call.runner(for: target, override: override)
        var handling = writer.bodyHandling(sink: sink)
        if keptBodyPrefix > 0, case .stream(let consumer, _) = handling {
            handling = .stream(to: consumer, keepingPrefix: keptBodyPrefix)
        }
        guard let result = try runner.run(body: handling, sink: sink, showsProgress: true) else {
            sink?.abandon()
            throw Interrupt.failureIfSignalled ?? CommandFailure(.interrupted, "interrupted")
        }
        try CallOutcome.finish(result, writer: writer, sink: sink, target: target, redactor: runner.redactor)
        guard case .success(let response) = result else { throw CommandFailure(.transportFailure, "no response") }
        return (response, override)
    }
}
