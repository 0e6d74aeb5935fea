import CurlTransport
import MoyaKit
import TargetSpec

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
        if invocation.outputOptions.continueDownload { return try ResumedDownload(call: call).send() }
        let outputOptions = invocation.outputOptions
        let requestOptions = invocation.requestOptions
        let target = call.target
        let recording = invocation.recordOptions.record ? SampleRecording(options: invocation.recordOptions) : nil
        if recording != nil, target.task.downloadsFile {
            throw CommandFailure(
                .usage, "--record cannot record a download case: its body goes to a file, not a sample")
        }
        let override = try call.override()
        let expected = try ExpectedResponse.reading(outputOptions.expect)
        if expected?.needsBody == true && (outputOptions.headersOnly || target.task.downloadsFile) {
            throw CommandFailure(
                .usage, "--expect on the body needs the body; --headers-only and a download case do not keep it")
        }
        if let path = outputOptions.output {
            try OutputFileCheck.checkAvailable(path, force: outputOptions.force)
        }
        if let path = outputOptions.dumpHeader {
            try OutputFileCheck.checkAvailable(path, force: outputOptions.force)
        }
        let writeOut = try outputOptions.writeOut.map(WriteOut.load)
        var writer = ResponseWriter(
            output: outputOptions, target: target, isStubbed: invocation.stubOptions.stub,
            environment: call.environment, noColor: invocation.targetOptions.noColor,
            bodyLimit: requestOptions.maxBodySize)
        // The cache keeps and replays whole bodies: a cached case's body is collected, not streamed.
        let sink = target.usesCache ? nil : writer.makeBodySink()
        var runner = call.runner(for: target, override: override)
        writer.cacheLedger = runner.sender.cacheLedger
        if let path = outputOptions.etagCompare, let tag = try ETagFile.read(path) {
            // Before the -H overrides, so a -H If-None-Match wins.
            runner.sender.plugins.insert(
                HeaderOverridePlugin(overrides: HeaderOverride("If-None-Match: " + tag).map { [$0] } ?? []), at: 0)
        }
        var handling = writer.bodyHandling(sink: sink)
        var keptPrefix = recording == nil ? keptBodyPrefix : SampleRecording.maximumBodyBytes + 1
        // A body `--expect` tests is kept as it streams out, up to --max-body-size.
        if expected?.needsBody == true { keptPrefix = max(keptPrefix, Int(clamping: requestOptions.maxBodySize.bytes)) }
        if keptPrefix > 0, case .stream(let consumer, _) = handling {
            handling = .stream(to: consumer, keepingPrefix: keptPrefix)
        }
        let start = ContinuousClock.now
        guard let result = try runner.run(body: handling, sink: sink, showsProgress: true) else {
            sink?.abandon()
            throw Interrupt.failureIfSignalled ?? CommandFailure(.interrupted, "interrupted")
        }
        if let path = outputOptions.etagSave {
            try ETagFile.save(result, to: path)
        }
        do {
            do {
                try CallOutcome.finish(result, writer: writer, sink: sink, target: target, redactor: runner.redactor)
            } catch let failure as CommandFailure {
                writeOut?.write(Self.facts(result, target: target, redactor: runner.redactor, failure: failure))
                throw failure
            }
            writeOut?.write(Self.facts(result, target: target, redactor: runner.redactor, failure: nil))
        } catch {
            // A response that failed the case's validation is recorded only when asked; the
            // call's own failure (exit 3, 4 or 5) stands unless the recording fails.
            if let recording, recording.options.recordsFailures, case .failure(.statusCode(let response)) = result {
                try recording.record(
                    response, api: call.api, caseName: call.spec.name, redactor: runner.redactor,
                    fileRoot: invocation.targetOptions.fileRoot)
            }
            throw error
        }
        guard case .success(let response) = result else { throw CommandFailure(.transportFailure, "no response") }
        let elapsed = ContinuousClock.now - start
        try recording?.record(
            response, api: call.api, caseName: call.spec.name, redactor: runner.redactor,
            fileRoot: invocation.targetOptions.fileRoot)
        try expected?.check(
            response,
            milliseconds: invocation.stubOptions.stub
                ? nil : Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15,
            label: "\(call.api.name).\(call.spec.name)", redactor: runner.redactor)
        return (response, override)
    }

    /// What `-w` reads of the result; `failure`: how the call ends, when it fails.
    static func facts(
        _ result: Result<Response, MoyaError>, target: DynamicTarget, redactor: SecretRedactor,
        failure: CommandFailure?
    ) -> WriteOut.Facts {
        let response: Response? =
            switch result {
            case .success(let response): response
            case .failure(let error): error.response
            }
        return WriteOut.Facts(
            head: response?.response, statusCode: response?.statusCode ?? 0, timing: response?.timing ?? Timing(),
            url: response?.response?.url?.absoluteString ?? response?.request?.url?.absoluteString ?? target.url,
            exitCode: failure?.status.rawValue ?? 0, errorMessage: failure.map { redactor.redact($0.message) } ?? "",
            redactor: redactor)
    }
}
