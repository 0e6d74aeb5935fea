import Assertions
import Dispatch
import MoyaKit
import OrderedJSON
import Paging
import Synchronization
import TargetModel
import TargetSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The offline check of one item: build the request, then answer it with every sample of the
/// case through the provider's stub pipeline (plugins and validation included) and check what
/// each sample declares.
///
/// The rule: the default (first) sample must be a response that passes the case's validation;
/// named samples after it may fail validation or be network errors (they document failures),
/// but every body must be what it claims: a body whose Content-Type says JSON, or that comes from
/// a `.json` file, must parse as JSON.
struct SampleCheck: Sendable {
    var settings: CheckConfiguration
    var provider: MoyaProvider<DynamicTarget>

    init(settings: CheckConfiguration) {
        self.settings = settings
        provider = MoyaProvider<DynamicTarget>(
            endpointClosure: { $0.endpoint }, stubClosure: MoyaProvider.immediatelyStub, plugins: settings.plugins)
    }

    func run(_ item: CheckItem, index: Int) -> CheckResult {
        let start = ContinuousClock.now
        let builder = settings.builder(for: item, index: index, isStubbed: true)
        let samples: [NamedSample?] = item.spec.samples.isEmpty ? [nil] : item.spec.samples
        var reasons: [String] = []
        var defaultStatus: Int?
        var request: (String, String)?
        var defaultResponse: Response?
        var defaultRedactor: SecretRedactor?
        // Built once; each further sample only swaps the sample it answers with.
        var built: DynamicTarget?
        for (position, sample) in samples.enumerated() {
            let isDefault = position == 0
            var target: DynamicTarget
            do {
                if let built {
                    target = try builder.target(
                        built, answeringWith: sample?.name, for: item.spec, arguments: item.arguments)
                } else {
                    target = try builder.target(for: item.spec, arguments: item.arguments, sampleName: sample?.name)
                    built = target
                }
            } catch {
                let redactor = SecretRedactor(secretValues: item.inheritedCaptures?.secretValues ?? [])
                return .failed(
                    .build, [redactor.redact("cannot build the request: \(error)")], duration: secondsSince(start))
            }
            target.secretValues += item.inheritedCaptures?.secretValues ?? []
            let redactor = settings.redactor(target)
            if request == nil { request = (target.method.rawValue, redactor.redact(target.displayURL)) }
            let label = sample.map { "sample '\($0.name)'" } ?? "the empty sample (the case has none)"
            let result = stubbed(target)
            let response: Response
            switch result {
            case .success(let answered):
                response = answered
            case .failure(.statusCode(let answered)):
                response = answered
                if isDefault {
                    reasons.append(
                        "\(label), the default, answers HTTP \(answered.statusCode), which fails the case's validation "
                            + "(\(target.validationType.acceptedDescription)); the default sample must pass: put a success sample first"
                    )
                }
            case .failure(let error):
                if let transport = error.transportError, transport.kind != .fileAccess {
                    if isDefault {
                        reasons.append(
                            "\(label), the default, is a network error (\(sample.map(Self.errorName) ?? "error")); "
                                + "the default sample must be a response: put a success sample first")
                    }
                    continue
                }
                return .failed(
                    .build, ["cannot build the request: \(redactor.redact(error.description))"],
                    duration: secondsSince(start), request: request)
            }
            if isDefault {
                defaultStatus = response.statusCode
                defaultResponse = response
                defaultRedactor = redactor
            }
            if let problem = Self.bodyProblem(response, sample: sample, label: label) { reasons.append(problem) }
        }
        if item.spec.task.isDownload { try? FileManager.default.removeItem(atPath: settings.downloadPath(index)) }
        let duration = secondsSince(start)
        guard reasons.isEmpty else {
            return .failed(.sample, reasons, status: defaultStatus, duration: duration, request: request)
        }
        if settings.followsPages, let pagination = item.api.pagination(for: item.spec),
            let problem = followPages(item, pagination: pagination)
        {
            return .failed(.paging, [problem], status: defaultStatus, duration: secondsSince(start), request: request)
        }
        let passed = CheckResult.passed(status: defaultStatus, duration: duration, request: request)
        // The default sample stands for the live answer: the case's captures come from it, and
        // its expectations hold for it (so a sample and its `expect:` cannot drift apart).
        let captured = ChainStep.capturing(
            passed, item: item, headers: defaultResponse.map(ChainStep.fields) ?? [],
            body: defaultResponse?.data ?? Data())
        guard let expectation = ExpectationCheck.expectation(for: item), let defaultResponse else { return captured }
        let facts = ResponseFacts(
            status: defaultResponse.statusCode, headers: ChainStep.fields(of: defaultResponse),
            body: expectation.body.isEmpty ? .other("") : ResponseFacts.body(parsing: defaultResponse.data))
        let failures = expectation.failures(
            for: facts, values: ExpectationCheck.values(for: item, captured: captured.captured))
        let redactor = defaultRedactor ?? SecretRedactor(secretValues: [])
        var checked = ExpectationCheck.applying(failures, to: captured, redactor: redactor)
        if checked.outcome == .failed {
            checked.responseExcerpt = ExpectationCheck.excerpt(of: defaultResponse.data, redactor: redactor)
        }
        return checked
    }

    /// `--all`: the sample pages, from `page1` (else the default sample) through each next page.
    private func followPages(_ item: CheckItem, pagination: Pagination) -> String? {
        let builder = settings.builder(for: item, index: 0, isStubbed: true)
        let firstName = item.spec.samples.contains { $0.name == "page1" } ? "page1" : nil
        guard let first = try? builder.target(for: item.spec, arguments: item.arguments, sampleName: firstName) else {
            return nil
        }
        let response: Response
        switch stubbed(first) {
        case .success(let answered): response = answered
        case .failure(.statusCode(let answered)):
            return "page 1: HTTP \(answered.statusCode) failed the case's validation"
        case .failure(let error): return "page 1: \(error.transportError?.message ?? error.description)"
        }
        let pages = PageCheck(settings: settings, item: item, pagination: pagination, firstTarget: first)
        return pages.follow(from: response, stubbed: true, fetch: stubbed).problem
    }

    /// Sends `target` through the stub pipeline and waits for the answer.
    private func stubbed(_ target: DynamicTarget) -> Result<Response, MoyaError> {
        let outcome = Mutex<Result<Response, MoyaError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        provider.request(target) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0 }
            ?? .failure(.underlying(TransportError(kind: .cancelled, message: "no answer"), nil))
    }

    /// Why a sample's body is not what it claims, if it is not.
    static func bodyProblem(_ response: Response, sample: NamedSample?, label: String) -> String? {
        guard !response.data.isEmpty else { return nil }
        let contentType = response.response?.headers[.contentType]
        var jsonFile: String?
        if case .response(_, _, .file(let path))? = sample?.sample.outcome, path.source.lowercased().hasSuffix(".json")
        {
            jsonFile = path.source
        }
        guard contentType.map(isJSONMediaType) == true || jsonFile != nil else { return nil }
        do {
            _ = try JSONValue(parsing: response.data)
            return nil
        } catch {
            if let jsonFile { return "\(label) comes from '\(jsonFile)' but is not JSON (\(error))" }
            return "\(label) says Content-Type: \(contentType ?? "") but its body is not JSON (\(error))"
        }
    }

    static func errorName(_ sample: NamedSample) -> String {
        if case .networkError(let kind) = sample.sample.outcome { return kind.rawValue }
        return "error"
    }
}

/// Whether a Content-Type names JSON: `application/json`, `application/problem+json`, `...; charset=utf-8`.
func isJSONMediaType(_ contentType: String) -> Bool {
    // Asked for every sample of every check: ASCII text (nearly all) is read as bytes. Other
    // text takes the general path below, whose Unicode lowercasing the bytes could not follow.
    if let answer = contentType.utf8.withContiguousStorageIfAvailable(isJSONMediaTypeASCII) ?? nil { return answer }
    let first = contentType.split(separator: ";").first ?? ""
    let mediaType = first.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        .map(String.init).joined().lowercased()
    return mediaType == "application/json" || mediaType.hasSuffix("+json") || mediaType == "text/json"
}

/// ``isJSONMediaType(_:)`` for ASCII bytes; `nil` when `bytes` are not all ASCII. The media type is
/// the first non-empty `;`-separated piece, spaces and tabs trimmed, compared without case.
private func isJSONMediaTypeASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
    guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
    // The first piece between semicolons that is not empty (`split` omits empty ones).
    var piece: Range<Int>?
    var pieceStart = 0
    for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: ";") {
        if index > pieceStart {
            piece = pieceStart..<index
            break
        }
        pieceStart = index + 1
    }
    guard var start = piece?.lowerBound, var end = piece?.upperBound else { return false }
    func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    while start < end && isBlank(bytes[start]) { start += 1 }
    while end > start && isBlank(bytes[end - 1]) { end -= 1 }
    let type = UnsafeBufferPointer(rebasing: bytes[start..<end])
    func equalsLowercased(_ piece: Slice<UnsafeBufferPointer<UInt8>>, _ expected: StaticString) -> Bool {
        guard piece.count == expected.utf8CodeUnitCount else { return false }
        return zip(piece, UnsafeBufferPointer(start: expected.utf8Start, count: expected.utf8CodeUnitCount)).allSatisfy
        { byte, wanted in
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == wanted
        }
    }
    return equalsLowercased(type[...], "application/json") || equalsLowercased(type[...], "text/json")
        || (type.count >= 5 && equalsLowercased(type[(type.count - 5)...], "+json"))
}
