#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// Everything that can go wrong with a MoyaKit request.
public enum MoyaError: Error, Sendable {
    /// The response body is not an image (kept for Moya parity; MoyaKit maps no images).
    case imageMapping(Response)
    /// The response body is not JSON.
    case jsonMapping(Response)
    /// The response body (or the value at a key path) is not a string.
    case stringMapping(Response)
    /// The response body does not decode into the requested `Decodable` type.
    case objectMapping(any Error, Response)
    /// An `Encodable` body could not be encoded.
    case encodableMapping(any Error)
    /// The status code is not one the target's validation (or a `filter`) accepts.
    case statusCode(Response)
    /// Another error, e.g. a `TransportError`, with the response if there was one.
    case underlying(any Error, Response?)
    /// The endpoint's URL string is not a valid URL.
    case requestMapping(String)
    /// The task's parameters could not be encoded.
    case parameterEncoding(any Error)
}

extension MoyaError {
    /// The response involved, if any.
    public var response: Response? {
        switch self {
        case .imageMapping(let response), .jsonMapping(let response), .stringMapping(let response),
            .objectMapping(_, let response), .statusCode(let response):
            return response
        case .underlying(_, let response):
            return response
        case .encodableMapping, .requestMapping, .parameterEncoding:
            return nil
        }
    }

    /// The error this one wraps, if any.
    public var underlyingError: (any Error)? {
        switch self {
        case .objectMapping(let error, _), .encodableMapping(let error), .underlying(let error, _),
            .parameterEncoding(let error):
            return error
        case .imageMapping, .jsonMapping, .stringMapping, .statusCode, .requestMapping:
            return nil
        }
    }

    /// The transport failure behind this error, if it is one (a timeout, a refused connection...).
    public var transportError: TransportError? {
        underlyingError as? TransportError
    }

    /// Whether the request was cancelled.
    public var isCancellation: Bool {
        transportError?.kind == .cancelled
    }
}

extension MoyaError: LocalizedError, CustomStringConvertible {
    /// A sentence saying what went wrong.
    public var errorDescription: String? {
        switch self {
        case .imageMapping:
            return "Failed to map data to an Image."
        case .jsonMapping(let response):
            return "Failed to map data to JSON: the \(response.data.count)-byte body is not valid JSON."
        case .stringMapping:
            return "Failed to map data to a String."
        case .objectMapping(let error, _):
            return "Failed to map data to a Decodable object: \(error)"
        case .encodableMapping(let error):
            return "Failed to encode Encodable object into data: \(error)"
        case .statusCode(let response):
            return "Status code \(response.statusCode) didn't fall within the accepted range."
        case .underlying(let error, _):
            return Self.describe(error)
        case .requestMapping(let url):
            return "Failed to map Endpoint to a URLRequest: '\(url)' is not a valid URL."
        case .parameterEncoding(let error):
            return "Failed to encode parameters for URLRequest: \(Self.describe(error))"
        }
    }

    public var description: String { errorDescription ?? "MoyaError" }

    private static func describe(_ error: any Error) -> String {
        if let described = error as? any CustomStringConvertible { return described.description }
        return String(describing: error)
    }
}
