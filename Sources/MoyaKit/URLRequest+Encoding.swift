extension URLRequest {
    /// Sets an `Encodable` value as the JSON body, and `Content-Type: application/json` unless set.
    func encoded(encodable: any Encodable, encoder: JSONEncoder = JSONEncoder()) throws(MoyaError) -> URLRequest {
        var request = self
        do {
            request.httpBody = try encoder.encode(encodable)
        } catch {
            throw .encodableMapping(error)
        }
        if request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// Applies `parameterEncoding`, wrapping its failures as `MoyaError.parameterEncoding`.
    func encoded(parameters: [String: any Sendable], parameterEncoding: any ParameterEncoding) throws(MoyaError) -> URLRequest {
        do {
            return try parameterEncoding.encode(self, with: parameters)
        } catch let error as MoyaError {
            throw error
        } catch {
            throw .parameterEncoding(error)
        }
    }
}
