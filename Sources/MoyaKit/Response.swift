import OrderedJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A response to a request: status code, body, and what is known of the exchange.
public final class Response: Sendable, CustomDebugStringConvertible, Equatable {
    /// The HTTP status code.
    public let statusCode: Int
    /// The body (empty for downloads, whose body went to the destination file; only the first
    /// bytes, or none, of a body streamed or discarded by its `ResponseBodyHandling`).
    public let data: Data
    /// The size of the whole body in bytes: `data.count` unless the body was streamed or discarded.
    public let bodyLength: Int
    /// The request as sent, after plugins prepared it.
    public let request: URLRequest?
    /// The status line and headers; `nil` for a stub made from `.networkResponse`.
    public let response: HTTPResponseHead?
    /// Where the time went; `nil` for stubs.
    public let timing: Timing?

    /// Creates a response.
    public init(
        statusCode: Int, data: Data, request: URLRequest? = nil, response: HTTPResponseHead? = nil,
        timing: Timing? = nil,
        bodyLength: Int? = nil
    ) {
        self.statusCode = statusCode
        self.data = data
        self.bodyLength = max(bodyLength ?? data.count, data.count)
        self.request = request
        self.response = response
        self.timing = timing
    }

    /// Whether `data` holds the whole body.
    public var hasWholeBody: Bool { bodyLength == data.count }

    /// `Status Code: 200, Data Length: 42`.
    public var description: String { "Status Code: \(statusCode), Data Length: \(bodyLength)" }

    /// Same as `description`.
    public var debugDescription: String { description }

    /// Equal status codes, bodies and heads.
    public static func == (lhs: Response, rhs: Response) -> Bool {
        lhs.statusCode == rhs.statusCode && lhs.data == rhs.data && lhs.response == rhs.response
    }
}

// MARK: - Filtering

extension Response {
    /// Returns the response if its status code is in `statusCodes`.
    /// - Throws: `MoyaError.statusCode` otherwise.
    public func filter<R: RangeExpression>(statusCodes: R) throws(MoyaError) -> Response where R.Bound == Int {
        guard statusCodes.contains(statusCode) else { throw .statusCode(self) }
        return self
    }

    /// Returns the response if its status code is `statusCode`.
    public func filter(statusCode: Int) throws(MoyaError) -> Response {
        try filter(statusCodes: statusCode...statusCode)
    }

    /// Returns the response if its status code is 2xx.
    public func filterSuccessfulStatusCodes() throws(MoyaError) -> Response {
        try filter(statusCodes: 200...299)
    }

    /// Returns the response if its status code is 2xx or 3xx.
    public func filterSuccessfulStatusAndRedirectCodes() throws(MoyaError) -> Response {
        try filter(statusCodes: 200...399)
    }
}

// MARK: - Mapping

extension Response {
    /// The body parsed as JSON (any value at the top, as `.fragmentsAllowed`).
    /// - Parameter failsOnEmptyData: When `false`, an empty body gives `.null` instead of failing.
    /// - Throws: `MoyaError.jsonMapping`.
    public func mapJSON(failsOnEmptyData: Bool = true) throws(MoyaError) -> JSONValue {
        if data.isEmpty && !failsOnEmptyData { return .null }
        do {
            return try JSONValue(parsing: data)
        } catch {
            throw .jsonMapping(self)
        }
    }

    /// The body as UTF-8 text or, with a key path, the value there in the JSON body.
    ///
    /// The key path is dotted, with array indices as components (`"items.0.name"`). A string
    /// value gives its text; any other value gives its compact JSON text.
    /// - Throws: `MoyaError.stringMapping`.
    public func mapString(atKeyPath keyPath: String? = nil) throws(MoyaError) -> String {
        guard let keyPath else {
            guard let string = String(validating: data, as: UTF8.self) else { throw .stringMapping(self) }
            return string
        }
        let value = try span(atKeyPath: keyPath)
        if let string = value.stringValue { return string }
        return String(decoding: value.compactBytes(), as: UTF8.self)
    }

    /// The value at a dotted key path of the JSON body (as ``mapString(atKeyPath:)`` finds it),
    /// read in place: the body is validated, not parsed into a tree.
    /// - Throws: `MoyaError.stringMapping` when the body is not JSON or has nothing there.
    public func span(atKeyPath keyPath: String) throws(MoyaError) -> JSONSpan {
        guard let root = try? JSONSpan(validating: data), let value = root.value(atKeyPath: keyPath) else {
            throw .stringMapping(self)
        }
        return value
    }

    /// The body (or the value at a dotted key path of the JSON body) decoded as `type`.
    /// - Parameter failsOnEmptyData: When `false`, an empty body or a missing key path decodes
    ///   as `{}` or `[{}]` if `type` accepts one of those.
    /// - Throws: `MoyaError.jsonMapping` or `MoyaError.objectMapping`.
    public func map<D: Decodable>(
        _ type: D.Type, atKeyPath keyPath: String? = nil, using decoder: JSONDecoder = JSONDecoder(),
        failsOnEmptyData: Bool = true
    ) throws(MoyaError) -> D {
        var jsonData = data
        if let keyPath {
            let json = try mapJSON(failsOnEmptyData: failsOnEmptyData)
            if let value = json.value(atKeyPath: keyPath) {
                // Wrapped so scalars decode with any decoder configuration.
                let wrapped: JSONValue = ["value": value]
                do {
                    return try decoder.decode(DecodableWrapper<D>.self, from: wrapped.serialized()).value
                } catch {
                    throw .objectMapping(error, self)
                }
            }
            if failsOnEmptyData { throw .jsonMapping(self) }
            jsonData = Data()
        }
        if jsonData.isEmpty && !failsOnEmptyData {
            if let empty = try? decoder.decode(D.self, from: Data("{}".utf8)) { return empty }
            if let empty = try? decoder.decode(D.self, from: Data("[{}]".utf8)) { return empty }
        }
        do {
            return try decoder.decode(D.self, from: jsonData)
        } catch {
            throw .objectMapping(error, self)
        }
    }
}

private struct DecodableWrapper<Wrapped: Decodable>: Decodable {
    let value: Wrapped
}
