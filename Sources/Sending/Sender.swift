import CurlTransport
import MoyaKit
import ResponseCache
import TargetModel
import TargetSpec

/// How every request of a run is sent, as one value: the targets built (`TargetFactory`), the
/// transport settings, the plugins, what is redacted, the retries and the token renewed after a
/// 401, the cookies kept. `call` sends through it on a latch, `check` through a shared provider pool with callbacks;
/// both hand each request's `SendingState` to MoyaKit as its interceptor (`SendingInterceptor`), so a
/// rule about sending lives here once, and the retry rule in MoyaKit's `RetryPolicy`.
package struct Sender: Sendable {
    /// Where the run's targets are built.
    package var targets: TargetFactory
    /// The transport settings; a target's own timeouts unless `timeout`/`connectTimeout` are set.
    package var session: SessionConfiguration
    /// `--timeout`, over the case's.
    package var timeout: Double?
    /// `--connect-timeout`, over the API's.
    package var connectTimeout: Double?
    /// `--idle-timeout`, over the case's.
    package var idleTimeout: Double?
    /// `--no-follow`, `--max-redirects`, over the case's `redirects:`.
    package var redirects: RedirectPolicy?
    /// The plugins every request goes through.
    package var plugins: [any PluginType]
    /// What is hidden in what is printed.
    package var redaction: Redaction
    /// `--retry`, `--retry-all`.
    package var retry: RetryPolicy
    /// The run's cookies, a store per API; `nil` with `--no-cookies`.
    package var cookies: CookieJars?
    /// Runs the `prepare` programs of trusted files; `nil`: a request whose file names one fails.
    package var prepareHooks: (any PrepareHookRunning)?
    /// The HTTP cache's store; `nil` with `--no-cache` or without a usable folder.
    package var cache: ResponseCacheStore?
    /// What the cache did for each response.
    package var cacheLedger = CacheLedger()
    /// `-v`'s cache notes.
    package var cacheNote: (@Sendable (String) -> Void)?

    /// Creates a sender; by default it builds from an empty environment, with the transport's
    /// defaults, no plugins, secrets redacted, no retries.
    package init(
        targets: TargetFactory = TargetFactory(environment: [:]),
        session: SessionConfiguration = SessionConfiguration(),
        timeout: Double? = nil, connectTimeout: Double? = nil, idleTimeout: Double? = nil,
        redirects: RedirectPolicy? = nil, plugins: [any PluginType] = [],
        redaction: Redaction = Redaction(), retry: RetryPolicy = .none, cookies: CookieJars? = CookieJars(),
        prepareHooks: (any PrepareHookRunning)? = nil
    ) {
        self.prepareHooks = prepareHooks
        self.targets = targets
        self.session = session
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
        self.redirects = redirects
        self.plugins = plugins
        self.redaction = redaction
        self.retry = retry
        self.cookies = cookies
    }

    /// The plugins every request goes through, the one that keeps `--session`'s cookies, and last
    /// the one that prepares each request as it goes out (`{$uuid}`, `prepare`, SigV4).
    package var sendingPlugins: [any PluginType] {
        plugins + (cookies?.sessionPlugin.map { [$0] } ?? []) + [
            ResponseCachePlugin(store: cache, ledger: cacheLedger, note: cacheNote),
            RequestPreparationPlugin(hooks: prepareHooks)
        ]
    }

    /// The transport settings for `target`: its timeouts and redirect policy unless overridden,
    /// its API's cookie store unless cookies are off (`--no-cookies`, or its file's `cookies:
    /// false`), its file's public key pins unless `--pinned-pubkey` gives others, and its
    /// environment's `resolve:` under `--resolve`'s.
    package func sessionConfiguration(for target: DynamicTarget) -> SessionConfiguration {
        var configuration = session
        configuration.timeout = timeout ?? target.timeout ?? 0
        configuration.idleTimeout = idleTimeout ?? target.idleTimeout
        configuration.connectTimeout = connectTimeout ?? target.connectTimeout
        configuration.apply(redirects ?? target.redirects)
        configuration.cookieStore = target.keepsCookies ? cookies?.store(for: target.apiName) : nil
        // `--pinned-pubkey` replaces the file's pins: the command line is the user's.
        if configuration.pinnedPublicKeys.isEmpty { configuration.pinnedPublicKeys = target.pinnedPublicKeys }
        // A trusted file's `tls:` files, under `--crlfile` and `--cert`/`--key`'s.
        TLSFileSettings.apply(target.tlsFiles, to: &configuration)
        // `--resolve` last: libcurl's later entry for a host and port replaces an earlier one.
        configuration.resolve = target.resolve + configuration.resolve
        return configuration
    }

    /// The state of sending `target`: what to do after each answer.
    package func sending(_ target: DynamicTarget, retry: RetryPolicy? = nil) -> SendingState {
        SendingState(target: target, retry: retry ?? self.retry, accessTokens: targets.accessTokens)
    }
}

extension SessionConfiguration {
    /// Follows redirects as `policy` says.
    package mutating func apply(_ policy: RedirectPolicy) {
        followRedirects = policy.follows
        maximumRedirects = policy.maximumRedirects
    }
}

/// A trusted file's `tls: {crlFile, clientCert, clientKey}` in the transport settings, unless the
/// command line gives its own (`--crlfile`; `--cert` with its `--key`): the one place both the
/// sender and `moya-cli curl` take them from.
package enum TLSFileSettings {
    package static func apply(_ files: APISpec.TLSFiles, to configuration: inout SessionConfiguration) {
        if configuration.revocationListFile == nil { configuration.revocationListFile = files.crlFile }
        if configuration.clientCertificateFile == nil, let certificate = files.clientCertificate {
            configuration.clientCertificateFile = certificate
            configuration.clientKeyFile = files.clientKey
            configuration.clientCertificateType = SessionConfiguration.certificateType(forFile: certificate)
        }
    }
}
