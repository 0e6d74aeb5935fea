import MoyaKit

/// A plain `call`: the case's response printed as the output options say (body, headers,
/// `--format`, `--keypath`, `--output`), and its exit status (see `CallOutcome`).
struct PlainCall {
    var call: PreparedCall

    func run() throws {
        let invocation = call.invocation
        let outputOptions = invocation.outputOptions
        let requestOptions = invocation.requestOptions
        let target = call.target
        let override = try call.override()
        if let path = outputOptions.output {
            try OutputFileCheck.checkAvailable(path, force: outputOptions.force)
        }
        let writer = ResponseWriter(output: outputOptions, target: target, isStubbed: invocation.stubOptions.stub,
                                    environment: call.environment, noColor: invocation.targetOptions.noColor, bodyLimit: requestOptions.maxBodySize)
        let sink = writer.makeBodySink()
        var runner = call.runner(for: target, override: override)
        guard let result = try runner.run(body: writer.bodyHandling(sink: sink), sink: sink) else {
            sink?.abandon()
            throw Interrupt.failureIfSignalled ?? CommandFailure(.interrupted, "interrupted")
        }
        try CallOutcome.finish(result, writer: writer, sink: sink, target: target, redactor: runner.redactor)
    }
}
