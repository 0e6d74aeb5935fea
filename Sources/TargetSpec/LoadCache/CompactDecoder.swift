import OrderedJSON

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes what ``CompactEncoder`` wrote. The bytes are not trusted: every length and count is
/// checked against what is left, nesting is bounded, and anything out of place throws
/// `DecodingError.dataCorrupted` (the load cache then loads the file instead).
struct CompactDecoder {
    /// Containers nested deeper than this are refused: a validated file is at most the YAML
    /// loader's depth (64) and the model's few levels for each of its levels.
    static let maximumDepth = 512

    func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let input = CompactInput(bytes)
        let end = try input.end(ofValueAt: 0, depth: 0)
        guard end == input.count else { throw input.corrupted("trailing bytes after the value") }
        return try input.decodeValue(T.self, at: 0, depth: 0, codingPath: [])
    }
}

/// The bytes being decoded, shared by every container.
private final class CompactInput {
    let storage: UnsafeMutableRawBufferPointer
    var count: Int { storageCount }

    init(_ bytes: [UInt8]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { storage.baseAddress!.copyMemory(from: base, byteCount: source.count) }
        }
        self.storage = storage
        storageCount = bytes.count
    }

    /// The bytes decoded (`storage` has at least one, for an empty input).
    let storageCount: Int

    deinit { storage.deallocate() }

    func corrupted(_ why: String, _ codingPath: [any CodingKey] = []) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: "load cache entry: \(why)"))
    }

    func byte(at offset: Int) throws -> UInt8 {
        guard offset >= 0, offset < storageCount else { throw corrupted("ends early") }
        return storage[offset]
    }

    /// A LEB128 number and the offset after it.
    func varint(at offset: Int) throws -> (UInt64, Int) {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var position = offset
        while true {
            let byte = try byte(at: position)
            position += 1
            guard shift < 64 else { throw corrupted("a number is too long") }
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return (result, position) }
            shift += 7
        }
    }

    /// A length or count, at most what is left of the input.
    func length(at offset: Int) throws -> (Int, Int) {
        let (value, next) = try varint(at: offset)
        guard value <= UInt64(storageCount - next) else { throw corrupted("a length is larger than the entry") }
        return (Int(value), next)
    }

    /// Where the value at `offset` ends.
    func end(ofValueAt offset: Int, depth: Int) throws -> Int {
        switch try byte(at: offset) {
        case CompactFormat.null, CompactFormat.false, CompactFormat.true:
            return offset + 1
        case CompactFormat.signed, CompactFormat.unsigned:
            return try varint(at: offset + 1).1
        case CompactFormat.double:
            guard offset + 9 <= storageCount else { throw corrupted("ends early") }
            return offset + 9
        case CompactFormat.string, CompactFormat.data, CompactFormat.json, CompactFormat.keyed, CompactFormat.unkeyed:
            let (length, start) = try length(at: offset + 1)
            return start + length
        default:
            throw corrupted("unknown tag")
        }
    }

    func string(at offset: Int) throws -> (String, Int) {
        let (length, start) = try length(at: offset)
        let text = String(
            unsafeUninitializedCapacity: length,
            initializingUTF8With: { buffer in
                buffer.baseAddress!.initialize(
                    from: storage.baseAddress!.advanced(by: start).assumingMemoryBound(to: UInt8.self), count: length)
                return length
            })
        guard text.utf8.count == length else { throw corrupted("a string is not UTF-8") }
        return (text, start + length)
    }

    func expect(_ tag: UInt8, at offset: Int, _ what: String, _ codingPath: [any CodingKey]) throws {
        guard try byte(at: offset) == tag else { throw corrupted("expected \(what)", codingPath) }
    }

    func decodeString(at offset: Int, _ codingPath: [any CodingKey]) throws -> String {
        try expect(CompactFormat.string, at: offset, "a string", codingPath)
        return try string(at: offset + 1).0
    }

    func decodeBool(at offset: Int, _ codingPath: [any CodingKey]) throws -> Bool {
        switch try byte(at: offset) {
        case CompactFormat.true: return true
        case CompactFormat.false: return false
        default: throw corrupted("expected a Boolean", codingPath)
        }
    }

    func decodeSigned(at offset: Int, _ codingPath: [any CodingKey]) throws -> Int64 {
        try expect(CompactFormat.signed, at: offset, "an integer", codingPath)
        let raw = try varint(at: offset + 1).0
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    func decodeUnsigned(at offset: Int, _ codingPath: [any CodingKey]) throws -> UInt64 {
        try expect(CompactFormat.unsigned, at: offset, "an unsigned integer", codingPath)
        return try varint(at: offset + 1).0
    }

    func decodeDouble(at offset: Int, _ codingPath: [any CodingKey]) throws -> Double {
        try expect(CompactFormat.double, at: offset, "a number", codingPath)
        guard offset + 9 <= storageCount else { throw corrupted("ends early", codingPath) }
        var bits: UInt64 = 0
        withUnsafeMutableBytes(of: &bits) {
            $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[(offset + 1)..<(offset + 9)]))
        }
        return Double(bitPattern: UInt64(littleEndian: bits))
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type, at offset: Int, _ codingPath: [any CodingKey]) throws -> I {
        let value: I? =
            I.isSigned
            ? I(exactly: try decodeSigned(at: offset, codingPath))
            : I(exactly: try decodeUnsigned(at: offset, codingPath))
        guard let value else { throw corrupted("an integer out of range", codingPath) }
        return value
    }

    func decodeValue<T: Decodable>(_ type: T.Type, at offset: Int, depth: Int, codingPath: [any CodingKey]) throws -> T
    {
        if T.self == String.self { return try decodeString(at: offset, codingPath) as! T }
        if T.self == Int.self { return try integer(Int.self, at: offset, codingPath) as! T }
        if T.self == Bool.self { return try decodeBool(at: offset, codingPath) as! T }
        if T.self == Double.self { return try decodeDouble(at: offset, codingPath) as! T }
        if T.self == JSONValue.self {
            try expect(CompactFormat.json, at: offset, "JSON", codingPath)
            let text = try string(at: offset + 1).0
            do { return try JSONValue(parsing: text) as! T } catch { throw corrupted("invalid JSON", codingPath) }
        }
        if T.self == Data.self {
            try expect(CompactFormat.data, at: offset, "bytes", codingPath)
            let (length, start) = try length(at: offset + 1)
            return Data(UnsafeRawBufferPointer(rebasing: storage[start..<(start + length)])) as! T
        }
        guard depth < CompactDecoder.maximumDepth else { throw corrupted("nested too deeply", codingPath) }
        return try T(from: CompactValueDecoder(input: self, offset: offset, depth: depth + 1, codingPath: codingPath))
    }
}

private struct CompactValueDecoder: Decoder {
    let input: CompactInput
    let offset: Int
    let depth: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try input.expect(CompactFormat.keyed, at: offset, "a keyed container", codingPath)
        return KeyedDecodingContainer(try CompactKeyedDecoder<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try input.expect(CompactFormat.unkeyed, at: offset, "a list", codingPath)
        return try CompactUnkeyedDecoder(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        CompactSingleDecoder(decoder: self)
    }
}

private struct CompactKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: CompactValueDecoder
    var input: CompactInput { decoder.input }
    var codingPath: [any CodingKey] { decoder.codingPath }
    /// Each entry: where its key's bytes start, their count, and where its value starts.
    let entries: [(lengthAt: Int, keyStart: Int, keyLength: Int, value: Int)]

    init(decoder: CompactValueDecoder) throws {
        self.decoder = decoder
        let input = decoder.input
        let (length, start) = try input.length(at: decoder.offset + 1)
        let end = start + length
        var (count, position) = try input.length(at: start)
        var entries: [(lengthAt: Int, keyStart: Int, keyLength: Int, value: Int)] = []
        entries.reserveCapacity(count)
        while count > 0 {
            let lengthAt = position
            let (keyLength, keyStart) = try input.length(at: position)
            let value = keyStart + keyLength
            position = try input.end(ofValueAt: value, depth: decoder.depth)
            guard position <= end else { throw input.corrupted("an entry overruns its container", decoder.codingPath) }
            entries.append((lengthAt, keyStart, keyLength, value))
            count -= 1
        }
        guard position == end else { throw input.corrupted("a container's length is wrong", decoder.codingPath) }
        self.entries = entries
    }

    var allKeys: [Key] {
        entries.compactMap { entry in (try? input.string(at: entry.lengthAt)).flatMap { Key(stringValue: $0.0) } }
    }

    private func valueOffset(_ key: Key) -> Int? {
        var name = key.stringValue
        return name.withUTF8 { utf8 -> Int? in
            for entry in entries where entry.keyLength == utf8.count {
                if utf8.isEmpty
                    || memcmp(utf8.baseAddress!, input.storage.baseAddress!.advanced(by: entry.keyStart), utf8.count)
                        == 0
                {
                    return entry.value
                }
            }
            return nil
        }
    }

    private func required(_ key: Key) throws -> Int {
        guard let offset = valueOffset(key) else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "load cache entry: no such key"))
        }
        return offset
    }

    func contains(_ key: Key) -> Bool { valueOffset(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        try input.byte(at: try required(key)) == CompactFormat.null
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try input.decodeBool(at: try required(key), codingPath + [key])
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try input.decodeString(at: try required(key), codingPath + [key])
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try input.decodeDouble(at: try required(key), codingPath + [key])
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        Float(try input.decodeDouble(at: try required(key), codingPath + [key]))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    private func integer<I: FixedWidthInteger>(_ type: I.Type, _ key: Key) throws -> I {
        try input.integer(type, at: try required(key), codingPath + [key])
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try input.decodeValue(type, at: try required(key), depth: decoder.depth, codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    private func child(_ key: Key) throws -> CompactValueDecoder {
        guard decoder.depth < CompactDecoder.maximumDepth else {
            throw input.corrupted("nested too deeply", codingPath)
        }
        return CompactValueDecoder(
            input: input, offset: try required(key), depth: decoder.depth + 1, codingPath: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder { throw input.corrupted("superDecoder is not used", codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw input.corrupted("superDecoder is not used", codingPath)
    }
}

private struct CompactUnkeyedDecoder: UnkeyedDecodingContainer {
    let decoder: CompactValueDecoder
    var input: CompactInput { decoder.input }
    var codingPath: [any CodingKey] { decoder.codingPath }
    let count: Int?
    var currentIndex = 0
    /// Where the next value starts, and where the container ends.
    var position: Int
    let end: Int

    init(decoder: CompactValueDecoder) throws {
        self.decoder = decoder
        let (length, start) = try decoder.input.length(at: decoder.offset + 1)
        end = start + length
        let (count, first) = try decoder.input.length(at: start)
        // Every value takes at least one byte.
        guard count <= end - first else { throw decoder.input.corrupted("a list's count is wrong", decoder.codingPath) }
        self.count = count
        position = first
    }

    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    private mutating func next() throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self,
                DecodingError.Context(codingPath: codingPath, debugDescription: "load cache entry: list ended"))
        }
        let offset = position
        position = try input.end(ofValueAt: offset, depth: decoder.depth)
        guard position <= end else { throw input.corrupted("a value overruns its list", codingPath) }
        currentIndex += 1
        return offset
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, try input.byte(at: position) == CompactFormat.null else { return false }
        _ = try next()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try input.decodeBool(at: try next(), codingPath) }
    mutating func decode(_ type: String.Type) throws -> String { try input.decodeString(at: try next(), codingPath) }
    mutating func decode(_ type: Double.Type) throws -> Double { try input.decodeDouble(at: try next(), codingPath) }
    mutating func decode(_ type: Float.Type) throws -> Float {
        Float(try input.decodeDouble(at: try next(), codingPath))
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try input.integer(type, at: try next(), codingPath) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try input.integer(type, at: try next(), codingPath) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try input.integer(type, at: try next(), codingPath) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try input.integer(type, at: try next(), codingPath) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try input.integer(type, at: try next(), codingPath) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try input.integer(type, at: try next(), codingPath) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try input.integer(type, at: try next(), codingPath) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try input.integer(type, at: try next(), codingPath) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try input.integer(type, at: try next(), codingPath) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try input.integer(type, at: try next(), codingPath) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try input.decodeValue(type, at: try next(), depth: decoder.depth, codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try child().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try child().unkeyedContainer()
    }

    private mutating func child() throws -> CompactValueDecoder {
        guard decoder.depth < CompactDecoder.maximumDepth else {
            throw input.corrupted("nested too deeply", codingPath)
        }
        return CompactValueDecoder(input: input, offset: try next(), depth: decoder.depth + 1, codingPath: codingPath)
    }

    mutating func superDecoder() throws -> any Decoder { throw input.corrupted("superDecoder is not used", codingPath) }
}

private struct CompactSingleDecoder: SingleValueDecodingContainer {
    let decoder: CompactValueDecoder
    var input: CompactInput { decoder.input }
    var codingPath: [any CodingKey] { decoder.codingPath }
    var offset: Int { decoder.offset }

    func decodeNil() -> Bool { (try? input.byte(at: offset)) == CompactFormat.null }
    func decode(_ type: Bool.Type) throws -> Bool { try input.decodeBool(at: offset, codingPath) }
    func decode(_ type: String.Type) throws -> String { try input.decodeString(at: offset, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try input.decodeDouble(at: offset, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try input.decodeDouble(at: offset, codingPath)) }
    func decode(_ type: Int.Type) throws -> Int { try input.integer(type, at: offset, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try input.integer(type, at: offset, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try input.integer(type, at: offset, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try input.integer(type, at: offset, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try input.integer(type, at: offset, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try input.integer(type, at: offset, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try input.integer(type, at: offset, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try input.integer(type, at: offset, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try input.integer(type, at: offset, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try input.integer(type, at: offset, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try input.decodeValue(type, at: offset, depth: decoder.depth, codingPath: codingPath)
    }
}
