import OrderedJSON

/// Puts parameters into a request: its query string, its body, or both.
///
/// Conform a type of your own to send another format (for example a JSON array, or XML).
/// Parameter values are `String`, `Int`, `Double`, `Bool`, arrays, `[String: ...]`
/// dictionaries, `JSONValue` (ordered objects, `null`) or `Encodable` values;
/// `JSONValue(parameters:)` converts them.
public protocol ParameterEncoding: Sendable {
    /// Returns `request` with `parameters` encoded into it.
    func encode(_ request: URLRequest, with parameters: [String: any Sendable]?) throws -> URLRequest
}

/// Why parameters could not be put into a request.
public enum ParameterEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request has no URL to add a query to.
    case missingURL
    /// A parameter value has no JSON form.
    case invalidValue(JSONConversionError)
    /// A property list cannot hold `null`; `keyPath` says where it was.
    case propertyListNull(keyPath: String)
    /// `PropertyListEncoder` failed.
    case propertyListEncodingFailed(String)
    /// `requestCompositeParameters` was given a `URLEncoding` whose destination is not `.httpBody`.
    case compositeBodyEncodingNotHTTPBody

    public var description: String {
        switch self {
        case .missingURL:
            return "the request has no URL to add query parameters to"
        case .invalidValue(let error):
            return error.description
        case .propertyListNull(let keyPath):
            return "the value at '\(keyPath)' is null, which a property list cannot hold"
        case .propertyListEncodingFailed(let message):
            return "the parameters could not be encoded as a property list: \(message)"
        case .compositeBodyEncodingNotHTTPBody:
            return
                "requestCompositeParameters needs URLEncoding.httpBody as its body encoding; put query parameters in urlParameters instead"
        }
    }
}

extension JSONValue {
    /// Converts parameters, wrapping failures as `ParameterEncodingError.invalidValue`.
    static func encodingParameters(_ parameters: [String: any Sendable]) throws(ParameterEncodingError) -> JSONValue {
        do {
            return try JSONValue(parameters: parameters)
        } catch {
            throw .invalidValue(error)
        }
    }
}
