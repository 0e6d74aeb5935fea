import MoyaKit
import Sending
import TargetAuth
import TargetModel
import TargetSpec
import TextSafety

#if canImport(Glibc)
import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#endif

/// What `moya-cli auth API` prints: each scheme's type and, for `oauth2`, its cached token's state.
struct AuthStatus {
    var api: APISpec
    var schemes: [NamedAuthScheme]
    var environment: [String: String]
    var environmentName: String?
    var showsSecrets: Bool
    var cache: TokenCacheStore?
    var now = Date()

    init(api: APISpec, schemeName: String?, environment: [String: String], environmentName: String?, showsSecrets: Bool)
        throws
    {
        self.api = api
        self.environment = environment
        self.environmentName = environmentName
        self.showsSecrets = showsSecrets
        let warn: @Sendable (String) -> Void = { StandardStream.error.write("moya-cli: warning: \($0)\n") }
        cache = TokenCacheStore.defaultFolder(environment: environment).map { TokenCacheStore(folder: $0, warn: warn) }
        guard !api.authSchemes.isEmpty else {
            throw CommandFailure(.usage, "API '\(api.name)' has no auth (\(api.file))")
        }
        if let schemeName {
            guard let scheme = api.authSchemes.first(where: { $0.name == schemeName }) else {
                let names = api.authSchemes.map(\.name)
                let hint = Suggestion.closest(to: schemeName, in: names).map { "did you mean '\($0)'? " } ?? ""
                throw CommandFailure(
                    .usage,
                    "API '\(api.name)' has no auth scheme '\(schemeName)'; \(hint)schemes: \(names.joined(separator: ", "))"
                )
            }
            schemes = [scheme]
        } else {
            schemes = api.authSchemes
        }
    }

    /// One block per scheme.
    func render() throws -> String {
        var blocks: [String] = []
        for scheme in schemes {
            var lines = ["scheme: \(scheme.name) (\(scheme.auth.kind.rawValue))"]
            switch scheme.auth {
            case .bearer(let token), .custom(_, let token):
                lines.append("token: " + describe(token))
            case .apiKey(let location, let name, let key):
                lines.append(
                    "key: " + describe(key)
                        + " (sent as the \(location == .header ? "header" : "query parameter") \(name))")
            case .basic(let username, let password), .digest(let username, let password):
                lines.append("username: " + describe(username))
                lines.append("password: " + describe(password))
            case .command(let command):
                lines.append(
                    "command: " + command.arguments.map(ShellQuoting.quotedUnlessPlainASCII).joined(separator: " "))
                lines.append("cached: no (a command's token is kept for one run only)")
                let trust = TargetTrust(environment: environment).refusal(for: api.file)
                lines.append("trusted: " + (trust == nil ? "yes" : "no; " + trust!))
            case .oauth2(let spec):
                lines += try oauth2Lines(scheme.auth, spec: spec)
            case .awsSigV4(let spec):
                lines.append("region: " + spec.region.source + ", service: " + spec.service.source)
                lines.append("access key: " + describe(spec.accessKey))
                lines.append("secret key: " + describe(spec.secretKey))
                if let token = spec.sessionToken { lines.append("session token: " + describe(token)) }
                lines.append("signed: each request as it is sent (AWS Signature Version 4)")
            }
            blocks.append(lines.joined(separator: "\n") + "\n")
        }
        // The keys its servers may have: what the credentials are sent to (`tls:`).
        let environment = environmentName ?? api.defaultEnvironment
        let pins = api.environments.first { $0.name == environment }?.pinnedPublicKeys ?? api.pinnedPublicKeys
        if !pins.isEmpty {
            blocks.append(pins.map { "pinned public key: " + $0 + "\n" }.joined())
        }
        return blocks.joined(separator: "\n")
    }

    /// Deletes the API's cached tokens; what to print.
    func logout() -> String {
        guard let cache else { return "no token cache (neither XDG_CACHE_HOME nor HOME is set)\n" }
        let removed = cache.removeAll(apiName: api.name)
        if removed.isEmpty { return "no cached token for API '\(api.name)'\n" }
        return removed.map { "removed \($0)\n" }.joined()
    }

    private func oauth2Lines(_ auth: AuthSpec, spec: OAuth2AuthSpec) throws -> [String] {
        var lines: [String] = []
        // The cache key holds a digest of the client secret, so without the secret the file
        // cannot be named (the secret is never sent or shown).
        let builder = TargetFactory(environment: environment, environmentName: environmentName)
            .builder(for: api, isStubbed: false)
        let request: AccessTokenRequest?
        do {
            request = try builder.accessTokenRequest(for: auth)
        } catch {
            lines.append("token URL: " + spec.tokenURL.source)
            lines.append(
                "cached: unknown (a token is cached under its client secret and the base URL's origin, so both are needed: \(error.description))"
            )
            return lines
        }
        guard case .oauth2(let client)? = request else { return lines }
        let redactor = SecretRedactor(secretValues: [client.clientSecret])
        lines.append("token URL: " + redactor.redact(client.tokenURL))
        lines.append(
            "client: " + redactor.redact(client.clientID)
                + " (sent by \(client.clientAuthentication == .basic ? "HTTP Basic" : "form body"))")
        lines.append(
            "scopes: " + (client.scopes.isEmpty ? "(the client's default)" : client.scopes.joined(separator: " ")))
        let key = OAuth2CacheKey(client)
        guard let cache else {
            lines.append("cached: no (no cache folder: neither XDG_CACHE_HOME nor HOME is set)")
            return lines
        }
        guard let token = cache.load(key) else {
            lines.append("cached: no (\(cache.path(for: key)))")
            return lines
        }
        var state: String
        if let expiresAt = token.expiresAt {
            let left = expiresAt.timeIntervalSince(now)
            state =
                token.isValid(at: now)
                ? "yes, valid until \(Self.timestamp(expiresAt)) (\(Self.duration(left)) left)"
                : "yes, expired at \(Self.timestamp(expiresAt))"
                    + (token.refreshToken == nil ? "; a new one will be fetched" : "; it will be refreshed")
        } else {
            state = "yes, no expiry given (used until the API refuses it)"
        }
        lines.append("cached: " + state)
        lines.append("file: " + cache.path(for: key))
        if let scope = token.scope { lines.append("granted scopes: " + scope) }
        lines.append("refresh token: " + (token.refreshToken == nil ? "no" : "yes"))
        if showsSecrets {
            lines.append("access token: " + token.accessToken)
            if let refreshToken = token.refreshToken { lines.append("refresh token value: " + refreshToken) }
        }
        return lines
    }

    /// Where a template's value comes from, never the value: `${VAR} (set)`.
    private func describe(_ template: Template) -> String {
        let references = template.environmentReferences
        guard !references.isEmpty else { return "(literal)" }
        let view = FileEnvironment.view(for: api.file, environment: environment)
        return references.map { reference in
            let state =
                view.hidden.contains(reference.name)
                ? "set, not allowed for this untrusted file"
                : environment[reference.name] == nil ? "not set" : "set"
            return "${\(reference.name)} (\(state))"
        }.joined(separator: ", ")
    }

    /// `2026-11-25T12:00:00Z`.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// `59 min`, `2 h 5 min`, `40 s`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        if total < 60 { return "\(max(total, 0)) s" }
        if total < 3600 { return "\(total / 60) min" }
        return "\(total / 3600) h \(total % 3600 / 60) min"
    }
}
