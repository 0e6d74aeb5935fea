import CurlTransport
import MoyaKit
import Sending
import TargetSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a run checks: offline or live, how many at a time, how strictly, and the `Sender` every
/// request goes through (targets built, transport settings, plugins, redaction, retries, tokens),
/// so `check` sends exactly as `call` does and a Swift program can check without the command.
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
    /// How every request is built and sent.
    package let sender: Sender
    /// The sender's redactors, made once for each set of secrets.
    let redactors: RedactorCache
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
    /// Whether each live result keeps its request (method and URL, secrets redacted), which only
    /// the reports show (`--report`): without one, a sweep of 10,000 checks need not make each
    /// URL's text (a tenth of the work before the request is sent), nor keep it (0.8 MB).
    package var keepsRequests = true

    /// Creates a configuration; by default offline, 4 jobs, and `Sender`'s defaults (no retries,
    /// the transport's defaults, secrets redacted, targets built from an empty environment).
    package init(
        isLive: Bool = false, jobs: Int = 4, rate: Double? = nil, includesUnsafeMethods: Bool = false,
        isStrict: Bool = false, sender: Sender = Sender(), maximumBodySize: Int = 256 << 20, downloadsFolder: String
    ) {
        self.isLive = isLive
        self.jobs = max(1, jobs)
        self.rate = rate
        self.includesUnsafeMethods = includesUnsafeMethods
        self.isStrict = isStrict
        self.sender = sender
        redactors = RedactorCache(sender.redaction)
        self.maximumBodySize = maximumBodySize
        self.downloadsFolder = downloadsFolder
    }

    /// The plugins every request goes through.
    var plugins: [any PluginType] { sender.sendingPlugins }

    /// The redactor for what is reported about `target`.
    func redactor(_ target: DynamicTarget) -> SecretRedactor {
        redactors.redactor(for: target)
    }

    /// The builder for item `index`: a download lands in the downloads folder.
    func builder(for item: CheckItem, index: Int, isStubbed: Bool) -> TargetBuilder {
        let destination = item.spec.task.isDownload ? downloadPath(index) : nil
        return sender.targets.builder(
            for: item.api, isStubbed: isStubbed, downloadDestination: destination,
            overwritesDownloads: destination != nil)
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
