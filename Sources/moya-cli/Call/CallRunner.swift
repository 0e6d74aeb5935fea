import CurlTransport
import MoyaKit
import Sending
import TargetSpec

#if canImport(Glibc)
import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#endif

/// Sends (or stubs) one target through a `MoyaProvider` on a latch, with Ctrl-C handling: the
/// `Sender`'s latch client (`check` is its callback client). Retries are MoyaKit's (the provider
/// waits and sends again), decided by the sender's `SendingState` through a `SendingInterceptor`;
/// after a 401 the token it renews goes into `target`, sent again through a new provider.
struct CallRunner {
    var target: DynamicTarget
    /// How the request is sent: plugins (with `--query`, `--json`, `--data` on a first page),
    /// transport settings, redaction, retries.
    var sender: Sender
    var stub: StubOptions
    var output: OutputOptions
    /// `--no-color`, and the environment (`NO_COLOR`, `TERM`), for the `-v` log's colors.
    var noColor = false
    var environment: [String: String] = [:]
    /// `request --offline`: the request goes through every plugin and is answered as a stub is,
    /// and only printed (as `-v`'s `>` lines, or with `--curl` as a curl command) on stdout.
    var isOffline = false

    /// The secrets redacted from logs and curl commands.
    var redactor: SecretRedactor {
        sender.redaction.redactor(for: target)
    }

    func makeProvider() -> MoyaProvider<DynamicTarget> {
        var sender = self.sender
        var log: VerboseLog?
        if output.verbose && !isOffline {
            let stderr = StandardStream.error.fileDescriptor
            let verbose = VerboseLog(
                redactor: redactor, onTerminal: Terminal.isTerminal(stderr),
                colors: Terminal.usesColor(on: stderr, disabled: noColor, environment: environment))
            log = verbose
            // The cache's word ("from cache", "revalidated") among the exchange's notes.
            sender.cacheNote = { text in verbose.trace(.note(text)) }
        }
        var plugins = sender.sendingPlugins
        if isOffline {
            let stdout = StandardStream.output.fileDescriptor
            let printed = VerboseLog(
                redactor: redactor, onTerminal: Terminal.isTerminal(stdout),
                colors: Terminal.usesColor(on: stdout, disabled: noColor, environment: environment), isOffline: true)
            plugins.append(
                output.curl
                    ? CurlEchoPlugin(redactor: redactor, toStandardOutput: true)
                    : VerboseLogPlugin(log: printed, isStubbed: true))
        } else if output.curl {
            plugins.append(CurlEchoPlugin(redactor: redactor))
        }
        var logs: [VerboseLog] = []
        let printed = output.printed
        if !isOffline && (printed.contains("H") || printed.contains("B")) {
            let stdout = StandardStream.output.fileDescriptor
            let request = VerboseLog(
                redactor: redactor, onTerminal: Terminal.isTerminal(stdout),
                colors: Terminal.usesColor(on: stdout, disabled: noColor, environment: environment),
                requestParts: .init(head: printed.contains("H"), body: printed.contains("B")))
            plugins.append(VerboseLogPlugin(log: request, isStubbed: stub.stub))
            logs.append(request)
        }
        if let log {
            plugins.append(VerboseLogPlugin(log: log, isStubbed: stub.stub))
            logs.append(log)
        }
        let stubBehavior: StubBehavior =
            isOffline
            ? .immediate
            : stub.stub ? (stub.delay.map { $0 > 0 ? .delayed(seconds: $0) : .immediate } ?? .immediate) : .never
        var trace: (@Sendable (TransferTrace) -> Void)?
        if !logs.isEmpty { trace = { [logs] event in for log in logs { log.trace(event) } } }
        return MoyaProvider<DynamicTarget>(
            endpointClosure: { $0.endpoint },
            stubClosure: { _ in stubBehavior },
            session: Session(configuration: sender.sessionConfiguration(for: target), trace: trace),
            plugins: plugins
        )
    }

    /// Runs the request, retrying and renewing its token as the sender says; returns the final
    /// result, or `nil` when interrupted. The body is handled as `body` says; answers that will be
    /// sent again never reach `sink`.
    ///
    /// A 401 to a request with an `oauth2` or `command` token is answered once with a new token
    /// (`target` then holds it, so `redactor` hides it too); a second 401 is the result.
    /// - Throws: `CommandFailure` when no new token can be obtained.
    ///
    /// With `showsProgress`, a transfer that runs for more than about a second shows a progress
    /// line on stderr when stderr is a terminal, unless `-s` or the request is stubbed.
    mutating func run(
        body: ResponseBodyHandling = .collectAll, sink: (any AnswerSkipping)? = nil, showsProgress: Bool = false
    )
        throws -> Result<Response, MoyaError>?
    {
        let interrupt = Interrupt.install()
        var barWidth: (@Sendable () -> Int)?
        if showsProgress && !output.silent && !stub.stub && Terminal.isTerminal(StandardStream.error.fileDescriptor) {
            let environment = environment
            barWidth = { Terminal.width(of: StandardStream.error.fileDescriptor, environment: environment) ?? 80 }
        }
        var provider = makeProvider()
        // MoyaKit waits and sends again as the sender's policy says; the note comes first.
        let silent = output.silent
        let sending = SendingInterceptor(
            sender.sending(target),
            onRetry: { answer, delay, retries, mostRetries in
                guard !silent else { return }
                StandardStream.error.write(
                    "moya-cli: \(Self.reason(answer)); retrying in \(Self.seconds(delay)) (\(retries)/\(mostRetries))\n"
                )
            })
        if let sink { sink.skipAnswers { head in sending.willSendAgain(after: head) } }
        while true {
            let outcome = Outcome()
            let bar = barWidth.map { ProgressBar(width: $0) }
            var progress: ProgressBlock?
            if let bar {
                progress = { response in
                    if let transfer = response.progressObject { bar.update(transfer) }
                }
            }
            // This thread runs the transfer itself while it waits, and watches for Ctrl-C (which
            // also ends a wait to retry).
            let sent = sending.target
            RequestLatch.wait(
                watching: [interrupt.fileDescriptor].filter { $0 >= 0 }, onReadable: { _ in interrupt.pump() }
            ) { latch in
                let token = provider.request(sent, body: body, progress: progress, interceptor: sending) { result in
                    outcome.result = result
                    latch.signal()
                }
                interrupt.onInterrupt { token.cancel() }
            }
            bar?.finish()
            if interrupt.wasInterrupted { return nil }
            guard let result = outcome.result else { return nil }
            switch sending.settle(after: result) {
            case (.finish, let answer), (.retry, let answer):
                return answer
            case (.renewed, _):
                target = sending.target
                provider = makeProvider()
            case (.renewalFailed(let error), _):
                throw CommandFailure(.credentials, redactor.redact(error.description))
            }
        }
    }

    static func reason(_ result: Result<Response, MoyaError>) -> String {
        switch result {
        case .success(let response): "HTTP \(response.statusCode)"
        case .failure(let error):
            if let response = error.response {
                "HTTP \(response.statusCode)"
            } else {
                error.transportError?.message ?? error.description
            }
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(Double(Int(value * 10)) / 10) s"
    }
}

extension CallRunner {
    /// Runs the request, keeping its body (up to `limit`), for a caller that reads the response
    /// (`--all`, `--capture`). A response that failed its validation throws 3, 4 or 5 with
    /// `failedValidation(status)`; any other failure throws its documented status with
    /// `transportFailure(message)`, redacted; a signal ends it as an interrupted run.
    mutating func collectedResponse(
        limit: Int, failedValidation: (Int) -> String,
        transportFailure: (String) -> String
    ) throws -> Response {
        guard let result = try run(body: .collect(limit: limit)) else {
            throw Interrupt.failureIfSignalled ?? CommandFailure(.interrupted, "interrupted")
        }
        switch result {
        case .success(let response):
            return response
        case .failure(.statusCode(let response)):
            throw CommandFailure(
                ExitStatus.forFailedValidation(statusCode: response.statusCode), failedValidation(response.statusCode))
        case .failure(let error):
            var failure = CallOutcome.failure(for: error)
            failure.message = redactor.redact(transportFailure(failure.message))
            throw failure
        }
    }
}

/// Where a body goes that must not take the answers that will be sent again (a retried 503, a
/// 401 answered with a new token): `BodySink`, and `--continue`'s `.part`.
protocol AnswerSkipping: AnyObject {
    /// Sets, for the next attempt, which answers are dropped instead of written.
    func skipAnswers(where skips: @escaping @Sendable (HTTPResponseHead) -> Bool)
}

extension BodySink: AnswerSkipping {}

/// The result a request's completion hands to the thread waiting on its `RequestLatch`.
///
/// Not a `Mutex`: the completion writes it once before `signal()`, and the waiting thread reads it
/// only after `wait` returned, which it does after seeing the signal under the latch's lock, so
/// the latch orders the two. (Destroying a `Mutex` of this result type instantiates its generic
/// metadata at run time, a scan of the binary's conformance records: 6% of a stubbed call.)
private final class Outcome: @unchecked Sendable {
    var result: Result<Response, MoyaError>?
}
