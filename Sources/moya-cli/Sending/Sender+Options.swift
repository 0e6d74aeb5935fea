import CurlTransport
import MoyaKit
import ResponseCache
import Sending
import Synchronization
import TargetAuth
import TargetSpec
import TextSafety

extension Sender {
    /// The sender the command line's request options give, for `call`, `request` and `check`:
    /// every request option means the same in each. `override`: `--query`, `--json`, `--data`
    /// (a call's first page). A stubbed request is never retried and asks for no token.
    init(
        request: RequestOptions, environment: [String: String], isStubbed: Bool,
        override: RequestOverridePlugin? = nil
    ) {
        self.init(
            targets: TargetFactory(request: request, environment: environment, isStubbed: isStubbed),
            session: SessionConfiguration(request: request), timeout: request.timeout,
            connectTimeout: request.connectTimeout, idleTimeout: request.idleTimeout,
            redirects: request.redirectPolicy,
            plugins: RequestPlugins.base(headerOverrides: request.headerOverrides, override: override),
            redaction: Redaction(request: request),
            retry: isStubbed ? .none : RetryPolicy(maximumRetries: request.retry, retriesAllMethods: request.retryAll),
            cookies: CookieJars(request: request, environment: environment, isStubbed: isStubbed),
            prepareHooks: isStubbed ? nil : PrepareHooks.runner(environment: environment))
        if !isStubbed && !request.noCache { cache = CacheFolder.store(environment: environment) }
    }
}

/// The run's HTTP cache store, in `$XDG_CACHE_HOME/moya` (or `~/.cache/moya`); each warning once.
enum CacheFolder {
    private static let warned = Mutex<Set<String>>([])

    static func store(environment: [String: String]) -> ResponseCacheStore? {
        guard let folder = ResponseCacheStore.defaultFolder(environment: environment) else { return nil }
        return ResponseCacheStore(folder: folder) { message in
            if warned.withLock({ $0.insert(message).inserted }) {
                StandardStream.error.write("moya-cli: warning: " + DisplayText.escaped(message) + "\n")
            }
        }
    }
}

extension CookieJars {
    /// The run's cookies, with `--session`'s files; `nil` with `--no-cookies` or when stubbed
    /// (no response sets any).
    convenience init?(request: RequestOptions, environment: [String: String], isStubbed: Bool) {
        guard !request.noCookies, !isStubbed else { return nil }
        let warn: @Sendable (String) -> Void = { StandardStream.error.write("moya-cli: warning: \($0)\n") }
        guard let name = request.session else {
            self.init()
            return
        }
        guard let root = SessionFiles.defaultRoot(environment: environment) else {
            warn(
                "neither XDG_STATE_HOME nor HOME is an absolute path; the session's cookies are kept for this run only")
            self.init()
            return
        }
        self.init(session: SessionFiles(root: root, name: name, warn: warn))
    }
}

extension TargetFactory {
    /// The factory of `--env`, `--base-url` and, unless stubbed, the run's token provider.
    init(request: RequestOptions, environment: [String: String], isStubbed: Bool) {
        self.init(
            environment: environment, environmentName: request.environment, baseURLOverride: request.baseURL,
            accessTokens: isStubbed ? nil : AccessTokens.provider(environment: environment, request: request))
        cacheOverride = request.noCache ? false : request.cache ? true : nil
    }
}

extension Redaction {
    /// What `request`'s options add: `--show-secrets`, the passwords in `--proxy` and `--base-url`,
    /// and `--cert-pass`.
    init(request: RequestOptions) {
        self.init(
            runSecrets: [request.proxy, request.baseURL].compactMap { $0 }.flatMap {
                SecretRedactor.userinfoPasswords(in: $0)
            } + [request.certPass].compactMap { $0 }.filter { !$0.isEmpty }, showsSecrets: request.showSecrets)
    }
}

/// The `prepare` programs of this run: one runner per process, which runs a program only from a
/// trusted file and says so on stderr before a program first runs.
enum PrepareHooks {
    private static let shared = Mutex<PrepareHookRunner?>(nil)

    static func runner(environment: [String: String]) -> PrepareHookRunner {
        shared.withLock { runner in
            if let runner { return runner }
            let made = PrepareHookRunner(
                trust: TargetTrust(environment: environment),
                announce: { hook in StandardStream.error.write(announcement(of: hook)) })
            runner = made
            return made
        }
    }

    /// The line on stderr before a `prepare` program first runs (its words as written in the file).
    static func announcement(of hook: PrepareHook) -> String {
        let words = hook.arguments.map(ShellQuoting.quotedUnlessPlainASCII).joined(separator: " ")
        return DisplayText.escaped(
            "moya-cli: running the prepare program of API '\(hook.apiName)' (\(hook.file)) for each request: \(words)")
            + "\n"
    }
}
