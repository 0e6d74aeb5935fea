#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// A target made concrete: URL, method, task, headers and sample response. Providers map
/// targets to endpoints (`endpointClosure`) and endpoints to requests (`requestClosure`).
public final class Endpoint: Sendable {
    /// Produces the stub answer.
    public typealias SampleResponseClosure = @Sendable () -> EndpointSampleResponse

    /// The URL, as text.
    public let url: String
    /// Produces the stub answer.
    public let sampleResponseClosure: SampleResponseClosure
    /// The HTTP method.
    public let method: Method
    /// What the request sends.
    public let task: Task
    /// The header fields.
    public let httpHeaderFields: [String: String]?

    /// Creates an endpoint.
    public init(
        url: String, sampleResponseClosure: @escaping SampleResponseClosure, method: Method, task: Task,
        httpHeaderFields: [String: String]?
    ) {
        self.url = url
        self.sampleResponseClosure = sampleResponseClosure
        self.method = method
        self.task = task
        self.httpHeaderFields = httpHeaderFields
    }

    /// A copy with `newHTTPHeaderFields` added, replacing fields of the same name.
    public func adding(newHTTPHeaderFields: [String: String]) -> Endpoint {
        guard !newHTTPHeaderFields.isEmpty else { return self }
        var fields = httpHeaderFields ?? [:]
        for (name, value) in newHTTPHeaderFields {
            // Header names are case-insensitive: replace `accept` when adding `Accept`.
            if let existing = fields.keys.first(where: { $0.lowercased() == name.lowercased() }) {
                fields[existing] = nil
            }
            fields[name] = value
        }
        return Endpoint(
            url: url, sampleResponseClosure: sampleResponseClosure, method: method, task: task, httpHeaderFields: fields
        )
    }

    /// A copy with `task` instead.
    public func replacing(task: Task) -> Endpoint {
        Endpoint(
            url: url, sampleResponseClosure: sampleResponseClosure, method: method, task: task,
            httpHeaderFields: httpHeaderFields)
    }
}

extension Endpoint {
    /// The request this endpoint describes.
    /// - Throws: `MoyaError.requestMapping` for a bad URL, `.parameterEncoding`, `.encodableMapping`.
    public func urlRequest() throws(MoyaError) -> URLRequest {
        guard let requestURL = URL(string: url), requestURL.scheme != nil else { throw .requestMapping(url) }
        var request = URLRequest(url: requestURL)
        request.httpMethod = method.rawValue
        if let httpHeaderFields { request.allHTTPHeaderFields = httpHeaderFields }

        switch task {
        case .requestPlain, .downloadDestination:
            return request
        case .requestData(let data):
            request.httpBody = data
            return request
        case .requestJSONEncodable(let encodable):
            return try request.encoded(encodable: encodable)
        case .requestCustomJSONEncodable(let encodable, let encoder):
            return try request.encoded(encodable: encodable, encoder: encoder)
        case .requestParameters(let parameters, let encoding), .downloadParameters(let parameters, let encoding, _):
            return try request.encoded(parameters: parameters, parameterEncoding: encoding)
        case .requestCompositeData(let bodyData, let urlParameters):
            request.httpBody = bodyData
            return try request.encoded(parameters: urlParameters, parameterEncoding: URLEncoding.queryString)
        case .requestCompositeParameters(let bodyParameters, let bodyEncoding, let urlParameters):
            if let urlEncoding = bodyEncoding as? URLEncoding, urlEncoding.destination != .httpBody {
                throw .parameterEncoding(ParameterEncodingError.compositeBodyEncodingNotHTTPBody)
            }
            let withBody = try request.encoded(parameters: bodyParameters, parameterEncoding: bodyEncoding)
            return try withBody.encoded(parameters: urlParameters, parameterEncoding: URLEncoding.queryString)
        case .uploadFile(let file):
            request.bodyFileURL = file
            return request
        case .uploadCompositeFile(let file, let urlParameters):
            request.bodyFileURL = file
            return try request.encoded(parameters: urlParameters, parameterEncoding: URLEncoding.queryString)
        case .uploadMultipart(let parts):
            request.multipartParts = parts
            return request
        case .uploadCompositeMultipart(let parts, let urlParameters):
            request.multipartParts = parts
            return try request.encoded(parameters: urlParameters, parameterEncoding: URLEncoding.queryString)
        }
    }
}

/// Two endpoints are equal when they make the same request: URL, method, headers and body
/// (including an upload's file or parts). `trackInflights` coalesces on the request after the
/// plugins' `prepare` instead (`InflightKey`), so credentials added there count too.
extension Endpoint: Hashable {
    public static func == (lhs: Endpoint, rhs: Endpoint) -> Bool {
        RequestIdentity(lhs) == RequestIdentity(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        RequestIdentity(self).hash(into: &hasher)
    }
}

/// The request an endpoint makes, built once: what endpoint equality means.
struct RequestIdentity: Hashable {
    let endpoint: Endpoint
    private let request: URLRequest?

    init(_ endpoint: Endpoint) {
        self.endpoint = endpoint
        request = try? endpoint.urlRequest()
    }

    static func == (lhs: RequestIdentity, rhs: RequestIdentity) -> Bool {
        switch (lhs.request, rhs.request) {
        case let (left?, right?): left == right
        case (nil, nil):
            lhs.endpoint.url == rhs.endpoint.url && lhs.endpoint.method == rhs.endpoint.method
                && lhs.endpoint.httpHeaderFields == rhs.endpoint.httpHeaderFields
        default: false
        }
    }

    func hash(into hasher: inout Hasher) {
        if let request {
            hasher.combine(request)
        } else {
            hasher.combine(endpoint.url)
            hasher.combine(endpoint.method)
            hasher.combine(endpoint.httpHeaderFields)
        }
    }
}
