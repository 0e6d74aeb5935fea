/// A JSON number kept as the text it is written in, so that it prints back exactly: integers of
/// any size, `-0`, `1E2`, `2.50`.
///
/// A `Double` would turn `12345678901234567890` into `1.2345678901234567e+19` (another id) and
/// `2.50` into `2.5`; the text loses nothing, and converts to `Int` or `Double` where a value is
/// needed.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal, valid under RFC 8259's grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`.
    public let text: String

    /// Text the caller has checked against the grammar (the parser, as it scans).
    init(uncheckedText text: String) {
        self.text = text
    }

    /// `text` if it is a JSON number literal, exactly.
    public init?(_ text: String) {
        var text = text
        guard text.withUTF8({ Self.isLiteral($0) }) else { return nil }
        self.text = text
    }

    /// A decimal numeral as people write it, spelled as JSON spells it.
    ///
    /// Takes `[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?`: no hexadecimal (`0x1p3`),
    /// `inf` or `nan`. The digits are kept as written (`2.50` stays `2.50`, `1e3` stays `1e3`);
    /// only what JSON does not allow changes: a leading `+` and leading zeros are dropped, `.5`
    /// becomes `0.5` and `5.` becomes `5`.
    public init?(decimal text: String) {
        var text = text
        guard let spelled = text.withUTF8({ Self.jsonSpelling(ofDecimal: $0) }) else { return nil }
        self.text = spelled
    }

    /// An integer, in its plain form.
    public init(_ value: Int) {
        self.text = String(value)
    }

    /// The shortest text that reads back as `value` (`1.0`, `0.1`, `1e-07`); `nil` for NaN and
    /// the infinities, which JSON cannot write.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.text = value.description
    }

    /// The literal.
    public var description: String { text }

    /// The value as an `Int`: an integer literal that fits, or any other literal whose value is a
    /// whole number that fits (`1E2`, `3.0`).
    public var intValue: Int? {
        if let integer = Int(text) { return integer }
        return Double(text).flatMap { Int(exactly: $0) }
    }

    /// The nearest `Double`; `nil` when the value is beyond `Double`'s range (`1e400`).
    public var doubleValue: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The `Int` this literal is the plain form of (`42`, `-7`; not `-0`, `1E2` or `1.0`).
    var plainInteger: Int? {
        guard let integer = Int(text), text == String(integer) else { return nil }
        return integer
    }
}

extension JSONNumber: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// An integer.
    public init(integerLiteral value: Int) { self.init(value) }
    /// A double, in its shortest form (literals are finite).
    public init(floatLiteral value: Double) { self.text = value.description }
}

// MARK: - Grammar

extension JSONNumber {
    /// Whether `bytes` is exactly a JSON number literal.
    static func isLiteral(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var position = 0
        func digits() -> Int {
            let start = position
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            return position - start
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count else { return false }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else if digits() == 0 {
            return false
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { return false }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else { return false }
        }
        return position == bytes.count
    }

    /// The JSON text of a decimal numeral (see `init(decimal:)`), or `nil` if it is not one.
    private static func jsonSpelling(ofDecimal bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var position = 0
        func digits() -> Range<Int> {
            let start = position
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            return start..<position
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 1)
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+") {
            if bytes[position] == UInt8(ascii: "-") { output.append(UInt8(ascii: "-")) }
            position += 1
        }
        let integer = digits()
        var fraction = position..<position
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            fraction = digits()
        }
        guard !integer.isEmpty || !fraction.isEmpty else { return nil }
        // Leading zeros go, but one stays before the point: `007.5` is `7.5`, `.5` is `0.5`.
        let significant = bytes[integer].drop(while: { $0 == UInt8(ascii: "0") })
        if significant.isEmpty {
            output.append(UInt8(ascii: "0"))
        } else {
            output.append(contentsOf: significant)
        }
        if !fraction.isEmpty {
            output.append(UInt8(ascii: "."))
            output.append(contentsOf: bytes[fraction])
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            output.append(bytes[position])
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                output.append(bytes[position])
                position += 1
            }
            let exponent = digits()
            guard !exponent.isEmpty else { return nil }
            output.append(contentsOf: bytes[exponent])
        }
        guard position == bytes.count else { return nil }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
