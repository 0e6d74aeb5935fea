import Dispatch
import MoyaKit
import TargetSpec

/// The live check of one item: send the request (retrying as `--retry` says), then judge the
/// answer: the status against the case's validation, the body's shape against the sample's.
struct LiveCheck: Sendable {
    var settings: CheckConfiguration
    var providers: ProviderPool
    var limiter: RateLimiter?
    var inflight: InflightRequests
    /// Where completions run: off the transport's thread, so parsing bodies never stalls it.
    var queue: DispatchQueue

    static let unsafeMethods: Set<String> = ["POST", "PUT", "PATCH", "DELETE"]

    /// Starts checking `item`; `completion` is called once, on `queue`.
    func start(_ item: CheckItem, index: Int, completion: @escaping @Sendable (CheckResult) -> Void) {
        let builder = settings.builder(for: item, index: index, isStubbed: false)
        let target: DynamicTarget
        do {
            target = try builder.target(for: item.spec, arguments: item.arguments)
        } catch {
            completion(.failed(.build, ["cannot build the request: \(error)"], duration: nil))
            return
        }
        let redactor = settings.redactor(target)
        let request = (target.method.rawValue, redactor.redact(target.displayURL))
        if Self.unsafeMethods.contains(target.method.rawValue) && !settings.includesUnsafeMethods {
            completion(.skipped("\(target.method.rawValue) is not sent live; add --include-unsafe to send it", request: request))
            return
        }
        let provider = providers.provider(for: settings.sessionConfiguration(target))
        let start = ContinuousClock.now
        send(target, item: item, provider: provider, index: index, attempt: 0) { result, attempts in
            let evaluation = LiveEvaluation(item: item, target: target, builder: builder, redactor: redactor,
                                            comparison: ShapeComparison(isStrict: settings.isStrict))
            var checked = evaluation.judge(result, duration: secondsSince(start), attempts: attempts)
            checked.request = request
            if item.spec.task.isDownload { try? FileManager.default.removeItem(atPath: settings.downloadPath(index)) }
            completion(checked)
        }
    }

    private func send(_ target: DynamicTarget, item: CheckItem, provider: MoyaProvider<DynamicTarget>, index: Int, attempt: Int,
                      completion: @escaping @Sendable (Result<Response, MoyaError>, Int) -> Void) {
        limiter?.acquire()
        // Only a shape comparison needs the body, and then up to --max-body-size; other bodies
        // are read and dropped, so large downloads cost no memory.
        let body: ResponseBodyHandling = LiveEvaluation.comparesShape(item.spec, target: target)
            ? .collect(limit: settings.maximumBodySize) : .discard
        let token = provider.request(target, body: body, callbackQueue: queue) { result in
            inflight.remove(index)
            let retryDelay = attempt < settings.maximumRetries && !inflight.isCancelled
                ? settings.retryDelay(result, attempt, target.method.rawValue) : nil
            guard let retryDelay else {
                completion(result, attempt + 1)
                return
            }
            queue.asyncAfter(deadline: .now() + retryDelay) {
                guard !inflight.isCancelled else {
                    completion(result, attempt + 1)
                    return
                }
                send(target, item: item, provider: provider, index: index, attempt: attempt + 1, completion: completion)
            }
        }
        inflight.add(token, for: index)
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
            let drifts = shapeDrifts(of: response)
            guard drifts.isEmpty else {
                let summary = "the body's shape differs from sample '\(referenceName(for: response.statusCode) ?? "")' "
                    + "in \(drifts.count == comparison.limit ? "\(drifts.count) or more" : "\(drifts.count)") place\(drifts.count == 1 ? "" : "s")"
                return .failed(.drift, [summary] + drifts.map(\.description), status: response.statusCode, duration: duration,
                               drifts: drifts, attempts: attempts)
            }
            return .passed(status: response.statusCode, duration: duration, request: nil, attempts: attempts)
        case .failure(.statusCode(let response)):
            return .failed(.status, ["HTTP \(response.statusCode) failed the case's validation (expected "
                + "\(target.validationType.acceptedDescription))\(tries)"], status: response.statusCode, duration: duration, attempts: attempts)
        case .failure(let error):
            guard let transport = error.transportError else {
                return .failed(.build, ["cannot build the request: \(redactor.redact(error.description))"], duration: duration, attempts: attempts)
            }
            if transport.kind == .cancelled {
                return .failed(.transport, ["interrupted"], duration: duration, attempts: attempts)
            }
            let kind: CheckResult.FailureKind = transport.kind == .timedOut ? .timeout : .transport
            let prefix = transport.kind == .timedOut ? "timed out: " : ""
            return .failed(kind, [prefix + redactor.redact(transport.message) + tries], duration: duration, attempts: attempts)
        }
    }

    /// The sample whose status is the live one (the default first), else the default when the
    /// status passed validation; `nil` when no sample describes this answer.
    func referenceName(for status: Int) -> String? {
        let samples = item.spec.samples
        for sample in samples {
            if case .response(let sampleStatus, _, _) = sample.sample.outcome, sampleStatus == status { return sample.name }
        }
        return samples.first?.name
    }

    /// Where the live JSON body differs from the reference sample's shape; empty when the sample
    /// is not JSON (text, empty, an error) or the request has no body to compare (HEAD, downloads).
    func shapeDrifts(of response: Response) -> [ShapeDrift] {
        guard target.method != .head, !target.task.downloadsFile, let name = referenceName(for: response.statusCode),
              let reference = referenceTarget(named: name),
              case .response(_, let headers, let body) = reference.sample, !body.isEmpty else { return [] }
        let declaresJSON = headers.contains { $0.name.lowercased() == "content-type" && isJSONMediaType($0.value) }
        guard declaresJSON || Self.isJSONFile(item.spec, sample: name), let sample = try? JSONValue(parsing: body) else { return [] }
        guard !response.data.isEmpty else {
            return [ShapeDrift(path: "$", problem: .typeMismatch(expected: ShapeComparison.typeName(sample), found: "an empty body"))]
        }
        guard let live = try? JSONValue(parsing: response.data) else {
            let type = response.response?.headers[.contentType] ?? "no Content-Type"
            return [ShapeDrift(path: "$", problem: .typeMismatch(expected: ShapeComparison.typeName(sample), found: "a body that is not JSON (\(type))"))]
        }
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
              case .response(_, _, .file(let path)) = sample.sample.outcome else { return false }
        return path.source.lowercased().hasSuffix(".json")
    }
}
