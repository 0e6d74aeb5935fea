/// Walks JSON text that was validated (by `JSONParser`): no checks, no errors, no allocation
/// except for decoded strings. Only `JSONSpan` makes one, over text it validated.
struct JSONSpanReader {
    let bytes: UnsafeBufferPointer<UInt8>

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\t")
    }

    func skippingWhitespace(from start: Int) -> Int {
        var index = start
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        return index
    }

    /// The end of the string whose opening quote is at `start` (just past its closing quote).
    func endOfString(from start: Int) -> Int {
        var index = start + 1
        while true {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return index + 1 }
            index += byte == UInt8(ascii: "\\") ? 2 : 1
        }
    }

    /// The end of the value starting at `start`.
    func endOfValue(from start: Int) -> Int {
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return endOfString(from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while true {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = endOfString(from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
        default:
            // A number or a literal: it ends at a delimiter or at the end of the text.
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: " "), UInt8(ascii: "\n"),
                    UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                    return index
                default:
                    index += 1
                }
            }
            return index
        }
    }

    /// Calls `body` with each member (its quoted key's range and its value's) of the object, or
    /// each element (no key) of the array, in `container`, until `body` returns false.
    func forEachChild(of container: Range<Int>, _ body: (_ key: Range<Int>?, _ value: Range<Int>) -> Bool) {
        let isObject = bytes[container.lowerBound] == UInt8(ascii: "{")
        var index = skippingWhitespace(from: container.lowerBound + 1)
        if index == container.upperBound - 1 { return }  // `{}` or `[]`
        while true {
            var key: Range<Int>?
            if isObject {
                let keyEnd = endOfString(from: index)
                key = index..<keyEnd
                index = skippingWhitespace(from: keyEnd) + 1  // past ':'
                index = skippingWhitespace(from: index)
            }
            let end = endOfValue(from: index)
            guard body(key, index..<end) else { return }
            index = skippingWhitespace(from: end)
            guard bytes[index] == UInt8(ascii: ",") else { return }
            index = skippingWhitespace(from: index + 1)
        }
    }

    /// Whether the quoted key in `quoted` equals `key` as Swift compares strings (canonical
    /// equivalence: `"\u212A"` is `"K"`), comparing bytes where that gives the same answer.
    func key(_ quoted: Range<Int>, equals key: String, keyIsASCII: Bool) -> Bool {
        let content = (quoted.lowerBound + 1)..<(quoted.upperBound - 1)
        if keyIsASCII, !bytes[content].contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }) {
            return bytes[content].elementsEqual(key.utf8)
        }
        return decodedString(quoted: quoted) == key
    }

    /// The text of the string in `quoted` (with its quotes), its escapes decoded.
    func decodedString(quoted: Range<Int>) -> String {
        let content = UnsafeBufferPointer(rebasing: bytes[(quoted.lowerBound + 1)..<(quoted.upperBound - 1)])
        guard content.contains(UInt8(ascii: "\\")) else { return String(decoding: content, as: UTF8.self) }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(content.count)
        var index = quoted.lowerBound + 1
        let end = quoted.upperBound - 1
        while index < end {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                index += 1
                continue
            }
            let (scalar, next) = escape(at: index)
            UTF8.encode(scalar) { utf8.append($0) }
            index = next
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// The character the escape starting (with its backslash) at `start` stands for, and where
    /// the text goes on.
    func escape(at start: Int) -> (Unicode.Scalar, next: Int) {
        switch bytes[start + 1] {
        case UInt8(ascii: "b"): return ("\u{08}", start + 2)
        case UInt8(ascii: "f"): return ("\u{0C}", start + 2)
        case UInt8(ascii: "n"): return ("\n", start + 2)
        case UInt8(ascii: "r"): return ("\r", start + 2)
        case UInt8(ascii: "t"): return ("\t", start + 2)
        case UInt8(ascii: "u"):
            let first = hexQuad(at: start + 2)
            if (0xD800...0xDBFF).contains(first) {
                // Validated: a low surrogate's `\uXXXX` follows.
                let second = hexQuad(at: start + 8)
                let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                return (Unicode.Scalar(value) ?? "\u{FFFD}", start + 12)
            }
            return (Unicode.Scalar(first) ?? "\u{FFFD}", start + 6)
        default:
            // `\"`, `\\`, `\/`: the character itself.
            return (Unicode.Scalar(bytes[start + 1]), start + 2)
        }
    }

    private func hexQuad(at start: Int) -> UInt32 {
        var value: UInt32 = 0
        for byte in bytes[start..<(start + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: digit = byte - UInt8(ascii: "A") + 10
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
