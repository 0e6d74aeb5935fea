import MoyaKit

/// A case of a target file with its arguments bound: a `TargetType` built at run time, the way
/// `enum GitHub: TargetType` is built by the compiler.
public struct DynamicTarget: TargetType, AccessTokenAuthorizable {
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
    /// The case's total timeout, in seconds.
    public var timeout: TimeInterval
    /// The API's connect timeout, in seconds.
    public var connectTimeout: TimeInterval
    public var authorizationType: AuthorizationType?
    /// The credential sent with `authorizationType` (a token, or `user:password` for basic).
    public var credential: String?
    /// Values never to print: resolved `${secret:...}` references and credentials.
    public var secretValues: [String]
    /// Lowercased names of the headers that carry a secret: built from a `${secret:...}` or named
    /// in `sensitiveHeaders:`. With `SensitiveHeaders.defaultNames`, they never follow a redirect
    /// to another origin and are hidden in output.
    public var sensitiveHeaderNames: Set<String> = []
    /// The whole URL to send to instead of `baseURL` and `path`: a later page of a paginated
    /// case (its next link, or the first page's URL with the cursor set).
    public var urlOverride: String?

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
        if let urlOverride { return urlOverride }
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + path
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
