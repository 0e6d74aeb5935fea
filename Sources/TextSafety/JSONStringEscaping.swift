/// The inside of JSON strings, written as moya-cli's JSON writer writes them, and in the other
/// spellings JSON encoders use (for finding a secret in a body some other encoder wrote).
package enum JSONStringEscaping {
    /// `string` as a JSON string with its quotes: see ``appendEscaped(_:to:)``.
    @inlinable
    package static func appendQuoted(_ string: String, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in
            output.append(UInt8(ascii: "\""))
            appendEscaped(bytes, to: &output)
            output.append(UInt8(ascii: "\""))
        }
    }

    /// The inside of a JSON string holding the UTF-8 text `bytes`: `"` and `\` escaped, `\b \f \n
    /// \r \t` short, the other C0 controls and DEL as `\u00xx` (lowercase hex), every other byte
    /// as it is (so bytes that are not UTF-8 pass through: callers give text). Each byte is
    /// escaped or not on its own, so a long text can be escaped piece by piece.
    @inlinable
    package static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        // Nearly every string has nothing to escape: then its bytes go in at once, not one by one.
        if !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F }) {
            output.append(contentsOf: bytes)
            return
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case ..<0x20, 0x7F:
                let hex = String(byte, radix: 16, uppercase: false)
                output.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default:
                output.append(byte)
            }
        }
    }

    /// `scalar` inside a JSON string by the rule of ``appendEscaped(_:to:)`` (for text decoded
    /// from JSON and written again); with `escapingC1`, the C1 controls (U+0080...U+009F) are
    /// written `\u0080`... too, which the writer leaves as they are.
    @inlinable
    package static func appendEscaped(_ scalar: Unicode.Scalar, escapingC1: Bool, to output: inout [UInt8]) {
        switch scalar.value {
        case 0x22: output.append(contentsOf: #"\""#.utf8)
        case 0x5C: output.append(contentsOf: #"\\"#.utf8)
        case 0x08: output.append(contentsOf: #"\b"#.utf8)
        case 0x0C: output.append(contentsOf: #"\f"#.utf8)
        case 0x0A: output.append(contentsOf: #"\n"#.utf8)
        case 0x0D: output.append(contentsOf: #"\r"#.utf8)
        case 0x09: output.append(contentsOf: #"\t"#.utf8)
        case ..<0x20, 0x7F: appendHexEscape(UInt8(scalar.value), to: &output)
        case 0x80...0x9F where escapingC1: appendHexEscape(UInt8(scalar.value), to: &output)
        default: UTF8.encode(scalar) { output.append($0) }
        }
    }

    /// `\u00XX`, lowercase, as the writer spells a control it has no short escape for.
    @inlinable
    package static func appendHexEscape(_ value: UInt8, to output: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        output.append(contentsOf: #"\u00"#.utf8)
        output.append(digits[Int(value >> 4)])
        output.append(digits[Int(value & 0x0F)])
    }

    /// How an encoder writes characters outside ASCII: as they are, or as `\u` escapes of their
    /// UTF-16 units in lowercase or uppercase hex (the case of every `\u` escape then).
    package enum NonASCII: Sendable { case raw, lowercaseHex, uppercaseHex }

    /// `scalars` as the inside of a JSON string the way other encoders write it. `escapesSlash`:
    /// `\/` (PHP, some Java); `escapesHTML`: `<`, `>`, `&` as `\u003c`… (Go's encoding/json).
    ///
    /// Unlike ``appendEscaped(_:to:)``, DEL stays as it is, and with `.uppercaseHex` the control
    /// escapes are uppercase too (`\u001B`).
    package static func escaped(_ scalars: [Unicode.Scalar], escapesSlash: Bool, nonASCII: NonASCII, escapesHTML: Bool)
        -> String
    {
        let uppercase = nonASCII == .uppercaseHex
        func hex(_ unit: UInt16) -> String {
            let digits = String(unit, radix: 16, uppercase: uppercase)
            return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
        var text = ""
        for scalar in scalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case "/" where escapesSlash: text += "\\/"
            case "<" where escapesHTML, ">" where escapesHTML, "&" where escapesHTML: text += hex(UInt16(scalar.value))
            default:
                if scalar.value < 0x20 {
                    text += hex(UInt16(scalar.value))
                } else if !scalar.isASCII && nonASCII != .raw {
                    for unit in String(scalar).utf16 { text += hex(unit) }
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text
    }
}
