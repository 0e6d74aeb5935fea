import FoundationEssentials
import TargetModel
import TargetSpec

/// From `request`'s words to a prepared call: the ad-hoc request (`AdHocRequest`) made a case of
/// its API (or of the API a URL stands for), built as `call` builds a case.
struct AdHocResolution {
    var invocation: RequestInvocation
    var environment: [String: String]

    /// The call that sends the request, and the request as asked (what `--save-as` writes); every
    /// usage error is exit 64, naming the word at fault.
    func prepared() throws -> (call: PreparedCall, request: AdHocRequest) {
        do {
            return try preparing()
        } catch let error as AdHocRequestError {
            throw CommandFailure(.usage, error.message)
        }
    }

    private func preparing() throws -> (call: PreparedCall, request: AdHocRequest) {
        let words = invocation.words
        var requestOptions = invocation.requestOptions
        let api: APISpec
        let request: AdHocRequest
        let isURL = words.count >= 2 && AdHocPath.isURL(words[1])
        if isURL {
            try refuseAPIOptions()
            let (origin, path, query) = try AdHocPath.split(url: words[1])
            api = AdHocRequest.api(origin: origin, directory: Self.currentDirectory)
            request = try adHocRequest(method: words[0], path: path, query: query, items: Array(words.dropFirst(2)))
            // As --base-url: checked as a base URL, and a password in it is redacted.
            requestOptions.baseURL = origin
        } else {
            guard words.count >= 3 else {
                throw CommandFailure(
                    .usage,
                    "missing " + ["API, METHOD and PATH", "METHOD and PATH", "PATH"][min(words.count, 2)]
                        + "; give API METHOD PATH [ITEM...], or METHOD URL [ITEM...] with an absolute http(s) URL (see 'moya-cli request --help')"
                )
            }
            // The API's cases are not kept: the request is none of them.
            api = try CatalogLoader(options: invocation.targetOptions, environment: environment).api(
                named: words[0], eachCase: { _, _ in }
            ).1
            let (path, query) = try AdHocPath.split(apiPath: words[2], apiName: api.name)
            request = try adHocRequest(method: words[1], path: path, query: query, items: Array(words.dropFirst(3)))
        }
        let (spec, arguments) = try request.caseSpec(in: api)
        var resolved = ResolvedCase(api: api, spec: spec, arguments: arguments)
        // -u and --bearer replace the API's auth, as on `call`; read (and asked for) once the
        // request is known to be well formed.
        resolved.credential = try invocation.credentialOptions.credential()
        var target = try CaseResolution.build(
            resolved, settings: TargetSettings(environment: environment, request: requestOptions))
        // The netrc's credential for the host, when nothing else gives one (as on `call`).
        if resolved.credential == nil, api.auth(for: spec.auth) == nil,
            let credential = try invocation.credentialOptions.netrcCredential(for: target, environment: environment)
        {
            resolved.credential = credential
            target = try CaseResolution.build(
                resolved, settings: TargetSettings(environment: environment, request: requestOptions))
        }
        try Self.checkOrigin(of: target, path: isURL ? words[1] : words[2])
        // `Header:` items remove the API's header too, after -H (the later word wins).
        requestOptions.headers += request.removedHeaderNames.map { $0 + ":" }
        let call = PreparedCall(
            resolved: resolved, target: target, invocation: invocation.callInvocation(requestOptions: requestOptions),
            environment: environment)
        return (call, request)
    }

    private func adHocRequest(method: String, path: String, query: [AdHocRequest.Pair], items: [String])
        throws(AdHocRequestError) -> AdHocRequest
    {
        let overrides = invocation.overrideOptions
        let rawBody = (overrides.json ?? overrides.data).map {
            AdHocRequest.RawBody(argument: $0, isJSON: overrides.json != nil)
        }
        let auth: AdHocRequest.Auth =
            switch invocation.auth {
            case nil: .inherited
            case "none"?: .none
            case let name?: .scheme(name)
            }
        return try AdHocRequest(
            method: method, path: path, query: query, items: items, sendsForm: invocation.form, rawBody: rawBody,
            auth: auth, fileBaseDirectory: Self.currentDirectory,
            fileLimit: invocation.requestOptions.maxBodySize.bytes)
    }

    /// A URL says where the request goes: the options that pick an API's settings have none to pick.
    private func refuseAPIOptions() throws {
        let given = [
            (invocation.auth, "--auth"), (invocation.requestOptions.environment, "--env"),
            (invocation.requestOptions.baseURL, "--base-url")
        ]
        if let (_, name) = given.first(where: { $0.0 != nil }) {
            throw CommandFailure(
                .usage,
                "\(name) needs an API (moya-cli request API METHOD PATH); a URL has no target file to take it from")
        }
    }

    /// Whatever the path, the request stays on the base URL's origin (the path's checks should
    /// already have made sure; this is the last word).
    private static func checkOrigin(of target: DynamicTarget, path: String) throws {
        guard let origin = URLOrigin.origin(of: target.baseURL.absoluteString),
            URLOrigin.origin(of: target.url) == origin
        else {
            throw CommandFailure(
                .usage, "PATH '\(AdHocPath.displayed(path))' would leave the API's origin; give a path on it")
        }
    }

    private static var currentDirectory: String {
        FileManager.default.currentDirectoryPath
    }
}
