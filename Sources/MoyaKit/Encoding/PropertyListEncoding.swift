import OrderedJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Encodes parameters as a property list body (`Content-Type: application/x-plist` unless set).
public struct PropertyListEncoding: ParameterEncoding {
    /// The property list flavour.
    public enum Format: Sendable, Hashable {
        /// XML text.
        case xml
        /// Apple's binary format.
        case binary
    }

    /// XML.
    public static var `default`: PropertyListEncoding { PropertyListEncoding() }
    /// XML.
    public static var xml: PropertyListEncoding { PropertyListEncoding(format: .xml) }
    /// Binary.
    public static var binary: PropertyListEncoding { PropertyListEncoding(format: .binary) }

    /// The property list flavour.
    public let format: Format

    /// Creates an encoding.
    public init(format: Format = .xml) {
        self.format = format
    }

    /// Sets `parameters` as the property list body.
    public func encode(_ request: URLRequest, with parameters: [String: any Sendable]?) throws -> URLRequest {
        guard let parameters else { return request }
        let value = try JSONValue.encodingParameters(parameters)
        if let nullPath = Self.firstNull(in: value, keyPath: "") {
            throw ParameterEncodingError.propertyListNull(keyPath: nullPath)
        }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format == .xml ? .xml : .binary
        var request = request
        do {
            request.httpBody = try encoder.encode(value)
        } catch {
            throw ParameterEncodingError.propertyListEncodingFailed(String(describing: error))
        }
        request.setContentTypeUnlessSet("application/x-plist")
        return request
    }

    private static func firstNull(in value: JSONValue, keyPath: String) -> String? {
        func join(_ component: String) -> String { keyPath.isEmpty ? component : keyPath + "." + component }
        switch value {
        case .null: return keyPath
        case .array(let elements):
            return elements.enumerated().lazy.compactMap { firstNull(in: $1, keyPath: join(String($0))) }.first
        case .object(let members):
            return members.lazy.compactMap { firstNull(in: $1, keyPath: join($0)) }.first
        default: return nil
        }
    }
}
