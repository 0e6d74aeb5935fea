import MoyaKit
import TargetSpec

/// Everything a check run needs from the command line, in a form worker threads may share.
struct CheckSettings: Sendable {
    var isLive: Bool
    var jobs: Int
    /// Requests started per second at most (`--rate`), or `nil`.
    var rate: Double?
    var includesUnsafeMethods: Bool
    var isStrict: Bool
    var maximumRetries: Int
    var retryPolicy: RetryPolicy
    var headerOverrides: [HeaderOverride]
    var showsSecrets: Bool
    /// Transport settings shared by every request; the timeouts come from each case unless overridden.
    var baseConfiguration: SessionConfiguration
    var timeoutOverride: Double?
    var connectTimeoutOverride: Double?
    /// The process environment `${VAR}` references read.
    var processEnvironment: [String: String]
    /// `--env NAME`.
    var environmentName: String?
    /// `--base-url URL`.
    var baseURLOverride: String?
    /// A private folder for downloads, removed when the run ends.
    var scratchFolder: String

    init(check: CheckOptions, request: RequestOptions, processEnvironment: [String: String], scratchFolder: String) {
        isLive = check.live
        jobs = check.jobs
        rate = check.rate
        includesUnsafeMethods = check.includeUnsafe
        isStrict = check.strict
        maximumRetries = request.retry
        retryPolicy = RetryPolicy(retriesAllMethods: request.retryAll)
        headerOverrides = request.headerOverrides
        showsSecrets = request.showSecrets
        baseConfiguration = SessionConfiguration(request: request)
        timeoutOverride = request.timeout
        connectTimeoutOverride = request.connectTimeout
        self.processEnvironment = processEnvironment
        environmentName = request.environment
        baseURLOverride = request.baseURL
        self.scratchFolder = scratchFolder
    }

    /// The transport settings for `target`.
    func sessionConfiguration(for target: DynamicTarget) -> SessionConfiguration {
        var configuration = baseConfiguration
        configuration.timeout = timeoutOverride ?? target.timeout
        configuration.connectTimeout = connectTimeoutOverride ?? target.connectTimeout
        return configuration
    }

    /// The redactor for what is printed about `target`.
    func redactor(for target: DynamicTarget) -> SecretRedactor {
        SecretRedactor(target: target, showsSecrets: showsSecrets)
    }

    /// The builder for `item`: downloads land in the scratch folder, never in the user's.
    func builder(for item: CheckItem, index: Int, isStubbed: Bool) -> TargetBuilder {
        let isDownload = item.spec.task.isDownload
        return TargetBuilder(
            api: item.api, processEnvironment: processEnvironment, environmentName: environmentName, baseURLOverride: baseURLOverride,
            isStubbed: isStubbed, downloadDestinationOverride: isDownload ? scratchFolder + "/download-\(index)" : nil,
            overwritesDownloads: isDownload)
    }

    /// The plugins every request goes through: the case's credential and the `-H` overrides.
    var plugins: [any PluginType] {
        RequestPlugins.base(headerOverrides: headerOverrides)
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
