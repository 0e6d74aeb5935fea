#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JSONValue {
    /// Converts a Swift value: `JSONValue`, `Bool`, `String`, integers, floating point numbers,
    /// `nil` (an `Optional` holding nothing), arrays, `[String: ...]` dictionaries (their keys
    /// sorted, so the output is reproducible) and, failing those, any `Encodable` value.
    public init(converting value: Any) throws(JSONConversionError) {
        self = try Self.convert(value, keyPath: "")
    }

    /// Converts request parameters into an object whose members are sorted by key.
    public init(parameters: [String: any Sendable]) throws(JSONConversionError) {
        var members: [(String, JSONValue)] = []
        members.reserveCapacity(parameters.count)
        for key in parameters.keys.sorted() {
            guard let value = parameters[key] else { continue }
            members.append((key, try Self.convert(value, keyPath: key)))
        }
        self = .object(members)
    }

    /// Encodes an `Encodable` value with `encoder` and parses the result.
    public init(encoding value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws(JSONConversionError) {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw JSONConversionError(reason: .encodingFailed(String(describing: error)), keyPath: "")
        }
        do {
            self = try JSONValue(parsing: data)
        } catch {
            throw JSONConversionError(reason: .encodingFailed(error.description), keyPath: "")
        }
    }

    private static func convert(_ value: Any, keyPath: String) throws(JSONConversionError) -> JSONValue {
        switch value {
        case let json as JSONValue: return json
        case let flag as Bool: return .bool(flag)
        case let string as String: return .string(string)
        case let substring as Substring: return .string(String(substring))
        case let integer as Int: return .int(integer)
        case let integer as any BinaryInteger:
            // Beyond `Int` (a large `UInt64`), the digits are kept as they are.
            guard let fitting = Int(exactly: integer) else {
                return .number(JSONNumber(uncheckedText: String(integer)))
            }
            return .int(fitting)
        case let number as Double: return try finite(number, keyPath: keyPath)
        case let number as Float: return try finite(Double(number), keyPath: keyPath)
        case let dictionary as [String: Any]:
            var members: [(String, JSONValue)] = []
            members.reserveCapacity(dictionary.count)
            for key in dictionary.keys.sorted() {
                guard let member = dictionary[key] else { continue }
                members.append((key, try convert(member, keyPath: join(keyPath, key))))
            }
            return .object(members)
        case let array as [Any]:
            var elements: [JSONValue] = []
            elements.reserveCapacity(array.count)
            for (index, element) in array.enumerated() {
                elements.append(try convert(element, keyPath: join(keyPath, String(index))))
            }
            return .array(elements)
        default:
            return try convertOther(value, keyPath: keyPath)
        }
    }

    private static func convertOther(_ value: Any, keyPath: String) throws(JSONConversionError) -> JSONValue {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return .null }
            return try convert(wrapped, keyPath: keyPath)
        }
        if let encodable = value as? any Encodable {
            do {
                return try JSONValue(encoding: encodable)
            } catch {
                throw JSONConversionError(reason: error.reason, keyPath: keyPath)
            }
        }
        throw JSONConversionError(reason: .unsupportedType(String(describing: type(of: value))), keyPath: keyPath)
    }

    private static func finite(_ number: Double, keyPath: String) throws(JSONConversionError) -> JSONValue {
        guard let finite = JSONNumber(number) else {
            throw JSONConversionError(reason: .nonFiniteNumber, keyPath: keyPath)
        }
        return .number(finite)
    }

    private static func join(_ keyPath: String, _ component: String) -> String {
        keyPath.isEmpty ? component : keyPath + "." + component
    }
}
