import MoyaKit
import Synchronization
import TargetAuth
import TargetModel
import TargetSpec
import TextSafety

/// The tokens of `oauth2` and `command` auth for this run: one `AccessTokenProvider` per process,
/// so every request of a `check` shares one fetch, caching in `$XDG_CACHE_HOME/moya-cli`.
enum AccessTokens {
    /// `-v`: the provider's notes (a token fetched or refreshed) go to stderr.
    static let isVerbose = Atomic<Bool>(false)

    private static let shared = Mutex<AccessTokenProvider?>(nil)

    /// The run's provider, made on first use with the transport settings of `request`.
    static func provider(environment: [String: String], request: RequestOptions) -> AccessTokenProvider {
        shared.withLock { provider in
            if let provider { return provider }
            let made = makeProvider(environment: environment, request: request)
            provider = made
            return made
        }
    }

    static func makeProvider(environment: [String: String], request: RequestOptions) -> AccessTokenProvider {
        let warn: @Sendable (String) -> Void = { StandardStream.error.write("moya-cli: warning: \($0)\n") }
        let cache = TokenCacheStore.defaultFolder(environment: environment).map {
            TokenCacheStore(folder: $0, warn: warn)
        }
        if cache == nil {
            warn("neither XDG_CACHE_HOME nor HOME is an absolute path; OAuth 2.0 tokens are kept for this run only")
        }
        var session = SessionConfiguration(request: request)
        if request.timeout == nil { session.timeout = 30 }
        return AccessTokenProvider(
            cache: cache, client: OAuth2TokenClient(session: session), trust: TargetTrust(environment: environment),
            note: { note in if isVerbose.load(ordering: .relaxed) { StandardStream.error.write("* \(note)\n") } },
            announce: { command in StandardStream.error.write(announcement(of: command)) })
    }

    /// The line on stderr before a token command runs (its words as written in the file, which
    /// holds no `${VAR}` there; control characters escaped).
    static func announcement(of command: AccessTokenRequest.TokenCommand) -> String {
        let words = command.arguments.map(ShellQuoting.quotedUnlessPlainASCII).joined(separator: " ")
        return DisplayText.escaped(
            "moya-cli: running the token command of API '\(command.apiName)' (\(command.file)): \(words)") + "\n"
    }

    /// The source `curl` uses: without `--show-secrets` it fetches nothing and prints a
    /// placeholder (the token would be redacted anyway); with it, the real token.
    static func source(forCurl request: RequestOptions, environment: [String: String]) -> any AccessTokenSource {
        request.showSecrets ? provider(environment: environment, request: request) : Placeholder()
    }

    /// Hands out `<redacted>` in place of a token, fetching or running nothing.
    struct Placeholder: AccessTokenSource {
        func accessToken(for request: AccessTokenRequest, replacing rejected: String?) throws(AccessTokenError)
            -> String
        {
            SecretRedactor.defaultPlaceholder
        }
    }

    /// The exit status for a token that could not be obtained.
    static func failure(_ error: AccessTokenError) -> CommandFailure {
        CommandFailure(.credentials, error.message)
    }
}
