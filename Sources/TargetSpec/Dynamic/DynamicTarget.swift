import MoyaKit
import TargetModel

/// A case of a target file with its arguments bound: a `TargetType` built at run time, the way
/// `enum GitHub: TargetType` is built by the compiler.
public struct DynamicTarget: TargetType, AccessTokenAuthorizable {
    // One copy-on-write box: a target is copied many times per request (provider, plugins as
    // `any TargetType`, results), and a copy of one reference fits an existential's inline buffer
    // where twenty fields were each retained. Guarded by the `check` figures of `make bench`.
    private var fields: CopyOnWriteBox<Fields>

    /// The fields, behind one reference.
    private struct Fields: Sendable {
        var apiName: String
        var caseName: String
        var arguments: [String: ArgumentValue]
        var baseURL: URL
        var path: String
        var method: MoyaKit.Method
        var task: MoyaKit.Task
        var orderedHeaders: [(name: String, value: String)]
        var validationType: ValidationType
        var sample: RenderedSample
        var sampleName: String
        var timeout: TimeInterval
        var connectTimeout: TimeInterval
        var authorizationType: AuthorizationType?
        var credential: String?
        var secretValues: [String]
        var sensitiveHeaderNames: Set<String>
        var accessTokenRequest: AccessTokenRequest?
        var apiKeyQuery: (name: String, value: String)?
        var urlOverride: String?
    }

    /// Creates a target.
    public init(
        apiName: String,
        caseName: String,
        arguments: [String: ArgumentValue],
        baseURL: URL,
        path: String,
        method: MoyaKit.Method,
        task: MoyaKit.Task,
        orderedHeaders: [(name: String, value: String)],
        validationType: ValidationType,
        sample: RenderedSample,
        sampleName: String,
        timeout: TimeInterval,
        connectTimeout: TimeInterval,
        authorizationType: AuthorizationType? = nil,
        credential: String? = nil,
        secretValues: [String],
        sensitiveHeaderNames: Set<String> = [],
        accessTokenRequest: AccessTokenRequest? = nil,
        apiKeyQuery: (name: String, value: String)? = nil,
        urlOverride: String? = nil
    ) {
        fields = CopyOnWriteBox(Fields(
            apiName: apiName, caseName: caseName, arguments: arguments, baseURL: baseURL, path: path, method: method, task: task,
            orderedHeaders: orderedHeaders, validationType: validationType, sample: sample, sampleName: sampleName, timeout: timeout,
            connectTimeout: connectTimeout, authorizationType: authorizationType, credential: credential, secretValues: secretValues,
            sensitiveHeaderNames: sensitiveHeaderNames, accessTokenRequest: accessTokenRequest, apiKeyQuery: apiKeyQuery,
            urlOverride: urlOverride))
    }

    /// The API's name.
    public var apiName: String {
        get { fields.value.apiName }
        set { fields.value.apiName = newValue }
    }
    /// The case's name.
    public var caseName: String {
        get { fields.value.caseName }
        set { fields.value.caseName = newValue }
    }
    /// The arguments the case was called with (defaults filled in).
    public var arguments: [String: ArgumentValue] {
        get { fields.value.arguments }
        set { fields.value.arguments = newValue }
    }
    public var baseURL: URL {
        get { fields.value.baseURL }
        set { fields.value.baseURL = newValue }
    }
    /// The path with every placeholder replaced and percent-escaped as one segment.
    public var path: String {
        get { fields.value.path }
        set { fields.value.path = newValue }
    }
    public var method: MoyaKit.Method {
        get { fields.value.method }
        set { fields.value.method = newValue }
    }
    public var task: MoyaKit.Task {
        get { fields.value.task }
        set { fields.value.task = newValue }
    }
    /// The merged headers (API, environment, case), in declaration order.
    public var orderedHeaders: [(name: String, value: String)] {
        get { fields.value.orderedHeaders }
        set { fields.value.orderedHeaders = newValue }
    }
    public var validationType: ValidationType {
        get { fields.value.validationType }
        set { fields.value.validationType = newValue }
    }
    /// The sample this target answers with when stubbed.
    public var sample: RenderedSample {
        get { fields.value.sample }
        set { fields.value.sample = newValue }
    }
    /// The name of that sample (`default` when the case declares none).
    public var sampleName: String {
        get { fields.value.sampleName }
        set { fields.value.sampleName = newValue }
    }
    /// The case's total timeout, in seconds.
    public var timeout: TimeInterval {
        get { fields.value.timeout }
        set { fields.value.timeout = newValue }
    }
    /// The API's connect timeout, in seconds.
    public var connectTimeout: TimeInterval {
        get { fields.value.connectTimeout }
        set { fields.value.connectTimeout = newValue }
    }
    public var authorizationType: AuthorizationType? {
        get { fields.value.authorizationType }
        set { fields.value.authorizationType = newValue }
    }
    /// The credential sent with `authorizationType` (a token, or `user:password` for basic).
    public var credential: String? {
        get { fields.value.credential }
        set { fields.value.credential = newValue }
    }
    /// Values never to print: resolved `${secret:...}` references and credentials.
    public var secretValues: [String] {
        get { fields.value.secretValues }
        set { fields.value.secretValues = newValue }
    }
    /// Lowercased names of the headers that carry a secret: built from a `${secret:...}` or named
    /// in `sensitiveHeaders:`. With `SensitiveHeaders.defaultNames`, they never follow a redirect
    /// to another origin and are hidden in output.
    public var sensitiveHeaderNames: Set<String> {
        get { fields.value.sensitiveHeaderNames }
        set { fields.value.sensitiveHeaderNames = newValue }
    }
    /// For `oauth2` and `command` auth: what `credential` was obtained for, so a caller whose
    /// request was refused with 401 can ask its `AccessTokenSource` for a new token.
    public var accessTokenRequest: AccessTokenRequest? {
        get { fields.value.accessTokenRequest }
        set { fields.value.accessTokenRequest = newValue }
    }
    /// An API key sent as a query parameter (`auth: {type: apiKey, in: query}`): name and value,
    /// put before any other parameter of the URL. The value is one of `secretValues`.
    public var apiKeyQuery: (name: String, value: String)? {
        get { fields.value.apiKeyQuery }
        set { fields.value.apiKeyQuery = newValue }
    }
    /// The whole URL to send to instead of `baseURL` and `path`: a later page of a paginated
    /// case (its next link, or the first page's URL with the cursor set).
    public var urlOverride: String? {
        get { fields.value.urlOverride }
        set { fields.value.urlOverride = newValue }
    }

    public var headers: [String: String]? {
        var fields: [String: String] = [:]
        for header in orderedHeaders { fields[header.name] = header.value }
        return fields
    }

    public var sampleData: Data {
        if case .response(_, _, let body) = sample { return body }
        return Data()
    }

    /// The URL `baseURL` and `path` make, without escaping `path` again (it is escaped already).
    public var url: String {
        if let urlOverride {
            // A next page's link rarely repeats an API key in the query: it is added again
            // (the link is on the API's own origin: paging refuses any other).
            guard let apiKeyQuery else { return urlOverride }
            let parameter = PercentEncoding.escapeQueryComponent(apiKeyQuery.name) + "="
            let query = urlOverride.split(separator: "?", maxSplits: 1).dropFirst().first.map { $0.split(separator: "#").first ?? "" } ?? ""
            if query.split(separator: "&").contains(where: { $0.hasPrefix(parameter) }) { return urlOverride }
            let fragmentless = urlOverride.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? urlOverride
            return fragmentless + (fragmentless.contains("?") ? "&" : "?") + parameter + PercentEncoding.escapeQueryComponent(apiKeyQuery.value)
        }
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let apiKeyQuery else { return base + path }
        return base + path + "?" + PercentEncoding.escapeQueryComponent(apiKeyQuery.name) + "="
            + PercentEncoding.escapeQueryComponent(apiKeyQuery.value)
    }

    /// The endpoint the provider sends or stubs: the sample keeps its status, headers or error.
    public var endpoint: Endpoint {
        let sample = self.sample
        let requestURL = url
        return Endpoint(
            url: requestURL,
            sampleResponseClosure: {
                switch sample {
                case .response(let status, let headers, let body):
                    var fields = HTTPFields()
                    for header in headers {
                        if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
                    }
                    return .response(HTTPResponseHead(statusCode: status, headers: fields), body)
                case .networkError(let error):
                    return .networkError(error)
                }
            },
            method: method,
            task: task,
            httpHeaderFields: headers
        )
    }
}

/// A sample with its placeholders replaced: what a stubbed request answers.
public enum RenderedSample: Sendable {
    /// A response: status, headers, body.
    case response(status: Int, headers: [(name: String, value: String)], body: Data)
    /// A network failure instead of a response.
    case networkError(TransportError)
}

extension DynamicTarget {
    /// Itself: a dynamic target is always authorizable (its `authorizationType` says whether it
    /// is sent with a token), so `AccessTokenPlugin` asks no run-time conformance lookup.
    public var accessTokenAuthorizable: (any AccessTokenAuthorizable)? { self }
}
