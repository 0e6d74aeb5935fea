/// Text a YAML reader (libyaml) reads back exactly: double-quoted scalars and comment lines.
package enum YAMLScalar {
    /// A double-quoted YAML scalar: `"` and `\` escaped, `\n`, `\t`, `\r` short, other C0 controls
    /// and DEL as `\xXX`, and the C1 controls, YAML's own line breaks (U+0085, U+2028, U+2029) and
    /// the byte-order mark as `\uXXXX` (uppercase hex). Bidi controls are left: YAML allows them.
    package static func doubleQuoted(_ text: String) -> String {
        // Printable ASCII without `"` or `\` (most quoted text: paths, templates, URLs) is
        // written as it is; appending scalar by scalar costs many times as much.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) { return "\"" + text + "\"" }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: result += "\\\""
            case 0x5C: result += "\\\\"
            case 0x0A: result += "\\n"
            case 0x09: result += "\\t"
            case 0x0D: result += "\\r"
            case 0..<0x20, 0x7F:
                result += "\\x" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            case 0x80...0x9F, 0x2028, 0x2029, 0xFEFF:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `text` on one line for a `#` comment: control characters escaped as everywhere moya-cli
    /// shows text (``DisplayText``), and the characters YAML also reads as line breaks or a
    /// byte-order mark (U+2028, U+2029, U+FEFF), which would end the comment, as `\u{...}`.
    package static func commentLine(_ text: String) -> String {
        var result = ""
        for scalar in DisplayText.escaped(text).unicodeScalars {
            switch scalar.value {
            case 0x2028, 0x2029, 0xFEFF: result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A double-quoted scalar in JSON string syntax, which YAML accepts (TAP's YAML blocks):
    /// what ``JSONStringEscaping/appendQuoted(_:to:)`` writes.
    package static func jsonQuoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONStringEscaping.appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
