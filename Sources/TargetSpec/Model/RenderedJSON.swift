/// A JSON value with every placeholder filled in, object members in file order.
public indirect enum RenderedJSON: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A floating-point number (always finite: the loader refuses NaN and infinities).
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([RenderedJSON])
    /// An object, members in order.
    case object([Member])

    /// One member of an object.
    public struct Member: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The value.
        public var value: RenderedJSON

        /// Creates a member.
        public init(key: String, value: RenderedJSON) {
            self.key = key
            self.value = value
        }
    }

    /// The value as compact JSON text, members in order.
    public var jsonText: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .int(let number): output += String(number)
        case .double(let number): output += number.isFinite ? String(number) : "null"
        case .string(let text): Self.writeString(text, to: &output)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(member.key, to: &output)
                output += ":"
                member.value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
