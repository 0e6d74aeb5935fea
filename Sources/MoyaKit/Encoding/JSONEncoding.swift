import OrderedJSON

/// Encodes parameters as a JSON object body (`Content-Type: application/json` unless set).
///
/// Dictionary keys are sorted, so the body is the same on every run; `JSONValue.object`
/// members keep their order.
public struct JSONEncoding: ParameterEncoding {
    /// Compact JSON.
    public static var `default`: JSONEncoding { JSONEncoding() }
    /// Pretty-printed JSON as Moya's `JSONEncoding.prettyPrinted` sends it (Foundation's
    /// `JSONSerialization` layout: two-space indent, `"a" : 1`).
    public static var prettyPrinted: JSONEncoding { JSONEncoding(options: [.prettyPrinted, .foundationLayout]) }

    /// How the JSON is written.
    public let options: JSONWritingOptions

    /// Creates an encoding.
    public init(options: JSONWritingOptions = []) {
        self.options = options
    }

    /// Sets `parameters` as the JSON body.
    public func encode(_ request: URLRequest, with parameters: [String: any Sendable]?) throws -> URLRequest {
        guard let parameters else { return request }
        return apply(try JSONValue.encodingParameters(parameters), to: request)
    }

    /// Sets any JSON-convertible value (an array, say) as the body.
    public func encode(_ request: URLRequest, withJSONObject jsonObject: (any Sendable)?) throws -> URLRequest {
        guard let jsonObject else { return request }
        do {
            return apply(try JSONValue(converting: jsonObject), to: request)
        } catch {
            throw ParameterEncodingError.invalidValue(error)
        }
    }

    private func apply(_ value: JSONValue, to request: URLRequest) -> URLRequest {
        var request = request
        request.setContentTypeUnlessSet("application/json")
        request.httpBody = value.serialized(options: options)
        return request
    }
}
