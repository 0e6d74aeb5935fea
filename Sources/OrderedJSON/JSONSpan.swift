#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One value of a JSON text, read in place: where its bytes are in the text, not a tree.
///
/// A parsed `JSONValue` takes many times its text (an enum case, a string or an array for every
/// value); a span holds the text once and a range, so a command that needs one part of a large
/// body (`--keypath`, a page's items) or writes it out again (`--format json`) stays within a small
/// multiple of the body. The text is validated when the root span is made, as `JSONValue` would
/// parse it, so reading a span never fails and never disagrees with the parsed value.
public struct JSONSpan: Sendable {
    /// What kind of value a span holds.
    public enum Kind: Sendable, Hashable {
        case null, bool, number, string, array, object
    }

    /// The whole JSON text this value is part of.
    public let text: Data
    /// The value's bytes, as offsets from the start of `text` (no surrounding whitespace).
    public let byteRange: Range<Int>

    /// The value that fills `text`.
    /// - Throws: the error `JSONValue(parsing:)` throws when `text` is not JSON.
    public init(validating text: Data) throws(JSONParseError) {
        try JSONValue.validate(text)
        self.text = text
        byteRange = text.withUnsafeBytes { raw in
            var lower = 0
            var upper = raw.count
            while lower < upper, JSONSpanReader.isWhitespace(raw[lower]) { lower += 1 }
            while upper > lower, JSONSpanReader.isWhitespace(raw[upper - 1]) { upper -= 1 }
            return lower..<upper
        }
    }

    private init(text: Data, byteRange: Range<Int>) {
        self.text = text
        self.byteRange = byteRange
    }

    /// Runs `body` with a reader over the text.
    func withReader<Result>(_ body: (JSONSpanReader) -> Result) -> Result {
        text.withUnsafeBytes { raw in body(JSONSpanReader(bytes: raw.bindMemory(to: UInt8.self))) }
    }

    /// The kind of value.
    public var kind: Kind {
        withReader { reader in
            switch reader.bytes[byteRange.lowerBound] {
            case UInt8(ascii: "{"): .object
            case UInt8(ascii: "["): .array
            case UInt8(ascii: "\""): .string
            case UInt8(ascii: "n"): .null
            case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
            default: .number
            }
        }
    }

    /// The parsed value (of this span only).
    public var value: JSONValue {
        let slice = text[(text.startIndex + byteRange.lowerBound)..<(text.startIndex + byteRange.upperBound)]
        // Valid by construction: the whole text was validated, and a value of it is JSON alone.
        return (try? JSONValue(parsing: slice)) ?? .null
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        guard kind == .string else { return nil }
        return withReader { $0.decodedString(quoted: byteRange) }
    }

    /// The elements in order, if this is an array.
    public var elements: [JSONSpan]? {
        guard kind == .array else { return nil }
        var elements: [JSONSpan] = []
        withReader { reader in
            reader.forEachChild(of: byteRange) { _, value in
                elements.append(JSONSpan(text: text, byteRange: value))
                return true
            }
        }
        return elements
    }

    /// Calls `body` with each element in order, if this is an array: one at a time, so an array
    /// of any length takes no memory per element.
    public func forEachElement(_ body: (JSONSpan) -> Void) {
        guard kind == .array else { return }
        withReader { reader in
            reader.forEachChild(of: byteRange) { _, value in
                body(JSONSpan(text: text, byteRange: value))
                return true
            }
        }
    }

    /// The element at `index`, if this is an array long enough.
    public func element(at index: Int) -> JSONSpan? {
        guard index >= 0, kind == .array else { return nil }
        var found: Range<Int>?
        var position = 0
        withReader { reader in
            reader.forEachChild(of: byteRange) { _, value in
                if position == index {
                    found = value
                    return false
                }
                position += 1
                return true
            }
        }
        return found.map { JSONSpan(text: text, byteRange: $0) }
    }

    /// The value of the last member named `key` (as `JSONValue`'s subscript: keys compared as
    /// Swift strings), if this is an object that has one.
    public func member(named key: String) -> JSONSpan? {
        guard kind == .object else { return nil }
        var found: Range<Int>?
        let keyIsASCII = key.utf8.allSatisfy { $0 < 0x80 }
        withReader { reader in
            reader.forEachChild(of: byteRange) { name, value in
                if let name, reader.key(name, equals: key, keyIsASCII: keyIsASCII) { found = value }
                return true
            }
        }
        return found.map { JSONSpan(text: text, byteRange: $0) }
    }

    /// The value at a dotted key path, as `JSONValue.value(atKeyPath:)` finds it.
    public func value(atKeyPath keyPath: String) -> JSONSpan? {
        guard !keyPath.isEmpty else { return self }
        var current = self
        for component in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            let key = String(component)
            if current.kind == .array {
                guard let index = Int(key), let element = current.element(at: index) else { return nil }
                current = element
            } else {
                guard let member = current.member(named: key) else { return nil }
                current = member
            }
        }
        return current
    }

    /// The compact JSON text of the value, as `value.serializedBytes()` writes it; with
    /// `escapingC1`, the C1 controls (U+0080...U+009F) in strings are written `\u0080`...
    public func compactBytes(escapingC1: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        withReader { reader in
            var writer = JSONCompactTranscoder(reader: reader, escapesC1: escapingC1)
            writer.write(byteRange, into: &output, flushingAt: .max) { _ in }
        }
        return output
    }

    /// ``compactBytes(escapingC1:)`` handed to `emit` in pieces of about `chunkSize` bytes, so a
    /// large value is written out without being held twice.
    public func writeCompact(escapingC1: Bool = false, chunkSize: Int = 1 << 16, to emit: ([UInt8]) -> Void) {
        var output: [UInt8] = []
        output.reserveCapacity(min(chunkSize, byteRange.count) + 16)
        appendCompact(escapingC1: escapingC1, to: &output, flushingAt: chunkSize, emit)
        if !output.isEmpty { emit(output) }
    }

    /// ``compactBytes(escapingC1:)`` appended to `output`, which is handed to `emit` and emptied
    /// whenever it holds `threshold` bytes or more; what is left stays in `output` (one buffer
    /// serves many values).
    public func appendCompact(
        escapingC1: Bool = false, to output: inout [UInt8], flushingAt threshold: Int,
        _ emit: ([UInt8]) -> Void
    ) {
        withReader { reader in
            var writer = JSONCompactTranscoder(reader: reader, escapesC1: escapingC1)
            writer.write(byteRange, into: &output, flushingAt: threshold, emit)
        }
    }
}

extension JSONSpan.Kind: CustomStringConvertible {
    /// `null`, `a bool`, `a number`, `a string`, `an array`, `an object`: as messages name them.
    public var description: String {
        switch self {
        case .null: "null"
        case .bool: "a bool"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
