/// A Swift value that has no JSON form, and where it was found among the parameters.
public struct JSONConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the value cannot be converted.
    public enum Reason: Sendable, Hashable {
        /// The type is neither a JSON scalar, an array, a `[String: ...]` dictionary nor `Encodable`.
        case unsupportedType(String)
        /// NaN or infinity, which JSON cannot hold.
        case nonFiniteNumber
        /// An `Encodable` value whose encoding failed.
        case encodingFailed(String)
    }

    /// Why the value cannot be converted.
    public let reason: Reason
    /// The dotted path of the value among the parameters, e.g. `"user.tags.2"`; empty for the root.
    public let keyPath: String

    /// Creates an error.
    public init(reason: Reason, keyPath: String) {
        self.reason = reason
        self.keyPath = keyPath
    }

    public var description: String {
        let location = keyPath.isEmpty ? "the value" : "the value at '\(keyPath)'"
        switch reason {
        case .unsupportedType(let type):
            return
                "\(location) has type \(type), which has no JSON form; use String, Int, Double, Bool, arrays, [String: ...] dictionaries, JSONValue or an Encodable type"
        case .nonFiniteNumber:
            return "\(location) is NaN or infinite, which JSON cannot represent"
        case .encodingFailed(let message):
            return "\(location) could not be encoded: \(message)"
        }
    }
}
