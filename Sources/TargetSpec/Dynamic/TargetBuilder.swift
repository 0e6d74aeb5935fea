import MoyaKit
import Synchronization
import TargetModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Builds a `DynamicTarget` from a case of a loaded API and bound arguments.
///
/// Everything that depends on the world outside the file happens here, not at load time:
/// `${VAR}` lookups, the chosen environment, files read for bodies and samples.
public struct TargetBuilder: Sendable {
    /// The API the case belongs to.
    public var api: APISpec
    /// The process environment `${VAR}` references read: what the file may see of it
    /// (`EnvironmentAllowance.view(of:isTrusted:)`).
    public var processEnvironment: [String: String]
    /// Variables set in the process but hidden from the file, so an error can say why.
    public var hiddenVariableNames: Set<String> = []
    /// Told the name of each hidden variable whose `${VAR:-fallback}` is used instead, each time
    /// one is rendered (the caller says it once).
    public var hiddenFallbackNotice: (@Sendable (String) -> Void)?
    /// `--env NAME`; `nil` uses the API's `defaultEnvironment`, if any.
    public var environmentName: String?
    /// `--base-url URL`, replacing the API's, the environment's and every case's own: the command
    /// line wins.
    public var baseURLOverride: String?
    /// Whether the request will be stubbed: then an unset variable used only by `auth` is no
    /// error (no credential is needed to answer from sample data) and the header is left out.
    public var isStubbed: Bool
    /// `--output FILE` for download tasks, replacing the case's destination.
    public var downloadDestinationOverride: String?
    /// Whether an existing download destination may be replaced (`--force`).
    public var overwritesDownloads: Bool
    /// Whether a `file` value typed on the command line may name a stream — `-` (standard
    /// input), a FIFO, `/dev/stdin` — for an `upload` or a multipart part that is that value
    /// alone: read as it is sent, chunked, with no size. Never a path a target file writes, nor
    /// an example's value. Set by the commands whose values come from the command line.
    public var streamsCommandLineFiles = false
    /// Where the tokens of `oauth2` and `command` auth come from; `nil` makes such a case fail
    /// to build (unless stubbed).
    public var accessTokens: (any AccessTokenSource)?
    /// `-u` or `--bearer`: sent instead of the file's auth (see `CommandLineCredential`).
    package var credentialOverride: CommandLineCredential?
    /// `--cache` (`true`) or `--no-cache` (`false`), over the file's `cache:`; `nil`: as the file says.
    public var cacheOverride: Bool?
    /// Whether the API's file is trusted (`TargetTrust`): only then are its `tls:` files used; a
    /// live request from an untrusted file that names them fails to build.
    public var isTrustedFile = false

    /// Creates a builder.
    public init(
        api: APISpec, processEnvironment: [String: String], environmentName: String? = nil,
        baseURLOverride: String? = nil,
        isStubbed: Bool = false, downloadDestinationOverride: String? = nil, overwritesDownloads: Bool = false,
        accessTokens: (any AccessTokenSource)? = nil
    ) {
        self.accessTokens = accessTokens
        self.api = api
        self.processEnvironment = processEnvironment
        self.environmentName = environmentName
        self.baseURLOverride = baseURLOverride
        self.isStubbed = isStubbed
        self.downloadDestinationOverride = downloadDestinationOverride
        self.overwritesDownloads = overwritesDownloads
    }

    /// Builds the target for `spec` with `arguments` (bound by `ArgumentBinder`) and the sample named
    /// `sampleName` (default: the case's first).
    public func target(for spec: CaseSpec, arguments: [String: ArgumentValue], sampleName: String? = nil)
        throws(TargetBuildError) -> DynamicTarget
    {
        let (environment, variables) = try selectedEnvironmentAndVariables()
        var context = renderContext(for: spec, arguments: arguments, variables: variables)
        let baseURL = try self.baseURL(in: environment, caseBaseURL: spec.baseURL, context: &context)

        var headers: [(name: String, value: String)] = []
        var sensitiveHeaderNames = api.sensitiveHeaders
        // The API's headers, the environment's, the case's: a later one replaces an earlier one
        // of the same name (compared without case).
        for level in [api.headers, environment?.headers ?? [], spec.headers] {
            for header in level {
                // An optional value not given leaves its header out (an API-wide one of that name stays).
                if context.leavesOut(header.value) { continue }
                let value = try context.render(header.value)
                try HeaderLine.check(value, field: "header '\(header.name)'")
                headers.removeAll { Self.sameHeaderName($0.name, header.name) }
                headers.append((header.name, value))
                if header.value.containsSecret { sensitiveHeaderNames.insert(header.name.lowercased()) }
            }
        }

        // A response header a secret capture reads is as secret as a request's credential.
        for capture in spec.captures where capture.isSecret {
            if case .header(let name) = capture.source { sensitiveHeaderNames.insert(name.lowercased()) }
        }

        if spec.task.sendsJSONBody, !headers.contains(where: { Self.sameHeaderName($0.name, "content-type") }) {
            headers.append(("Content-Type", "application/json"))
        }

        let (authorizationType, credential, accessTokenRequest) = try authorization(
            for: spec, baseURL: baseURL, context: &context)
        let digestCredential = try digestCredential(for: spec, context: &context)
        var apiKeyQuery: (name: String, value: String)?
        if let (location, name, key) = try apiKey(for: spec, context: &context) {
            switch location {
            case .header:
                headers.removeAll { Self.sameHeaderName($0.name, name) }
                headers.append((name, key))
                sensitiveHeaderNames.insert(name.lowercased())
            case .query:
                apiKeyQuery = (name, key)
            }
        }
        let task = try TaskConverter(
            context: context, method: spec.method, downloadDestinationOverride: downloadDestinationOverride,
            overwritesDownloads: overwritesDownloads
        ).task(for: spec.task)
        let (name, sample) = try renderedSample(of: spec, named: sampleName, context: context)
        let awsSigV4 = try awsSigV4Credential(for: spec, context: &context)
        var preparation = RequestPreparation(awsSigV4: awsSigV4)
        // A stub is never sent: nothing is run for it.
        if !isStubbed, let command = api.prepareCommand {
            preparation.hook = PrepareHook(
                apiName: api.name, arguments: command.arguments, timeout: command.timeout, file: api.file)
        }

        var target = DynamicTarget(
            DynamicTarget.Fields(
                apiName: api.name,
                caseName: spec.name,
                arguments: arguments,
                baseURL: baseURL,
                path: try context.render(spec.path, escaping: .pathSegment),
                method: MoyaKit.Method(rawValue: spec.method) ?? .get,
                task: task,
                orderedHeaders: headers,
                validationType: Self.validationType(spec.validation ?? api.validation ?? .unwritten),
                sample: sample,
                sampleName: name,
                timeout: spec.timeout ?? api.timeout,
                connectTimeout: api.connectTimeout,
                authorizationType: authorizationType,
                credential: credential,
                secretValues: context.secretValues.filter { !$0.isEmpty },
                sensitiveHeaderNames: sensitiveHeaderNames,
                accessTokenRequest: accessTokenRequest,
                apiKeyQuery: apiKeyQuery,
                keepsCookies: api.keepsCookies,
                digestCredential: digestCredential,
                pinnedPublicKeys: (try? selectedEnvironment())??.pinnedPublicKeys ?? api.pinnedPublicKeys,
                resolve: (try? selectedEnvironment())??.resolve ?? [],
                streamedFilePaths: streamsCommandLineFiles ? StreamedFile.paths(in: task) : [],
                idleTimeout: spec.idleTimeout ?? api.idleTimeout,
                redirects: spec.redirects ?? api.redirects ?? .follow
            ))
        if !preparation.isEmpty { target.preparation = preparation }
        if !isStubbed && !task.downloadsFile { target.usesCache = cacheOverride ?? spec.usesCache ?? api.usesCache }
        if !isStubbed && !api.tlsFiles.isEmpty {
            // A client certificate is a credential, and a file chooses where requests go: an
            // untrusted file could send the user's identity anywhere, or probe their files.
            guard isTrustedFile else { throw TargetBuildError.untrustedTLSFiles(file: api.file) }
            let inFolder = { (path: String?) in
                path.map { $0.hasPrefix("/") ? $0 : api.directory + "/" + $0 }
            }
            target.tlsFiles = APISpec.TLSFiles(
                crlFile: inFolder(api.tlsFiles.crlFile), clientCertificate: inFolder(api.tlsFiles.clientCertificate),
                clientKey: inFolder(api.tlsFiles.clientKey))
            // libcurl would block on a FIFO (or read a device forever): regular files only, unopened.
            for path in [target.tlsFiles.crlFile, target.tlsFiles.clientCertificate, target.tlsFiles.clientKey] {
                if let path { try RegularFile.check(path) }
            }
        }
        return target
    }

    /// The SigV4 credential of the case's auth, when it is `awsSigV4` (and no `-u`/`--bearer`
    /// replaces it); as for the other credentials, a stub does without it when a variable is unset.
    private func awsSigV4Credential(for spec: CaseSpec, context: inout RenderContext) throws(TargetBuildError)
        -> AWSSigV4Credential?
    {
        guard credentialOverride == nil, case .awsSigV4(let auth)? = api.auth(for: spec.auth) else { return nil }
        do throws(TargetBuildError) {
            let region = try context.renderWithoutRecording(auth.region)
            let service = try context.renderWithoutRecording(auth.service)
            for (name, text) in [("region", region), ("service", service)]
            where !TargetFileValidator.isSigV4ScopeWord(text) {
                throw TargetBuildError.accessToken(
                    AccessTokenError(
                        .notAllowed, "the SigV4 \(name) '\(text)' is not a word of letters, digits and '-'"))
            }
            var sessionToken: String?
            if let template = auth.sessionToken { sessionToken = try context.renderSecret(template) }
            let credential = AWSSigV4Credential(
                region: region, service: service, accessKey: try context.renderSecret(auth.accessKey),
                secretKey: try context.renderSecret(auth.secretKey), sessionToken: sessionToken)
            try HeaderLine.check(credential.accessKey, field: "the SigV4 access key")
            if let token = credential.sessionToken { try HeaderLine.check(token, field: "the SigV4 session token") }
            return credential
        } catch {
            if isStubbed { return nil }
            throw error
        }
    }

    /// `built` answering with the sample named `sampleName` (default: the case's first) instead:
    /// the target `target(for:arguments:sampleName:)` builds, without building the rest again.
    /// `built` must come from this builder for `spec` and `arguments`. (A sample is rendered
    /// without recording secrets, so nothing else of the target depends on which sample it is.)
    public func target(
        _ built: DynamicTarget, answeringWith sampleName: String?, for spec: CaseSpec,
        arguments: [String: ArgumentValue]
    ) throws(TargetBuildError) -> DynamicTarget {
        let (_, variables) = try selectedEnvironmentAndVariables()
        let context = renderContext(for: spec, arguments: arguments, variables: variables)
        let (name, sample) = try renderedSample(of: spec, named: sampleName, context: context)
        var resampled = built
        resampled.sample = sample
        resampled.sampleName = name
        return resampled
    }

    /// The sample named `sampleName` (default: the case's first) rendered with `arguments`, as a
    /// stubbed target answers it, without building the request: `serve` answers with it.
    package func renderedSample(of spec: CaseSpec, named sampleName: String?, arguments: [String: ArgumentValue])
        throws(TargetBuildError) -> (name: String, sample: RenderedSample)
    {
        let (_, variables) = try selectedEnvironmentAndVariables()
        let context = renderContext(for: spec, arguments: arguments, variables: variables)
        return try renderedSample(of: spec, named: sampleName, context: context)
    }

    /// The base URL a request of `spec` goes to (`--base-url`, the case's own, the environment's
    /// or the API's), checked as a request's is: `serve` routes under its path.
    package func baseURL(for spec: CaseSpec) throws(TargetBuildError) -> URL {
        let (environment, variables) = try selectedEnvironmentAndVariables()
        var context = renderContext(for: spec, arguments: [:], variables: variables)
        return try baseURL(in: environment, caseBaseURL: spec.baseURL, context: &context)
    }

    /// What a case's templates render with: its arguments, the process environment, the selected
    /// environment's variables, and which of its values are optional.
    private func renderContext(for spec: CaseSpec, arguments: [String: ArgumentValue], variables: [String: String])
        -> RenderContext
    {
        var context = RenderContext(
            api: api, arguments: arguments, environment: processEnvironment, variables: variables,
            optionalNames: Set(spec.values.filter(\.isOptional).map(\.name)))
        context.hiddenVariableNames = hiddenVariableNames
        context.hiddenFallbackNotice = hiddenFallbackNotice
        context.streamsCommandLineFiles = streamsCommandLineFiles
        return context
    }

    /// Whether two header names are the same name: `a.lowercased() == b.lowercased()`, compared
    /// byte by byte when both are ASCII (header names are tokens, so they are) without making
    /// two lowercased copies for every pair a target's headers are compared in.
    static func sameHeaderName(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        let ascii: Bool? = a.withUTF8 { left in
            b.withUTF8 { right -> Bool? in
                guard left.count == right.count else {
                    return left.allSatisfy { $0 < 0x80 } && right.allSatisfy { $0 < 0x80 } ? false : nil
                }
                for index in left.indices {
                    let (x, y) = (left[index], right[index])
                    guard x < 0x80, y < 0x80 else { return nil }
                    if x != y && x | 0x20 != y | 0x20 { return false }
                    if x != y && !((x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z")) { return false }
                }
                return true
            }
        }
        return ascii ?? (a.lowercased() == b.lowercased())
    }

    /// What `auth` (an `oauth2` or `command` scheme of the API) asks for, its references resolved
    /// as a request would resolve them, without obtaining a token; `nil` for other auth types.
    /// For `moya-cli auth`, which shows a token's status.
    public func accessTokenRequest(for auth: AuthSpec) throws(TargetBuildError) -> AccessTokenRequest? {
        switch auth {
        case .bearer, .basic, .digest, .custom, .apiKey, .awsSigV4: return nil
        case .oauth2, .command: break
        }
        let (environment, variables) = try selectedEnvironmentAndVariables()
        var context = RenderContext(api: api, arguments: [:], environment: processEnvironment, variables: variables)
        context.hiddenVariableNames = hiddenVariableNames
        context.hiddenFallbackNotice = hiddenFallbackNotice
        let baseURL = try self.baseURL(in: environment, context: &context)
        return try accessTokenRequest(for: auth, baseURL: baseURL, context: &context)
    }

    /// The base URL: `--base-url`, else the case's own, else the environment's or the API's
    /// rendered, checked with the loader's rules (`${VAR}` or --base-url could make it anything).
    /// A secret in it (a host, a user's password) stays out of the message.
    private func baseURL(
        in environment: EnvironmentSpec?, caseBaseURL: Template? = nil, context: inout RenderContext
    ) throws(TargetBuildError) -> URL {
        var text = baseURLOverride ?? ""
        if baseURLOverride == nil { text = try context.render(caseBaseURL ?? environment?.baseURL ?? api.baseURL) }
        switch Self.checkedBaseURL(text) {
        case .success(let url): return url
        case .failure(let problem):
            throw .invalidBaseURL(SecretRedactor(secretValues: context.secretValues).redact(problem.message))
        }
    }

    /// Why a base URL text was refused.
    private struct BaseURLProblem: Error {
        var message: String
    }

    /// The base URLs checked so far, by text. `check` builds a target (or several) for every case
    /// of an API, nearly always from the same base URL text, and the check (Unicode properties,
    /// two URL parses) cost a tenth of an offline check of 10,000 cases. The answer depends on
    /// the text alone; bounded, so base URLs made from values cannot grow it without end.
    private static let checkedBaseURLs = Mutex<[String: Result<URL, BaseURLProblem>]>([:])
    private static let checkedBaseURLLimit = 64

    /// `text` as a base URL, or what is wrong with it (unredacted: the caller redacts).
    private static func checkedBaseURL(_ text: String) -> Result<URL, BaseURLProblem> {
        if let known = checkedBaseURLs.withLock({ $0[text] }) { return known }
        let result: Result<URL, BaseURLProblem>
        if let problem = BaseURLCheck.problem(in: text) {
            result = .failure(BaseURLProblem(message: problem))
        } else if let url = URL(string: text) {
            result = .success(url)
        } else {
            result = .failure(BaseURLProblem(message: "baseURL '\(text)' is not a valid URL"))
        }
        checkedBaseURLs.withLock { cache in
            if cache.count >= checkedBaseURLLimit { cache.removeAll() }
            cache[text] = result
        }
        return result
    }

    /// The selected environment and its `variables`, resolved.
    private func selectedEnvironmentAndVariables() throws(TargetBuildError) -> (EnvironmentSpec?, [String: String]) {
        let environment = try selectedEnvironment()
        do {
            let variables = try environment?.resolvedVariables(processEnvironment: processEnvironment) ?? [:]
            if let hiddenFallbackNotice, let environment {
                for variable in environment.variables {
                    Template.noteHiddenFallbacks(
                        of: variable.value, hidden: hiddenVariableNames, variables: [:], notice: hiddenFallbackNotice)
                }
            }
            return (environment, variables)
        } catch {
            throw .render(
                error.notingHidden(hiddenVariableNames, referenced: api.environmentVariables, file: api.file),
                file: api.file)
        }
    }

    private func selectedEnvironment() throws(TargetBuildError) -> EnvironmentSpec? {
        guard let name = environmentName ?? api.defaultEnvironment else { return nil }
        do {
            return try api.environment(named: name)
        } catch {
            throw .lookup(error)
        }
    }

    private func authorization(for spec: CaseSpec, baseURL: URL, context: inout RenderContext)
        throws(TargetBuildError) -> (AuthorizationType?, String?, AccessTokenRequest?)
    {
        if let credentialOverride {
            context.secretValues += credentialOverride.secretValues
            switch credentialOverride {
            case .basic(let user, let password): return (.basic, Self.base64("\(user):\(password)"), nil)
            case .bearer(let token): return (.bearer, token, nil)
            case .digest: return (nil, nil, nil)  // answered to a challenge (`digestCredential(for:)`)
            }
        }
        guard let auth = api.auth(for: spec.auth) else { return (nil, nil, nil) }
        do throws(TargetBuildError) {
            switch auth {
            case .bearer(let token):
                return (.bearer, try context.renderSecret(token), nil)
            case .basic(let username, let password):
                // The user name is shown, as curl's `-u user` would; only the password and the
                // encoded pair are secrets.
                let user = try context.renderWithoutRecording(username)
                let secret = try context.renderSecret(password)
                return (.basic, Self.base64("\(user):\(secret)"), nil)
            case .custom(let scheme, let token):
                return (.custom(scheme), try context.renderSecret(token), nil)
            case .digest:
                return (nil, nil, nil)  // answered to a challenge (`digestCredential(for:)`)
            case .oauth2, .command:
                // A stub needs no token: nothing is fetched or run.
                if isStubbed { return (nil, nil, nil) }
                let request = try accessTokenRequest(for: auth, baseURL: baseURL, context: &context)
                guard let accessTokens else {
                    throw TargetBuildError.accessToken(
                        AccessTokenError(.notAllowed, "auth type '\(auth.kind.rawValue)' needs a token source"))
                }
                do {
                    let token = try accessTokens.accessToken(for: request, replacing: nil)
                    context.secretValues.append(token)
                    return (.bearer, token, request)
                } catch {
                    throw TargetBuildError.accessToken(error)
                }
            case .apiKey:
                return (nil, nil, nil)  // a header or a query parameter, not Authorization (`apiKey(for:)`)
            case .awsSigV4:
                return (nil, nil, nil)  // signed per request by the sender (`awsSigV4Credential(for:)`)
            }
        } catch {
            if isStubbed { return (nil, nil, nil) }
            throw error
        }
    }

    /// The token request `oauth2` or `command` auth makes, its references resolved; the client
    /// secret is recorded as a secret, and a token URL built from `${VAR}` is checked here.
    private func accessTokenRequest(for auth: AuthSpec, baseURL: URL, context: inout RenderContext)
        throws(TargetBuildError) -> AccessTokenRequest
    {
        switch auth {
        case .oauth2(let spec):
            let tokenURL = try context.renderWithoutRecording(spec.tokenURL)
            if let problem = TokenURLCheck.problem(in: tokenURL) {
                throw .accessToken(
                    AccessTokenError(.notAllowed, SecretRedactor(secretValues: context.secretValues).redact(problem)))
            }
            let clientID = try context.renderWithoutRecording(spec.clientID)
            let clientSecret = try context.renderSecret(spec.clientSecret)
            // A checked base URL has a host, so it has an origin.
            let origin = URLOrigin.origin(of: baseURL.absoluteString) ?? baseURL.absoluteString
            return .oauth2(
                .init(
                    apiName: api.name, tokenURL: tokenURL, clientID: clientID, clientSecret: clientSecret,
                    scopes: spec.scopes, clientAuthentication: spec.clientAuthentication, origin: origin))
        case .command(let spec):
            return .command(.init(apiName: api.name, arguments: spec.arguments, timeout: spec.timeout, file: api.file))
        case .bearer, .basic, .digest, .custom, .apiKey, .awsSigV4:
            throw .accessToken(AccessTokenError(.notAllowed, "auth type '\(auth.kind.rawValue)' takes no token source"))
        }
    }

    /// The user name and password the case answers a `Digest` challenge with (`-u` with
    /// `--digest`, or the file's `auth: {type: digest}`), the password a secret.
    private func digestCredential(for spec: CaseSpec, context: inout RenderContext) throws(TargetBuildError)
        -> Credential?
    {
        if let credentialOverride {
            guard case .digest(let user, let password) = credentialOverride else { return nil }
            return Credential(user: user, password: password, scheme: .digest)
        }
        guard case .digest(let username, let password)? = api.auth(for: spec.auth) else { return nil }
        do throws(TargetBuildError) {
            let user = try context.renderWithoutRecording(username)
            return Credential(user: user, password: try context.renderSecret(password), scheme: .digest)
        } catch {
            if isStubbed { return nil }
            throw error
        }
    }

    /// The case's API key, when its auth is one: where it goes, its name and its value. As for the
    /// other credentials, a stubbed request does without it when its variable is not set.
    private func apiKey(for spec: CaseSpec, context: inout RenderContext) throws(TargetBuildError) -> (
        AuthSpec.APIKeyLocation, String, String
    )? {
        guard credentialOverride == nil, case .apiKey(let location, let name, let key)? = api.auth(for: spec.auth)
        else { return nil }
        do {
            let value = try context.renderSecret(key)
            try HeaderLine.check(value, field: "the API key")
            return (location, name, value)
        } catch {
            if isStubbed { return nil }
            throw error
        }
    }

    private func renderedSample(of spec: CaseSpec, named sampleName: String?, context: RenderContext)
        throws(TargetBuildError) -> (String, RenderedSample)
    {
        let named: NamedSample
        if let sampleName {
            do {
                named = try spec.sample(named: sampleName)
            } catch {
                throw .lookup(error)
            }
        } else if let first = spec.defaultSample {
            named = first
        } else {
            return ("default", .response(status: 200, headers: [], body: Data()))
        }
        let rendered = try SampleRenderer(context: context).render(named.sample)
        // A sample is an answer, made when the target is: its `{$…}` values are made now.
        guard case .response(let status, let headers, let body) = rendered,
            headers.contains(where: { DynamicValues.hasMarker($0.value) })
                || DynamicValues.hasMarker(in: body)
        else { return (named.name, rendered) }
        let values = DynamicValues()
        return (
            named.name,
            .response(
                status: status, headers: headers.map { ($0.name, values.substituting(in: $0.value)) },
                body: values.substituting(in: body) ?? body)
        )
    }

    static func validationType(_ spec: ValidationSpec) -> ValidationType {
        switch spec {
        case .none: .none
        case .successCodes: .successCodes
        case .successAndRedirectCodes: .successAndRedirectCodes
        case .customCodes(let codes): .customCodes(codes)
        }
    }

    static func base64(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
    }
}

extension TaskSpec {
    /// Whether the body is a `json:` document (sent as bytes, so the Content-Type is set here).
    var sendsJSONBody: Bool {
        switch self {
        case .json, .compositeData(.json, _): true
        default: false
        }
    }
}
