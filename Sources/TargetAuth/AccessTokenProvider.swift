import MoyaKit
import Synchronization
import TargetSpec

/// The `AccessTokenSource` of moya-cli: OAuth 2.0 tokens from memory, then the on-disk cache,
/// then the token endpoint (refreshing with a refresh token when there is one); command tokens
/// from the command, kept for the run only.
///
/// One provider serves a whole run (every request of a `check`), so a token is fetched once. A
/// lock serialises fetching: requests needing a token at the same time wait for the one fetch.
package final class AccessTokenProvider: AccessTokenSource {
    /// Where tokens are kept between runs; `nil` keeps them for the run only.
    package let cache: TokenCacheStore?
    package let client: OAuth2TokenClient
    package let commands: TokenCommandRunner
    package let trust: TargetTrust
    /// Notes for the user (a token fetched, a cache file ignored), or nothing.
    package let note: @Sendable (String) -> Void
    /// Told, before it runs, of each token command: a program a target file runs is never run
    /// silently. Once per command and run.
    package let announce: @Sendable (AccessTokenRequest.TokenCommand) -> Void

    private struct Memory {
        var oauth2: [OAuth2CacheKey: OAuth2Token] = [:]
        var commands: [AccessTokenRequest.TokenCommand: String] = [:]
        /// Requests that failed this run: asked again, they fail the same way without another
        /// trip to the token endpoint or command (a `check` of a thousand cases asks once).
        var failures: [AccessTokenRequest: AccessTokenError] = [:]
        var announced: Set<AccessTokenRequest.TokenCommand> = []
    }
    private let memory = Mutex(Memory())

    /// Creates a provider.
    package init(
        cache: TokenCacheStore?, client: OAuth2TokenClient = OAuth2TokenClient(),
        commands: TokenCommandRunner = TokenCommandRunner(),
        trust: TargetTrust, note: @escaping @Sendable (String) -> Void = { _ in },
        announce: @escaping @Sendable (AccessTokenRequest.TokenCommand) -> Void = { _ in }
    ) {
        self.announce = announce
        self.cache = cache
        self.client = client
        self.commands = commands
        self.trust = trust
        self.note = note
    }

    package func accessToken(for request: AccessTokenRequest, replacing rejected: String?) throws(AccessTokenError)
        -> String
    {
        try memory.withLock { memory throws(AccessTokenError) -> String in
            if let failure = memory.failures[request] { throw failure }
            do throws(AccessTokenError) {
                return try token(for: request, replacing: rejected, memory: &memory)
            } catch {
                memory.failures[request] = error
                throw error
            }
        }
    }

    private func token(for request: AccessTokenRequest, replacing rejected: String?, memory: inout Memory)
        throws(AccessTokenError) -> String
    {
        switch request {
        case .oauth2(let client):
            return try oauth2Token(for: client, replacing: rejected, memory: &memory).accessToken
        case .command(let command):
            if let token = memory.commands[command], token != rejected { return token }
            if let refusal = trust.refusal(for: command.file) {
                throw AccessTokenError(
                    .notAllowed,
                    "not running the token command '\(command.arguments[0])' of API '\(command.apiName)': "
                        + "moya-cli runs a token command only from a target file you trust, and \(command.file) is not trusted: "
                        + refusal + " (see SECURITY in moya-cli(1))")
            }
            if memory.announced.insert(command).inserted { announce(command) }
            let token = try commands.token(for: command)
            note("ran the token command '\(command.arguments[0])' of API '\(command.apiName)'")
            memory.commands[command] = token
            return token
        }
    }

    private func oauth2Token(
        for client: AccessTokenRequest.OAuth2Client, replacing rejected: String?,
        memory: inout Memory
    ) throws(AccessTokenError) -> OAuth2Token {
        let key = OAuth2CacheKey(client)
        let now = self.client.now()
        let inMemory = memory.oauth2[key]
        var known = inMemory ?? cache?.load(key)
        if let token = known, token.accessToken != rejected, token.isValid(at: now) {
            if inMemory == nil, let cache {
                note("using the access token of API '\(client.apiName)' cached in \(cache.path(for: key))")
            }
            memory.oauth2[key] = token
            return token
        }
        if let token = known, token.accessToken == rejected || !token.isValid(at: now) {
            // Never hand out the refused or expired token again, even if what follows fails.
            memory.oauth2[key] = nil
            cache?.remove(key)
            known = token
        }
        var fresh: OAuth2Token?
        if let refreshToken = known?.refreshToken {
            do {
                var token = try self.client.token(for: client, grant: .refreshToken(refreshToken))
                // RFC 6749 §6: the server may keep the refresh token rather than issue a new one.
                if token.refreshToken == nil { token.refreshToken = refreshToken }
                fresh = token
                note("refreshed the access token of API '\(client.apiName)' at \(client.tokenURL)")
            } catch  where error.kind == .refused {
                note("the refresh token of API '\(client.apiName)' was refused; asking for a new token")
            }
        }
        let token: OAuth2Token
        if let fresh {
            token = fresh
        } else {
            token = try self.client.token(for: client, grant: .clientCredentials)
            note("fetched an access token for API '\(client.apiName)' from \(client.tokenURL)")
        }
        if let rejected, token.accessToken == rejected {
            throw AccessTokenError(
                .refused, "the token endpoint \(client.tokenURL) handed out the token the API just refused")
        }
        memory.oauth2[key] = token
        cache?.save(token, for: key)
        return token
    }
}
