/// A coding key made at run time, for objects whose keys are data.
private struct DynamicCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

extension JSONValue: Codable {
    /// Encodes the value with any encoder (used by `PropertyListEncoding`).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .int(let number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case .number(let number):
            // Encoders take Swift numbers: the text is read as the nearest one (beyond Double's
            // range, an infinity, which the encoder refuses).
            var container = encoder.singleValueContainer()
            if let integer = Int(number.text) {
                try container.encode(integer)
            } else {
                try container.encode(Double(number.text) ?? .infinity)
            }
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let members):
            var container = encoder.container(keyedBy: DynamicCodingKey.self)
            for (key, value) in members { try container.encode(value, forKey: DynamicCodingKey(stringValue: key)) }
        }
    }

    /// Decodes any JSON-shaped value. Object member order follows the decoder's `allKeys`, which
    /// `JSONDecoder` does not promise; parse with `JSONValue(parsing:)` to keep the order.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: DynamicCodingKey.self) {
            var members: [(String, JSONValue)] = []
            for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members.append((key.stringValue, try container.decode(JSONValue.self, forKey: key)))
            }
            self = .object(members)
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd { elements.append(try container.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .int(number)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }
}
