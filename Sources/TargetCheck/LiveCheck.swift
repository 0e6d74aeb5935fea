import Assertions
import Dispatch
import MoyaKit
import OrderedJSON
import Sending
import TargetModel
import TargetSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The live check of one item: send the request (retrying as `--retry` says), then judge the
/// answer: the status against the case's validation, the body's shape against the sample's.
///
/// A class: every request's closures capture it, and a struct of these fields was copied into
/// each, a retain and a release per field (a sweep made three such copies a check).
final class LiveCheck: Sendable {
    let settings: CheckConfiguration
    let providers: ProviderPool
    let limiter: RateLimiter?
    let inflight: InflightRequests
    /// Where completions run: off the transport's thread, so parsing bodies never stalls it.
    let queue: DispatchQueue

    init(
        settings: CheckConfiguration, providers: ProviderPool, limiter: RateLimiter?, inflight: InflightRequests,
        queue: DispatchQueue
    ) {
        self.settings = settings
        self.providers = providers
        self.limiter = limiter
        self.inflight = inflight
        self.queue = queue
    }

    /// Whether `item`'s request may share the answer of an identical one in flight: only a GET or
    /// HEAD outside a chain. Two identical POSTs must create two things, and each step of a chain
    /// must reach the server once per chain, whatever its method.
    static func mayShare(_ item: CheckItem, _ target: DynamicTarget) -> Bool {
        (target.method == .get || target.method == .head) && item.chain == nil && item.spec.captures.isEmpty
    }

    /// Whether a capture of the case reads the body (which must then be kept).
    static func capturesFromBody(_ spec: CaseSpec) -> Bool {
        spec.captures.contains { if case .body = $0.source { true } else { false } }
    }

    /// Starts checking `item`; `completion` is called once, on `queue`.
    func start(_ item: CheckItem, index: Int, completion: @escaping @Sendable (CheckResult) -> Void) {
        let builder = settings.builder(for: item, index: index, isStubbed: false)
        var built: DynamicTarget
        do {
            built = try builder.target(for: item.spec, arguments: item.arguments)
        } catch {
            let redactor = SecretRedactor(secretValues: item.inheritedCaptures?.secretValues ?? [])
            completion(.failed(.build, [redactor.redact("cannot build the request: \(error)")], duration: nil))
            return
        }
        built.secretValues += item.inheritedCaptures?.secretValues ?? []
        let target = built
        let redactor = settings.redactor(target)
        // Kept in the result until the run ends, for the reports: its URL in storage of its size,
        // not the larger one it was built in (a sweep of 10,000 checks kept about 0.3 MB more).
        let request: (String, String)? =
            settings.keepsRequests ? (target.method.rawValue, redactor.redact(target.displayURL).compacted) : nil
        if !MethodSemantics.isSafe(target.method.rawValue) && !settings.includesUnsafeMethods {
            completion(
                .skipped(
                    "\(target.method.rawValue) is not sent live; add --include-unsafe to send it", request: request))
            return
        }
        let provider = providers.provider(
            for: settings.sender.sessionConfiguration(for: target),
            sharingIdenticalRequests: Self.mayShare(item, target))
        let start = ContinuousClock.now
        send(target, item: item, provider: provider, index: index) {
            [self] result, attempts, sent in
            // The redactor of the target last sent: the one made above unless a new token was sent.
            let target = sent ?? target
            let redactor = sent.map { settings.redactor($0) } ?? redactor
            let evaluation = LiveEvaluation(
                item: item, target: target, builder: builder, redactor: redactor,
                comparison: ShapeComparison(isStrict: settings.isStrict))
            var checked = evaluation.judge(result, duration: secondsSince(start), attempts: attempts)
            checked.request = request
            if checked.outcome == .failed {
                switch result {
                case .success(let response), .failure(.statusCode(let response)):
                    checked.responseExcerpt = ExpectationCheck.excerpt(of: response.data, redactor: redactor)
                default: break
                }
            }
            if settings.recordsResponses, !target.task.downloadsFile {
                checked.liveResponse = Self.kept(result, redactor: redactor)
            }
            if case .success(let response) = result {
                checked = ChainStep.capturing(
                    checked, item: item, headers: ChainStep.fields(of: response), body: response.data)
                if checked.outcome == .passed, settings.followsPages,
                    let pagination = item.api.pagination(for: item.spec)
                {
                    let pages = PageCheck(settings: settings, item: item, pagination: pagination, firstTarget: target)
                    let (problem, _) = pages.follow(from: response, stubbed: false) { page in
                        limiter?.acquire()
                        return PageCheck.send(
                            page, provider: provider, bodyLimit: settings.maximumBodySize, queue: queue)
                    }
                    if let problem {
                        let captured = checked.captured
                        checked = .failed(
                            .paging, [redactor.redact(problem)], status: checked.statusCode,
                            duration: secondsSince(start),
                            request: request, attempts: checked.attempts)
                        checked.captured = captured
                    }
                }
            }
            if item.spec.task.isDownload { try? FileManager.default.removeItem(atPath: settings.downloadPath(index)) }
            completion(checked)
        }
    }

    /// Sends `target` as the sender's `SendingState` says (MoyaKit retries it as configured), and
    /// sends it once more with a new token after a 401 to a request with an `oauth2` or `command` token.
    /// `completion` gets the result, the number of attempts and the target last sent when it is
    /// not the one given (one with a new token).
    private func send(
        _ target: DynamicTarget, item: CheckItem, provider: MoyaProvider<DynamicTarget>, index: Int,
        completion: @escaping @Sendable (Result<Response, MoyaError>, Int, DynamicTarget?) -> Void
    ) {
        // Only a shape comparison (or the HTTP cache) needs the body, and then up to
        // --max-body-size; other bodies are read and dropped, so large downloads cost no memory.
        let pages = settings.followsPages && item.api.pagination(for: item.spec) != nil
        let asserts = ExpectationCheck.expectation(for: item).map { !$0.body.isEmpty } ?? false
        let body: ResponseBodyHandling =
            LiveEvaluation.comparesShape(item.spec, target: target) || Self.capturesFromBody(item.spec) || pages
                || asserts
                || (settings.recordsResponses && !target.task.downloadsFile)
                // The HTTP cache keeps whole bodies only.
                || target.usesCache
            ? .collect(limit: settings.maximumBodySize) : .discard
        // MoyaKit waits and sends again as the sender's policy says; each retry waits its turn
        // under --rate like any request.
        let sending = SendingInterceptor(
            settings.sender.sending(target), beforeRetry: { [limiter] in limiter?.acquire() })
        send(sending, body: body, provider: provider, index: index, completion: completion)
    }

    /// Sends `sending.target` through `provider`, which retries it as `sending` says; sends it
    /// again with a new token when `sending` renewed it after a 401.
    private func send(
        _ sending: SendingInterceptor, body: ResponseBodyHandling, provider: MoyaProvider<DynamicTarget>, index: Int,
        completion: @escaping @Sendable (Result<Response, MoyaError>, Int, DynamicTarget?) -> Void
    ) {
        limiter?.acquire()
        let token = provider.request(sending.target, body: body, callbackQueue: queue, interceptor: sending) {
            [self] result in
            inflight.remove(index)
            let isCancelled = inflight.isCancelled
            let (step, answer) = sending.settle(after: result)
            let sent = sending.hasRenewedToken ? sending.target : nil
            switch isCancelled ? .finish : step {
            case .finish, .retry:
                completion(answer, sending.attempts, sent)
            case .renewed:
                send(sending, body: body, provider: provider, index: index, completion: completion)
            case .renewalFailed(let error):
                completion(.failure(.underlying(error, nil)), sending.attempts, sent)
            }
        }
        inflight.add(token, for: index)
    }
}

extension LiveCheck {
    /// The response of `result` as `--record` keeps it: a success, or an answer that failed validation.
    static func kept(_ result: Result<Response, MoyaError>, redactor: SecretRedactor) -> LiveResponse? {
        let response: Response
        let passed: Bool
        switch result {
        case .success(let answer): (response, passed) = (answer, true)
        case .failure(.statusCode(let answer)): (response, passed) = (answer, false)
        case .failure: return nil
        }
        return LiveResponse(
            sample: RecordedSample(response), passedValidation: passed, secretValues: redactor.secretValues,
            sensitiveHeaderNames: redactor.sensitiveHeaderNames)
    }
}

/// Judges a live answer.
struct LiveEvaluation {
    var item: CheckItem
    var target: DynamicTarget
    var builder: TargetBuilder
    var redactor: SecretRedactor
    var comparison: ShapeComparison

    func judge(_ result: Result<Response, MoyaError>, duration: Double, attempts: Int) -> CheckResult {
        let tries = attempts > 1 ? " (after \(attempts) attempts)" : ""
        switch result {
        case .success(let response):
            let expectation = ExpectationCheck.expectation(for: item)
            // The body is parsed once, for the shape comparison and the expectations both.
            var parsed: ResponseFacts.Body?
            let drifts = shapeDrifts(of: response, parsed: &parsed)
            var result: CheckResult
            if drifts.isEmpty {
                result = .passed(status: response.statusCode, duration: duration, request: nil, attempts: attempts)
            } else {
                let summary =
                    "the body's shape differs from sample '\(referenceName(for: response.statusCode) ?? "")' "
                    + "in \(drifts.count == comparison.limit ? "\(drifts.count) or more" : "\(drifts.count)") place\(drifts.count == 1 ? "" : "s")"
                result = .failed(
                    .drift, [summary] + drifts.map(\.description), status: response.statusCode, duration: duration,
                    drifts: drifts, attempts: attempts)
            }
            guard let expectation else { return result }
            let body: ResponseFacts.Body =
                expectation.body.isEmpty ? .other("") : parsed ?? ResponseFacts.body(parsing: response.data)
            let facts = ResponseFacts(
                status: response.statusCode, headers: ExpectationCheck.headers(of: response), body: body,
                milliseconds: duration * 1000)
            let failures = expectation.failures(for: facts, values: ExpectationCheck.values(for: item, captured: nil))
            return ExpectationCheck.applying(failures, to: result, redactor: redactor)
        case .failure(.statusCode(let response)):
            return .failed(
                .status,
                [
                    "HTTP \(response.statusCode) failed the case's validation (expected "
                        + "\(target.validationType.acceptedDescription))\(tries)"
                ], status: response.statusCode, duration: duration, attempts: attempts)
        case .failure(let error):
            if let renewal = error.underlyingError as? AccessTokenRenewalError {
                return .failed(
                    .status, [redactor.redact(renewal.description)], status: 401, duration: duration, attempts: attempts
                )
            }
            guard let transport = error.transportError else {
                return .failed(
                    .build, ["cannot build the request: \(redactor.redact(error.description))"], duration: duration,
                    attempts: attempts)
            }
            if transport.kind == .cancelled {
                return .failed(.transport, ["interrupted"], duration: duration, attempts: attempts)
            }
            let kind: CheckResult.FailureKind = transport.kind == .timedOut ? .timeout : .transport
            let prefix = transport.kind == .timedOut ? "timed out: " : ""
            return .failed(
                kind, [prefix + redactor.redact(transport.message) + tries], duration: duration, attempts: attempts)
        }
    }

    /// The sample whose status is the live one (the default first), else the default when the
    /// status passed validation; `nil` when no sample describes this answer.
    func referenceName(for status: Int) -> String? {
        let samples = item.spec.samples
        for sample in samples {
            if case .response(let sampleStatus, _, _) = sample.sample.outcome, sampleStatus == status {
                return sample.name
            }
        }
        return samples.first?.name
    }

    /// Where the live JSON body differs from the reference sample's shape; empty when the sample
    /// is not JSON (text, empty, an error) or the request has no body to compare (HEAD, downloads).
    func shapeDrifts(of response: Response, parsed: inout ResponseFacts.Body?) -> [ShapeDrift] {
        guard target.method != .head, !target.task.downloadsFile, let name = referenceName(for: response.statusCode),
            let reference = referenceTarget(named: name),
            case .response(_, let headers, let body) = reference.sample, !body.isEmpty
        else { return [] }
        let declaresJSON = headers.contains { $0.name.lowercased() == "content-type" && isJSONMediaType($0.value) }
        guard declaresJSON || Self.isJSONFile(item.spec, sample: name), let sample = try? JSONValue(parsing: body)
        else { return [] }
        guard !response.data.isEmpty else {
            return [
                ShapeDrift(
                    path: "$",
                    problem: .typeMismatch(expected: ShapeComparison.typeName(sample), found: "an empty body"))
            ]
        }
        guard let live = try? JSONValue(parsing: response.data) else {
            parsed = ResponseFacts.body(parsing: response.data)
            let type = response.response?.headers[.contentType] ?? "no Content-Type"
            return [
                ShapeDrift(
                    path: "$",
                    problem: .typeMismatch(
                        expected: ShapeComparison.typeName(sample), found: "a body that is not JSON (\(type))"))
            ]
        }
        parsed = .json(live)
        return comparison.drifts(sample: sample, live: live)
    }

    /// The target answered by sample `name`: the one sent, when that sample is the one it was
    /// built with (the default, nearly always the reference), else built again for it.
    private func referenceTarget(named name: String) -> DynamicTarget? {
        if name == target.sampleName { return target }
        return try? builder.target(for: item.spec, arguments: item.arguments, sampleName: name)
    }

    /// Whether some sample of the case has a JSON body, whose shape a live body is compared with.
    static func comparesShape(_ spec: CaseSpec, target: DynamicTarget) -> Bool {
        guard target.method != .head, !target.task.downloadsFile else { return false }
        return spec.samples.contains { sample in
            guard case .response(_, let headers, let body) = sample.sample.outcome else { return false }
            switch body {
            case .empty: return false
            case .json: return true
            case .text, .file:
                return isJSONFile(spec, sample: sample.name)
                    || headers.contains { $0.name.lowercased() == "content-type" && isJSONMediaType($0.value.source) }
            }
        }
    }

    static func isJSONFile(_ spec: CaseSpec, sample name: String) -> Bool {
        guard let sample = spec.samples.first(where: { $0.name == name }),
            case .response(_, _, .file(let path)) = sample.sample.outcome
        else { return false }
        return path.source.lowercased().hasSuffix(".json")
    }
}
