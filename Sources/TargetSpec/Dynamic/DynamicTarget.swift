import HTTPTypes
import MoyaKit
import TargetModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A case of a target file with its arguments bound: a `TargetType` built at run time, the way
/// `enum GitHub: TargetType` is built by the compiler.
@dynamicMemberLookup
public struct DynamicTarget: TargetType, AccessTokenAuthorizable {
    // One copy-on-write box: a target is copied many times per request (provider, plugins as
    // `any TargetType`, results), and a copy of one reference fits an existential's inline buffer
    // where twenty fields were each retained. Guarded by the `check` figures of `make bench`.
    @usableFromInline var fields: CopyOnWriteBox<Fields>

    /// The stored values of a target; read and written as the target's own (`target.caseName`).
    public struct Fields: Sendable {
        /// The API's name.
        public var apiName: String
        /// The case's name.
        public var caseName: String
        /// The arguments the case was called with (defaults filled in).
        public var arguments: [String: ArgumentValue]
        public var baseURL: URL
        /// The path with every placeholder replaced and percent-escaped as one segment.
        public var path: String
        public var method: MoyaKit.Method
        public var task: MoyaKit.Task
        /// The merged headers (API, environment, case), in declaration order.
        public var orderedHeaders: [(name: String, value: String)]
        public var validationType: ValidationType
        /// The sample this target answers with when stubbed.
        public var sample: RenderedSample
        /// The name of that sample (`default` when the case declares none).
        public var sampleName: String
        /// The case's total timeout, in seconds; `nil`: none (its idle timeout still applies).
        public var timeout: TimeInterval?
        /// The API's connect timeout, in seconds.
        public var connectTimeout: TimeInterval
        public var authorizationType: AuthorizationType? = nil
        /// The credential sent with `authorizationType` (a token, or `user:password` for basic).
        public var credential: String? = nil
        /// Values never to print: resolved `${secret:...}` references and credentials.
        public var secretValues: [String]
        /// Lowercased names of the headers that carry a secret: built from a `${secret:...}` or named
        /// in `sensitiveHeaders:`. With `SensitiveHeaders.defaultNames`, they never follow a redirect
        /// to another origin and are hidden in output.
        public var sensitiveHeaderNames: Set<String> = []
        /// For `oauth2` and `command` auth: what `credential` was obtained for, so a caller whose
        /// request was refused with 401 can ask its `AccessTokenSource` for a new token.
        public var accessTokenRequest: AccessTokenRequest? = nil
        /// An API key sent as a query parameter (`auth: {type: apiKey, in: query}`): name and value,
        /// put before any other parameter of the URL. The value is one of `secretValues`.
        public var apiKeyQuery: (name: String, value: String)? = nil
        /// The whole URL to send to instead of `baseURL` and `path`: a later page of a paginated
        /// case (its next link, or the first page's URL with the cursor set).
        public var urlOverride: String? = nil
        /// Whether the run's cookies are kept and sent for this target's API (`cookies: false`
        /// in its file turns them off).
        public var keepsCookies: Bool = true
        /// The user name and password a `Digest` challenge is answered with (`auth: {type:
        /// digest}`, `--digest`); the password is one of `secretValues`.
        public var digestCredential: Credential? = nil
        /// The public keys its server may have (`tls: {pinnedPublicKeys:}` of the API or of the
        /// environment); empty: any.
        public var pinnedPublicKeys: [String] = []
        /// Where its host is connected to (the environment's `resolve:`, libcurl's form).
        public var resolve: [String] = []
        /// What the sender does to each request as it goes out beyond replacing `{$…}` markers:
        /// the `prepare` program, SigV4 signing; `nil`: nothing.
        public var preparation: RequestPreparation? = nil
        /// Whether the HTTP cache answers and keeps this request's responses (`cache:`, `--cache`,
        /// `--no-cache`); never for a stub or a download.
        public var usesCache: Bool = false
        /// The upload or multipart files the user named as streams (`TargetBuilder.streamsCommandLineFiles`).
        public var streamedFilePaths: Set<String> = []
        /// The longest the request may go without a byte sent or received, in seconds (the case's
        /// or API's `idleTimeout`, default 60).
        public var idleTimeout: TimeInterval = 60
        /// Whether its redirects are followed (the case's or API's `redirects:`).
        public var redirects: RedirectPolicy = .follow
        /// The `tls:` files of a trusted file (`crlFile`, `clientCert`, `clientKey`), their paths
        /// from the file's folder; empty for a stub.
        public var tlsFiles = APISpec.TLSFiles()
    }

    /// Creates a target.
    @inlinable
    public init(_ fields: Fields) {
        self.fields = CopyOnWriteBox(fields)
    }

    /// A field, read in place and written in place once the box is not shared.
    @inlinable
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<Fields, T>) -> T {
        get { fields.value[keyPath: keyPath] }
        _modify { yield &fields.value[keyPath: keyPath] }
    }

    // `TargetType`'s and `AccessTokenAuthorizable`'s requirements need members of their own:
    // dynamic member lookup does not witness them.
    @inlinable
    public var baseURL: URL {
        get { fields.value.baseURL }
        set { fields.value.baseURL = newValue }
    }
    @inlinable
    public var path: String {
        get { fields.value.path }
        set { fields.value.path = newValue }
    }
    @inlinable
    public var method: MoyaKit.Method {
        get { fields.value.method }
        set { fields.value.method = newValue }
    }
    @inlinable
    public var task: MoyaKit.Task {
        get { fields.value.task }
        set { fields.value.task = newValue }
    }
    @inlinable
    public var validationType: ValidationType {
        get { fields.value.validationType }
        set { fields.value.validationType = newValue }
    }
    @inlinable
    public var authorizationType: AuthorizationType? {
        get { fields.value.authorizationType }
        set { fields.value.authorizationType = newValue }
    }

    public var headers: [String: String]? {
        var fields: [String: String] = [:]
        for header in self.orderedHeaders { fields[header.name] = header.value }
        return fields
    }

    public var sampleData: Data {
        if case .response(_, _, let body) = self.sample { return body }
        return Data()
    }

    /// The URL `baseURL` and `path` make, without escaping `path` again (it is escaped already).
    public var url: String {
        if let urlOverride = self.urlOverride {
            // A next page's link rarely repeats an API key in the query: it is added again
            // (the link is on the API's own origin: paging refuses any other).
            guard let apiKeyQuery = self.apiKeyQuery else { return urlOverride }
            let parameter = PercentEncoding.escapeQueryComponent(apiKeyQuery.name) + "="
            let query =
                urlOverride.split(separator: "?", maxSplits: 1).dropFirst().first.map {
                    $0.split(separator: "#").first ?? ""
                } ?? ""
            if query.split(separator: "&").contains(where: { $0.hasPrefix(parameter) }) { return urlOverride }
            let fragmentless =
                urlOverride.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
                ?? urlOverride
            return fragmentless + (fragmentless.contains("?") ? "&" : "?") + parameter
                + PercentEncoding.escapeQueryComponent(apiKeyQuery.value)
        }
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let apiKeyQuery = self.apiKeyQuery else { return base + path }
        // An ad-hoc request's path carries its query (`AdHocRequest.encodedQuery`).
        return base + path + (path.contains("?") ? "&" : "?") + PercentEncoding.escapeQueryComponent(apiKeyQuery.name)
            + "="
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
                        if let name = HTTPField.Name(header.name) {
                            fields.append(HTTPField(name: name, value: header.value))
                        }
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
