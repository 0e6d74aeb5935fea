import OrderedJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Encodes parameters as `key=value&...` (Alamofire's `URLEncoding`): in the query string, or as
/// an `application/x-www-form-urlencoded; charset=utf-8` body.
///
/// Keys are sorted. Arrays become `key[]=a&key[]=b` (see `ArrayEncoding`), objects `key[sub]=v`
/// in member order, booleans `1`/`0` (see `BoolEncoding`), `null` an empty value. Keys and
/// values are percent-escaped as RFC 3986 asks, except `?` and `/`, which a query may hold.
public struct URLEncoding: ParameterEncoding {
    /// Where the encoded parameters go.
    public enum Destination: Sendable, Hashable {
        /// The query string for `GET`, `HEAD` and `DELETE`, the body otherwise.
        case methodDependent
        /// The query string, after any query the URL already has.
        case queryString
        /// The body.
        case httpBody

        /// Whether parameters go into the URL for `method`.
        public func encodesParametersInURL(for method: Method) -> Bool {
            switch self {
            case .methodDependent: return [.get, .head, .delete].contains(method)
            case .queryString: return true
            case .httpBody: return false
            }
        }
    }

    /// How array elements are keyed.
    public enum ArrayEncoding: Sendable {
        /// `key[]=a&key[]=b` (the default).
        case brackets
        /// `key=a&key=b`.
        case noBrackets
        /// `key[0]=a&key[1]=b`, as jQuery and Node.js.
        case indexInBrackets
        /// `key=a,b`: an array of scalars as one parameter, each element escaped and the commas
        /// between them kept (an array of arrays or objects is keyed as `noBrackets`).
        case commaSeparated
        /// Keys made by a closure from the key and the index.
        case custom(@Sendable (_ key: String, _ index: Int) -> String)

        /// The key of the element at `index` of the array under `key`.
        public func encode(key: String, atIndex index: Int) -> String {
            switch self {
            case .brackets: return "\(key)[]"
            case .noBrackets, .commaSeparated: return key
            case .indexInBrackets: return "\(key)[\(index)]"
            case .custom(let encode): return encode(key, index)
            }
        }
    }

    /// How booleans are written.
    public enum BoolEncoding: Sendable, Hashable {
        /// `1` and `0` (the default).
        case numeric
        /// `true` and `false`.
        case literal

        /// The text of `value`.
        public func encode(value: Bool) -> String {
            switch self {
            case .numeric: return value ? "1" : "0"
            case .literal: return value ? "true" : "false"
            }
        }
    }

    /// Method-dependent destination, brackets, numeric booleans.
    public static var `default`: URLEncoding { URLEncoding() }
    /// Always the query string.
    public static var queryString: URLEncoding { URLEncoding(destination: .queryString) }
    /// Always the body.
    public static var httpBody: URLEncoding { URLEncoding(destination: .httpBody) }

    /// Where the encoded parameters go.
    public let destination: Destination
    /// How array elements are keyed.
    public let arrayEncoding: ArrayEncoding
    /// How booleans are written.
    public let boolEncoding: BoolEncoding

    /// Creates an encoding.
    public init(
        destination: Destination = .methodDependent, arrayEncoding: ArrayEncoding = .brackets,
        boolEncoding: BoolEncoding = .numeric
    ) {
        self.destination = destination
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
    }

    /// Adds `parameters` to the query string or sets them as the body.
    public func encode(_ request: URLRequest, with parameters: [String: any Sendable]?) throws -> URLRequest {
        guard let parameters else { return request }
        var request = request
        let method = request.httpMethod.flatMap { Method(rawValue: $0) } ?? .get
        let query = try self.query(JSONValue.encodingParameters(parameters))
        if destination.encodesParametersInURL(for: method) {
            guard let url = request.url else { throw ParameterEncodingError.missingURL }
            if !parameters.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
                components.percentEncodedQuery = (components.percentEncodedQuery.map { $0 + "&" } ?? "") + query
                request.url = components.url ?? url
            }
        } else {
            request.setContentTypeUnlessSet("application/x-www-form-urlencoded; charset=utf-8")
            request.httpBody = Data(query.utf8)
        }
        return request
    }

    /// The escaped `(key, value)` pairs of one parameter, nested values flattened.
    public func queryComponents(fromKey key: String, value: JSONValue) -> [(String, String)] {
        switch value {
        case .object(let members):
            return members.flatMap { queryComponents(fromKey: "\(key)[\($0.0)]", value: $0.1) }
        case .array(let elements):
            if case .commaSeparated = arrayEncoding, let texts = scalarTexts(elements) {
                return [(escape(key), texts.map(escape).joined(separator: ","))]
            }
            return elements.enumerated().flatMap { index, element in
                queryComponents(fromKey: arrayEncoding.encode(key: key, atIndex: index), value: element)
            }
        case .bool(let flag):
            return [(escape(key), escape(boolEncoding.encode(value: flag)))]
        case .string(let string):
            return [(escape(key), escape(string))]
        case .int(let number):
            return [(escape(key), String(number))]
        case .number(let number):
            return [(escape(key), escape(number.text))]
        case .null:
            return [(escape(key), "")]
        }
    }

    /// The text of each element when all are scalars (`null` as empty); `nil` otherwise.
    private func scalarTexts(_ elements: [JSONValue]) -> [String]? {
        var texts: [String] = []
        for element in elements {
            switch element {
            case .string(let text): texts.append(text)
            case .int(let number): texts.append(String(number))
            case .number(let number): texts.append(number.text)
            case .bool(let flag): texts.append(boolEncoding.encode(value: flag))
            case .null: texts.append("")
            case .array, .object: return nil
            }
        }
        return texts
    }

    /// Percent-escapes a query key or value (RFC 3986, keeping `?` and `/`).
    public func escape(_ string: String) -> String {
        PercentEncoding.escapeQueryComponent(string)
    }

    private func query(_ parameters: JSONValue) -> String {
        let members = parameters.objectValue ?? []
        return
            members
            .sorted { $0.0 < $1.0 }
            .flatMap { queryComponents(fromKey: $0.0, value: $0.1) }
            .map { "\($0)=\($1)" }
            .joined(separator: "&")
    }
}
