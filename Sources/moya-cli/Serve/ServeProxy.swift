import CurlTransport
import Dispatch
import HTTPTypes
import MoyaKit
import PositionedYAML
import Sending
import Synchronization
import TargetModel
import TargetServe
import TargetSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `serve --proxy[=URL]`: what the mock does not answer goes to the live API — its base URL (per
/// `--env`), or URL in its place — built by the API's `TargetBuilder` and sent through the one
/// `Sender`, so the API's auth, headers, TLS rules and redaction are `call`'s. With `--record`, a
/// live answer to a declared case (`Prefer: proxy`) becomes its sample through `call --record`'s
/// writer (`SampleRecording`, `TargetFileGate`).
final class ServeProxy: ServeForwarder {
    private let apis: [APISpec]
    private let sender: Sender
    /// `--proxy=URL`: where requests go instead of each API's base URL.
    private let url: String?
    private let recording: SampleRecording?
    /// Recordings are written one at a time: two answers to one file must not race.
    private let recorder = Mutex(())

    init(apis: [APISpec], sender: Sender, url: String?, recording: SampleRecording?) {
        self.apis = apis
        self.sender = sender
        self.url = url
        self.recording = recording
    }

    func forward(_ request: ForwardedRequest, to stream: ForwardedStream) {
        let target: DynamicTarget
        let api: APISpec
        do {
            (target, api) = try self.target(for: request)
        } catch {
            stream.send(.failed(note: "proxy failed: cannot forward the request: \(Self.description(of: error))"))
            return
        }
        // A declared case's answer to record is held whole, bounded as `call --record` bounds it;
        // any other is passed on as it comes.
        let recordsCase = recording != nil ? request.declaredCase : nil
        let consumer = LiveBody(stream: stream)
        let sending = SendingInterceptor(sender.sending(target))
        // An answer that will be sent again is not passed on.
        consumer.skips { head in sending.willSendAgain(after: head) }
        send(sending, api: api, recordsCase: recordsCase, consumer: consumer, stream: stream)
    }

    /// Sends `sending`'s target and goes on as the sender's state says, as `call` does: MoyaKit
    /// retries it after the waits, it is sent once more with a new token after a 401, else the
    /// answer is passed on.
    private func send(
        _ sending: SendingInterceptor, api: APISpec, recordsCase: (api: String, caseName: String)?,
        consumer: LiveBody, stream: ForwardedStream
    ) {
        let target = sending.target
        let redactor = sender.redaction.redactor(for: target)
        let provider = MoyaProvider<DynamicTarget>(
            endpointClosure: { $0.endpoint }, stubClosure: { _ in .never },
            session: Session(configuration: sender.sessionConfiguration(for: target)), plugins: sender.sendingPlugins)
        let body: ResponseBodyHandling =
            recordsCase != nil
            ? .collect(limit: SampleRecording.maximumBodyBytes) : .stream(to: consumer, keepingPrefix: 0)
        provider.request(target, body: body, callbackQueue: .global(), interceptor: sending) { [self] answered in
            // The provider lives until its answer.
            withExtendedLifetime(provider) {}
            let (step, result) = sending.settle(after: answered)
            switch step {
            case .finish, .retry:
                break
            case .renewed:
                send(sending, api: api, recordsCase: recordsCase, consumer: consumer, stream: stream)
                return
            case .renewalFailed(let error):
                let reason = redactor.redact("\(error)")
                stream.send(
                    consumer.hasBegun
                        ? .end(note: "proxied, no new token: \(reason)", complete: false)
                        : .failed(note: "proxy failed: no new token: \(reason)"))
                return
            }
            let response: Response
            switch result {
            case .success(let answer):
                response = answer
            case .failure(let error):
                let reason = redactor.redact(error.transportError?.message ?? error.description)
                guard consumer.hasBegun else {
                    stream.send(.failed(note: "proxy failed: \(reason)"))
                    return
                }
                stream.send(.end(note: "proxied, body broken off: \(reason)", complete: false))
                return
            }
            var note = "proxied"
            if let recording, let declared = recordsCase, (200..<300).contains(response.statusCode) {
                note += recorder.withLock { _ in
                    do {
                        try recording.record(
                            response, api: api, caseName: declared.caseName, redactor: redactor, fileRoot: nil)
                        return ", recorded"
                    } catch {
                        return ", not recorded"
                    }
                }
            }
            if !consumer.hasBegun {
                stream.send(.head(status: response.statusCode, headers: Self.headers(of: response.response)))
                if recordsCase != nil { stream.send(.body(Array(response.data))) }
            }
            stream.send(.end(note: note, complete: true))
        }
    }

    /// The live body passed on as it comes: the head first, then each piece; the transfer stops
    /// when the client is gone or does not read.
    private final class LiveBody: ResponseBodyConsumer {
        private let stream: ForwardedStream
        private let begun = Mutex(false)
        private let skipping = Mutex<(@Sendable (HTTPResponseHead) -> Bool)?>(nil)

        init(stream: ForwardedStream) {
            self.stream = stream
        }

        var hasBegun: Bool { begun.withLock { $0 } }

        /// Answers `skips` says will be sent again are not passed on.
        func skips(_ skips: @escaping @Sendable (HTTPResponseHead) -> Bool) {
            skipping.withLock { $0 = skips }
        }

        func begin(_ head: HTTPResponseHead) throws(TransportError) -> Bool {
            if skipping.withLock({ $0 })?(head) == true { return false }
            // Only the first answer's head.
            guard
                begun.withLock({ begun in
                    defer { begun = true }
                    return !begun
                })
            else { return false }
            stream.send(.head(status: head.statusCode, headers: ServeProxy.headers(of: head)))
            return true
        }

        func consume(_ bytes: UnsafeRawBufferPointer) throws(TransportError) {
            guard stream.send(.body(Array(bytes))) else {
                throw TransportError(kind: .cancelled, message: "the client is gone or does not read")
            }
        }
    }

    /// The live request: `request`'s method, path (less the API's base URL path, which the mock
    /// serves under; a path outside it goes to the origin as it is), query, headers and body, as a
    /// case of the API the path is under; it stays on the base URL's origin.
    private func target(for request: ForwardedRequest) throws -> (DynamicTarget, APISpec) {
        guard let api = self.api(for: request) else { throw ProxyError("no API is served") }
        let mark = Mark(line: 0, column: 0)
        let probe = CaseSpec(CaseSpec.Fields(name: "proxy", mark: mark, path: Template(literal: "", mark: mark)))
        let servedBuilder = sender.targets.builder(for: api, isStubbed: false)
        let basePath = try servedBuilder.baseURL(for: probe).path
        let relative = Self.relative(request.path, under: basePath)
        var fields = CaseSpec.Fields(
            name: "\(request.method) \(request.path)", mark: mark,
            path: Template(literal: relative + (request.query.map { "?" + $0 } ?? ""), mark: mark))
        fields.method = request.method
        fields.headers = request.headers.map {
            HeaderSpec(name: $0.name, value: Template(literal: $0.value, mark: mark))
        }
        var builder = servedBuilder
        if let url { builder.baseURLOverride = url }
        let upstream = try url ?? builder.baseURL(for: probe).absoluteString
        if relative == request.path, !basePath.isEmpty, basePath != "/", let origin = URLOrigin.origin(of: upstream) {
            // A path outside the base URL's path goes to its origin as it is.
            builder.baseURLOverride = origin
        }
        var target = try builder.target(for: CaseSpec(fields), arguments: [:])
        // The live answer goes back as it came, whatever its status.
        target.validationType = ValidationType.none
        if !request.body.isEmpty { target.task = MoyaKit.Task.requestData(Data(request.body)) }
        guard let origin = URLOrigin.origin(of: target.baseURL.absoluteString),
            URLOrigin.origin(of: target.url) == origin
        else { throw ProxyError("the path would leave the API's origin") }
        return (target, api)
    }

    /// The API of a declared case, else the one whose base URL path holds the request's path (the
    /// longest), else the first served.
    private func api(for request: ForwardedRequest) -> APISpec? {
        if let declared = request.declaredCase, let api = apis.first(where: { $0.name == declared.api }) { return api }
        var best: (api: APISpec, length: Int)?
        for api in apis {
            let probe = CaseSpec(
                CaseSpec.Fields(name: "proxy", mark: Mark(line: 0, column: 0), path: Template(literal: "")))
            guard let path = try? sender.targets.builder(for: api, isStubbed: false).baseURL(for: probe).path,
                Self.relative(request.path, under: path) != request.path || path.isEmpty || path == "/"
            else { continue }
            if path.count > best?.length ?? -1 { best = (api, path.count) }
        }
        return best?.api ?? apis.first
    }

    /// `path` less `base` (`/v1/items` under `/v1` is `/items`); `path` itself when not under it.
    static func relative(_ path: String, under base: String) -> String {
        let base = base.hasSuffix("/") ? String(base.dropLast()) : base
        guard !base.isEmpty else { return path }
        if path == base { return "" }
        return path.hasPrefix(base + "/") ? String(path.dropFirst(base.count)) : path
    }

    /// The live answer's headers, less hop-by-hop and framing ones.
    fileprivate static func headers(of head: HTTPResponseHead?) -> [(name: String, value: String)] {
        guard let fields = head?.headers else { return [] }
        return fields.compactMap { field in
            ForwardedAnswer.notPassedBack.contains(field.name.canonicalName) ? nil : (field.name.rawName, field.value)
        }
    }

    private static func description(of error: any Error) -> String {
        (error as? CustomStringConvertible)?.description ?? "\(error)"
    }

    private struct ProxyError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
