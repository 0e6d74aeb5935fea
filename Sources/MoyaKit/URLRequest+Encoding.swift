#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
extension URLRequest {
    /// Sets an `Encodable` value as the JSON body, and `Content-Type: application/json` unless set.
    ///
    /// Object keys are always sorted: Foundation's `JSONEncoder` on Linux otherwise writes them in
    /// hash order, which differs from one call to the next, so the same target would make a
    /// different body each time (two identical requests would not be equal for `trackInflights`,
    /// and logs would not be stable).
    func encoded(encodable: any Encodable, encoder: JSONEncoder = JSONEncoder()) throws(MoyaError) -> URLRequest {
        var request = self
        do {
            request.httpBody = try Self.sortingKeys(encoder).encode(encodable)
        } catch {
            throw .encodableMapping(error)
        }
        request.setContentTypeUnlessSet("application/json")
        return request
    }

    /// Applies `parameterEncoding`, wrapping its failures as `MoyaError.parameterEncoding`.
    func encoded(parameters: [String: any Sendable], parameterEncoding: any ParameterEncoding) throws(MoyaError)
        -> URLRequest
    {
        do {
            return try parameterEncoding.encode(self, with: parameters)
        } catch let error as MoyaError {
            throw error
        } catch {
            throw .parameterEncoding(error)
        }
    }

    /// Sets `Content-Type` to `contentType` for a body an encoding just wrote, unless the target
    /// already chose one: its own header wins, as in Moya.
    mutating func setContentTypeUnlessSet(_ contentType: String) {
        if value(forHTTPHeaderField: "Content-Type") == nil {
            setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
    }

    /// `encoder` if it sorts keys, else a copy of it that does (the caller's encoder is left alone).
    private static func sortingKeys(_ encoder: JSONEncoder) -> JSONEncoder {
        guard !encoder.outputFormatting.contains(.sortedKeys) else { return encoder }
        let copy = JSONEncoder()
        copy.outputFormatting = encoder.outputFormatting.union(.sortedKeys)
        copy.dateEncodingStrategy = encoder.dateEncodingStrategy
        copy.dataEncodingStrategy = encoder.dataEncodingStrategy
        copy.nonConformingFloatEncodingStrategy = encoder.nonConformingFloatEncodingStrategy
        copy.keyEncodingStrategy = encoder.keyEncodingStrategy
        copy.userInfo = encoder.userInfo
        return copy
    }
}
