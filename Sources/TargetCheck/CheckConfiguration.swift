import CurlTransport
import MoyaKit
import TargetSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a run checks: offline or live, how many at a time, how strictly — and, as closures, what
/// the caller decides about each request (transport settings, builder, redaction, retries), so
/// `check` builds requests exactly as `call` does and a Swift program can check without it.
package struct CheckConfiguration: Sendable {
    /// Whether requests are sent (`--live`) rather than answered from samples.
    package var isLive: Bool
    /// How many items are checked at a time (1 to 256).
    package var jobs: Int
    /// Requests started per second at most, or `nil`.
    package var rate: Double?
    /// Whether live checks send methods that are not safe (POST, PUT, PATCH, DELETE).
    package var includesUnsafeMethods: Bool
    /// Whether keys the sample does not have count as drift.
    package var isStrict: Bool
    /// How many times a live request may be sent again.
    package var maximumRetries: Int
    /// How long to wait before attempt `attempt + 1` after `result`, or `nil` not to retry.
    package var retryDelay:
        @Sendable (_ result: Result<Response, MoyaError>, _ attempt: Int, _ method: String) -> Double?
    /// The transport settings for a target.
    package var sessionConfiguration: @Sendable (DynamicTarget) -> SessionConfiguration
    /// The redactor for what is reported about a target.
    package var redactor: @Sendable (DynamicTarget) -> SecretRedactor
    /// The builder for `item`, stubbed or not, whose downloads (if the case is a download) go
    /// to `downloadDestination`, never to the user's folder.
    package var builder:
        @Sendable (_ item: CheckItem, _ isStubbed: Bool, _ downloadDestination: String?) -> TargetBuilder
    /// The plugins every request goes through.
    package var plugins: [any PluginType]
    /// A target with a new token in place of the one refused with 401 (`oauth2` and `command`
    /// auth), or `nil` when it has none; each request is renewed at most once. `nil`: never.
    package var renewingAccessToken: (@Sendable (DynamicTarget) throws(AccessTokenError) -> DynamicTarget?)?
    /// The most a body kept for a shape comparison may take, in bytes.
    package var maximumBodySize: Int
    /// A private folder download cases write into; each item's file is removed once checked.
    package var downloadsFolder: String
    /// Whether paginated cases are followed past their first page (`--all`).
    package var followsPages = false
    /// Whether each live result keeps its response (`--record`), and so every body is read (up to
    /// `maximumBodySize`).
    package var recordsResponses = false
    /// The most pages followed per check (`--max-pages`); more fails the check.
    package var maximumPages = 100

    /// Creates a configuration; by default offline, 4 jobs, no retries, MoyaKit's transport
    /// defaults, secrets redacted, and each item's API built from the process environment.
    package init(
        isLive: Bool = false, jobs: Int = 4, rate: Double? = nil, includesUnsafeMethods: Bool = false,
        isStrict: Bool = false,
        maximumRetries: Int = 0,
        retryDelay: @escaping @Sendable (Result<Response, MoyaError>, Int, String) -> Double? = { _, _, _ in nil },
        sessionConfiguration: @escaping @Sendable (DynamicTarget) -> SessionConfiguration = { _ in
            SessionConfiguration()
        },
        redactor: @escaping @Sendable (DynamicTarget) -> SecretRedactor = {
            SecretRedactor(secretValues: $0.secretValues)
        },
        builder: @escaping @Sendable (CheckItem, Bool, String?) -> TargetBuilder = { item, isStubbed, destination in
            TargetBuilder(
                api: item.api, processEnvironment: [:], isStubbed: isStubbed, downloadDestinationOverride: destination,
                overwritesDownloads: destination != nil)
        },
        plugins: [any PluginType] = [], maximumBodySize: Int = 256 << 20, downloadsFolder: String,
        renewingAccessToken: (@Sendable (DynamicTarget) throws(AccessTokenError) -> DynamicTarget?)? = nil
    ) {
        self.renewingAccessToken = renewingAccessToken
        self.isLive = isLive
        self.jobs = max(1, jobs)
        self.rate = rate
        self.includesUnsafeMethods = includesUnsafeMethods
        self.isStrict = isStrict
        self.maximumRetries = maximumRetries
        self.retryDelay = retryDelay
        self.sessionConfiguration = sessionConfiguration
        self.redactor = redactor
        self.builder = builder
        self.plugins = plugins
        self.maximumBodySize = maximumBodySize
        self.downloadsFolder = downloadsFolder
    }

    /// The builder for item `index`: a download lands in the downloads folder.
    func builder(for item: CheckItem, index: Int, isStubbed: Bool) -> TargetBuilder {
        builder(item, isStubbed, item.spec.task.isDownload ? downloadPath(index) : nil)
    }

    /// Where item `index` downloads to, if it is a download.
    func downloadPath(_ index: Int) -> String {
        downloadsFolder + "/download-\(index)"
    }
}

extension ValidationType {
    /// What the validation accepts, in words: `2xx`, `2xx or 3xx`, `200 or 201`.
    var acceptedDescription: String {
        switch self {
        case .none: "any status"
        case .successCodes: "2xx"
        case .successAndRedirectCodes: "2xx or 3xx"
        case .customCodes(let codes) where codes.isEmpty: "any status"
        case .customCodes(let codes):
            codes.count == 1
                ? "\(codes[0])"
                : codes.dropLast().map(String.init).joined(separator: ", ") + " or " + String(codes[codes.count - 1])
        }
    }
}

/// Seconds elapsed since `start`, from a monotonic clock.
func secondsSince(_ start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

extension DynamicTarget {
    /// The URL as sent, query included (two examples of a case differ there), for reports.
    ///
    /// Only a task with URL parameters changes the URL; for any other, the URL is `url` as the
    /// request would parse it, without building the whole request (headers, body) to read it
    /// back: that was a tenth of an offline check.
    var displayURL: String {
        switch task {
        case .requestPlain, .requestData, .requestJSONEncodable, .requestCustomJSONEncodable, .uploadFile,
            .uploadMultipart,
            .downloadDestination:
            return Self.parsedURL(url)
        case .requestCompositeData(_, let query) where query.isEmpty:
            return Self.parsedURL(url)
        default:
            return (try? endpoint.urlRequest().url?.absoluteString) ?? url
        }
    }

    /// `text` as `Endpoint.urlRequest()` parses it (a URL with a scheme), else as it is.
    private static func parsedURL(_ text: String) -> String {
        guard let parsed = URL(string: text), parsed.scheme != nil else { return text }
        return parsed.absoluteString
    }
}
