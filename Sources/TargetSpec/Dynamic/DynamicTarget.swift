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
package struct DynamicTarget: TargetType, AccessTokenAuthorizable {
    // One copy-on-write box: a target is copied many times per request (provider, plugins as
    // `any TargetType`, results), and a copy of one reference fits an existential's inline buffer
    // where twenty fields were each retained. Guarded by the `check` figures of `make bench`.
    @usableFromInline var fields: CopyOnWriteBox<Fields>

    /// The stored values of a target; read and written as the target's own (`target.caseName`).
    package struct Fields: Sendable {
        /// The API's name.
        package var apiName: String
        /// The case's name.
        package var caseName: String
        /// The arguments the case was called with (defaults filled in).
        package var arguments: [String: ArgumentValue]
        package var baseURL: URL
        /// The path with every placeholder replaced and percent-escaped as one segment.
        package var path: String
        package var method: MoyaKit.Method
        package var task: MoyaKit.Task
        /// The merged headers (API, environment, case), in declaration order.
        package var orderedHeaders: [(name: String, value: String)]
        package var validationType: ValidationType
        /// The sample this target answers with when stubbed.
        package var sample: RenderedSample
        /// The name of that sample (`default` when the case declares none).
        package var sampleName: String
        /// The case's total timeout, in seconds.
        package var timeout: TimeInterval
        /// The API's connect timeout, in seconds.
        package var connectTimeout: TimeInterval
        package var authorizationType: AuthorizationType? = nil
        /// The credential sent with `authorizationType` (a token, or `user:password` for basic).
        package var credential: String? = nil
        /// Values never to print: resolved `${secret:...}` references and credentials.
        package var secretValues: [String]
        /// Lowercased names of the headers that carry a secret: built from a `${secret:...}` or named
        /// in `sensitiveHeaders:`. With `SensitiveHeaders.defaultNames`, they never follow a redirect
        /// to another origin and are hidden in output.
        package var sensitiveHeaderNames: Set<String> = []
        /// For `oauth2` and `command` auth: what `credential` was obtained for, so a caller whose
        /// request was refused with 401 can ask its `AccessTokenSource` for a new token.
        package var accessTokenRequest: AccessTokenRequest? = nil
        /// An API key sent as a query parameter (`auth: {type: apiKey, in: query}`): name and value,
        /// put before any other parameter of the URL. The value is one of `secretValues`.
        package var apiKeyQuery: (name: String, value: String)? = nil
        /// The whole URL to send to instead of `baseURL` and `path`: a later page of a paginated
        /// case (its next link, or the first page's URL with the cursor set).
        package var urlOverride: String? = nil
    }

    /// Creates a target.
    @inlinable
    package init(_ fields: Fields) {
        self.fields = CopyOnWriteBox(fields)
    }

    /// A field, read in place and written in place once the box is not shared.
    @inlinable
    package subscript<T>(dynamicMember keyPath: WritableKeyPath<Fields, T>) -> T {
        get { fields.value[keyPath: keyPath] }
        _modify { yield &fields.value[keyPath: keyPath] }
    }

    // `TargetType`'s and `AccessTokenAuthorizable`'s requirements need members of their own:
    // dynamic member lookup does not witness them.
    @inlinable
    package var baseURL: URL {
        get { fields.value.baseURL }
        set { fields.value.baseURL = newValue }
    }
    @inlinable
    package var path: String {
        get { fields.value.path }
        set { fields.value.path = newValue }
    }
    @inlinable
    package var method: MoyaKit.Method {
        get { fields.value.method }
        set { fields.value.method = newValue }
    }
    @inlinable
    package var task: MoyaKit.Task {
        get { fields.value.task }
        set { fields.value.task = newValue }
    }
    @inlinable
    package var validationType: ValidationType {
        get { fields.value.validationType }
        set { fields.value.validationType = newValue }
    }
    @inlinable
    package var authorizationType: AuthorizationType? {
        get { fields.value.authorizationType }
        set { fields.value.authorizationType = newValue }
    }

    package var headers: [String: String]? {
        var fields: [String: String] = [:]
        for header in self.orderedHeaders { fields[header.name] = header.value }
        return fields
    }

    package var sampleData: Data {
        if case .response(_, _, let body) = self.sample { return body }
        return Data()
    }

    /// The URL `baseURL` and `path` make, without escaping `path` again (it is escaped already).
    package var url: String {
        if let urlOverride = self.urlOverride {
            // A next page's link rarely repeats an API key in the query: it is added again
            // (the link is on the API's own origin: paging refuses any other).
            guard let apiKeyQuery = self.apiKeyQuery else { return urlOverride }
            let parameter = PercentEncoding.escapeQueryComponent(apiKeyQuery.name) + "="
            let query = urlOverride.split(separator: "?", maxSplits: 1).dropFirst().first.map { $0.split(separator: "#").first ?? "" } ?? ""
            if query.split(separator: "&").contains(where: { $0.hasPrefix(parameter) }) { return urlOverride }
            let fragmentless = urlOverride.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? urlOverride
            return fragmentless + (fragmentless.contains("?") ? "&" : "?") + parameter + PercentEncoding.escapeQueryComponent(apiKeyQuery.value)
        }
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let apiKeyQuery = self.apiKeyQuery else { return base + path }
        // An ad-hoc request's path carries its query (`AdHocRequest.encodedQuery`).
        return base + path + (path.contains("?") ? "&" : "?") + PercentEncoding.escapeQueryComponent(apiKeyQuery.name) + "="
            + PercentEncoding.escapeQueryComponent(apiKeyQuery.value)
    }

    /// The endpoint the provider sends or stubs: the sample keeps its status, headers or error.
    package var endpoint: Endpoint {
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
package enum RenderedSample: Sendable {
    /// A response: status, headers, body.
    case response(status: Int, headers: [(name: String, value: String)], body: Data)
    /// A network failure instead of a response.
    case networkError(TransportError)
}

extension DynamicTarget {
    /// Itself: a dynamic target is always authorizable (its `authorizationType` says whether it
    /// is sent with a token), so `AccessTokenPlugin` asks no run-time conformance lookup.
    package var accessTokenAuthorizable: (any AccessTokenAuthorizable)? { self }
}
