import OrderedJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A compact binary form for `Codable` values, exact for every type the target model holds: what
/// the load cache (``LoadCache``) keeps of a validated file, read back by ``CompactDecoder``.
///
/// Each value is a tag byte and its payload: nil, false, true, a signed integer (zigzag LEB128),
/// an unsigned one (LEB128), a double (its 8 bytes), a string (length and UTF-8), a keyed
/// container (its length in bytes, its count, then each key and value), an unkeyed one (length,
/// count, values), `Data` (length and bytes) and a `JSONValue` as its JSON text (its own `Codable`
/// form turns `1.50` into `1.5` and sorts members, so it is not used). A container says its length
/// so a reader skips what it does not ask for.
enum CompactFormat {
    static let null: UInt8 = 0
    static let `false`: UInt8 = 1
    static let `true`: UInt8 = 2
    static let signed: UInt8 = 3
    static let unsigned: UInt8 = 4
    static let double: UInt8 = 5
    static let string: UInt8 = 6
    static let keyed: UInt8 = 7
    static let unkeyed: UInt8 = 8
    static let data: UInt8 = 9
    static let json: UInt8 = 10

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    static func appendString(_ string: String, to bytes: inout [UInt8]) {
        var string = string
        string.withUTF8 { utf8 in
            appendVarint(UInt64(utf8.count), to: &bytes)
            bytes.append(contentsOf: utf8)
        }
    }
}

/// Encodes a value in ``CompactFormat``.
struct CompactEncoder {
    func encode(_ value: some Encodable) throws -> [UInt8] {
        let slot = try CompactEncoding.encodeValue(value, codingPath: [])
        var bytes: [UInt8] = []
        slot.write(to: &bytes)
        return bytes
    }
}

/// A value being encoded: bytes already final, or a container still being filled.
private enum CompactSlot {
    case bytes([UInt8])
    case keyed(CompactKeyedBox)
    case unkeyed(CompactUnkeyedBox)

    func write(to bytes: inout [UInt8]) {
        switch self {
        case .bytes(let own):
            bytes.append(contentsOf: own)
        case .keyed(let box):
            var body: [UInt8] = []
            CompactFormat.appendVarint(UInt64(box.entries.count), to: &body)
            for (key, value) in box.entries {
                CompactFormat.appendString(key, to: &body)
                value.write(to: &body)
            }
            bytes.append(CompactFormat.keyed)
            CompactFormat.appendVarint(UInt64(body.count), to: &bytes)
            bytes.append(contentsOf: body)
        case .unkeyed(let box):
            var body: [UInt8] = []
            CompactFormat.appendVarint(UInt64(box.items.count), to: &body)
            for item in box.items { item.write(to: &body) }
            bytes.append(CompactFormat.unkeyed)
            CompactFormat.appendVarint(UInt64(body.count), to: &bytes)
            bytes.append(contentsOf: body)
        }
    }
}

private final class CompactKeyedBox {
    var entries: [(String, CompactSlot)] = []
}

private final class CompactUnkeyedBox {
    var items: [CompactSlot] = []
}

private enum CompactEncoding {
    static func primitive(_ tag: UInt8) -> CompactSlot { .bytes([tag]) }

    static func signed(_ value: Int64) -> CompactSlot {
        var bytes = [CompactFormat.signed]
        CompactFormat.appendVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
        return .bytes(bytes)
    }

    static func unsigned(_ value: UInt64) -> CompactSlot {
        var bytes = [CompactFormat.unsigned]
        CompactFormat.appendVarint(value, to: &bytes)
        return .bytes(bytes)
    }

    static func double(_ value: Double) -> CompactSlot {
        var bytes = [CompactFormat.double]
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        return .bytes(bytes)
    }

    static func string(_ value: String) -> CompactSlot {
        var bytes = [CompactFormat.string]
        CompactFormat.appendString(value, to: &bytes)
        return .bytes(bytes)
    }

    /// `value`, with the types whose own `Codable` form is not exact (or is slow) written directly.
    static func encodeValue<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> CompactSlot {
        if T.self == String.self { return string(value as! String) }
        if T.self == Int.self { return signed(Int64(value as! Int)) }
        if T.self == Bool.self { return primitive((value as! Bool) ? CompactFormat.true : CompactFormat.false) }
        if T.self == Double.self { return double(value as! Double) }
        if T.self == JSONValue.self {
            var bytes = [CompactFormat.json]
            CompactFormat.appendString((value as! JSONValue).serializedString(), to: &bytes)
            return .bytes(bytes)
        }
        if T.self == Data.self {
            let data = value as! Data
            var bytes = [CompactFormat.data]
            CompactFormat.appendVarint(UInt64(data.count), to: &bytes)
            bytes.append(contentsOf: data)
            return .bytes(bytes)
        }
        let encoder = CompactValueEncoder(codingPath: codingPath)
        try value.encode(to: encoder)
        guard let slot = encoder.slot else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: codingPath, debugDescription: "encoded nothing"))
        }
        return slot
    }
}

private final class CompactValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var slot: CompactSlot?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: CompactKeyedBox
        if case .keyed(let existing) = slot {
            box = existing
        } else {
            box = CompactKeyedBox()
            slot = .keyed(box)
        }
        return KeyedEncodingContainer(CompactKeyedEncoder<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: CompactUnkeyedBox
        if case .unkeyed(let existing) = slot {
            box = existing
        } else {
            box = CompactUnkeyedBox()
            slot = .unkeyed(box)
        }
        return CompactUnkeyedEncoder(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        CompactSingleEncoder(encoder: self)
    }
}

private struct CompactKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: CompactKeyedBox
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        box.entries.append((key.stringValue, CompactEncoding.primitive(CompactFormat.null)))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.entries.append((key.stringValue, try CompactEncoding.encodeValue(value, codingPath: codingPath + [key])))
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        box.entries.append(
            (key.stringValue, CompactEncoding.primitive(value ? CompactFormat.true : CompactFormat.false)))
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        box.entries.append((key.stringValue, CompactEncoding.string(value)))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        box.entries.append((key.stringValue, CompactEncoding.double(value)))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        box.entries.append((key.stringValue, CompactEncoding.double(Double(value))))
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { add(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { add(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { add(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { add(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { add(.signed(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { add(.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { add(.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { add(.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { add(.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { add(.unsigned(value), key) }

    private enum Number { case signed(Int64), unsigned(UInt64) }

    private func add(_ number: Number, _ key: Key) {
        switch number {
        case .signed(let value): box.entries.append((key.stringValue, CompactEncoding.signed(value)))
        case .unsigned(let value): box.entries.append((key.stringValue, CompactEncoding.unsigned(value)))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = CompactKeyedBox()
        box.entries.append((key.stringValue, .keyed(nested)))
        return KeyedEncodingContainer(CompactKeyedEncoder<NestedKey>(box: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = CompactUnkeyedBox()
        box.entries.append((key.stringValue, .unkeyed(nested)))
        return CompactUnkeyedEncoder(box: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { fatalError("superEncoder is not used by the target model") }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        fatalError("superEncoder is not used by the target model")
    }
}

private struct CompactUnkeyedEncoder: UnkeyedEncodingContainer {
    let box: CompactUnkeyedBox
    let codingPath: [any CodingKey]
    var count: Int { box.items.count }

    mutating func encodeNil() throws { box.items.append(CompactEncoding.primitive(CompactFormat.null)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        box.items.append(try CompactEncoding.encodeValue(value, codingPath: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = CompactKeyedBox()
        box.items.append(.keyed(nested))
        return KeyedEncodingContainer(CompactKeyedEncoder<NestedKey>(box: nested, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = CompactUnkeyedBox()
        box.items.append(.unkeyed(nested))
        return CompactUnkeyedEncoder(box: nested, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { fatalError("superEncoder is not used by the target model") }
}

private struct CompactSingleEncoder: SingleValueEncodingContainer {
    let encoder: CompactValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.slot = CompactEncoding.primitive(CompactFormat.null) }
    mutating func encode(_ value: Bool) throws {
        encoder.slot = CompactEncoding.primitive(value ? CompactFormat.true : CompactFormat.false)
    }
    mutating func encode(_ value: String) throws { encoder.slot = CompactEncoding.string(value) }
    mutating func encode(_ value: Double) throws { encoder.slot = CompactEncoding.double(value) }
    mutating func encode(_ value: Float) throws { encoder.slot = CompactEncoding.double(Double(value)) }
    mutating func encode(_ value: Int) throws { encoder.slot = CompactEncoding.signed(Int64(value)) }
    mutating func encode(_ value: Int8) throws { encoder.slot = CompactEncoding.signed(Int64(value)) }
    mutating func encode(_ value: Int16) throws { encoder.slot = CompactEncoding.signed(Int64(value)) }
    mutating func encode(_ value: Int32) throws { encoder.slot = CompactEncoding.signed(Int64(value)) }
    mutating func encode(_ value: Int64) throws { encoder.slot = CompactEncoding.signed(value) }
    mutating func encode(_ value: UInt) throws { encoder.slot = CompactEncoding.unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { encoder.slot = CompactEncoding.unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { encoder.slot = CompactEncoding.unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { encoder.slot = CompactEncoding.unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { encoder.slot = CompactEncoding.unsigned(value) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.slot = try CompactEncoding.encodeValue(value, codingPath: codingPath)
    }
}
