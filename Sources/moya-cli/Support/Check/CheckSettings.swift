import MoyaKit
import TargetSpec

/// Everything a check run needs from the command line, in a form worker threads may share.
///
/// The request options are kept whole and read through the same helpers as `call` and `curl`
/// (`SessionConfiguration(request:target:)`, `CaseResolution.builder`, `RequestPlugins.base`),
/// so a request option means the same thing in every subcommand.
struct CheckSettings: Sendable {
    var isLive: Bool
    var jobs: Int
    /// Requests started per second at most (`--rate`), or `nil`.
    var rate: Double?
    var includesUnsafeMethods: Bool
    var isStrict: Bool
    /// `--env`, `--base-url`, `-H`, timeouts, TLS, proxy, redirects, retries, `--show-secrets`.
    var request: RequestOptions
    /// The process environment `${VAR}` references read.
    var processEnvironment: [String: String]
    /// A private folder for downloads, removed when the run ends.
    var scratchFolder: String

    init(check: CheckOptions, request: RequestOptions, processEnvironment: [String: String], scratchFolder: String) {
        isLive = check.live
        jobs = check.jobs
        rate = check.rate?.value
        includesUnsafeMethods = check.includeUnsafe
        isStrict = check.strict
        self.request = request
        self.processEnvironment = processEnvironment
        self.scratchFolder = scratchFolder
    }

    /// `--retry N`.
    var maximumRetries: Int { request.retry }

    /// Which failures are retried, and after how long (`--retry-all` adds non-idempotent methods).
    var retryPolicy: RetryPolicy { RetryPolicy(retriesAllMethods: request.retryAll) }

    /// The transport settings for `target`.
    func sessionConfiguration(for target: DynamicTarget) -> SessionConfiguration {
        SessionConfiguration(request: request, target: target)
    }

    /// The redactor for what is printed about `target`.
    func redactor(for target: DynamicTarget) -> SecretRedactor {
        SecretRedactor(target: target, showsSecrets: request.showSecrets)
    }

    /// The builder for `item`: downloads land in the scratch folder, never in the user's.
    func builder(for item: CheckItem, index: Int, isStubbed: Bool) -> TargetBuilder {
        let isDownload = item.spec.task.isDownload
        return CaseResolution.builder(
            api: item.api, environment: processEnvironment, request: request, isStubbed: isStubbed,
            downloadDestination: isDownload ? scratchFolder + "/download-\(index)" : nil, overwritesDownloads: isDownload)
    }

    /// The plugins every request goes through: the case's credential and the `-H` overrides.
    var plugins: [any PluginType] {
        RequestPlugins.base(headerOverrides: request.headerOverrides)
    }
}

extension ValidationType {
    /// What the validation accepts, in words: `2xx`, `2xx or 3xx`, `200 or 201`.
    var acceptedDescription: String {
        switch self {
        case .none: "any status"
        case .successCodes: "2xx"
        case .successAndRedirectCodes: "2xx or 3xx"
        case .customCodes(let codes):
            codes.count == 1 ? "\(codes[0])"
                : codes.dropLast().map(String.init).joined(separator: ", ") + " or " + String(codes[codes.count - 1])
        }
    }
}

/// Seconds elapsed since `start`, from a monotonic clock.
func secondsSince(_ start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
