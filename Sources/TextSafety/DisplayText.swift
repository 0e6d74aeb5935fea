/// The one sanitiser for text from a target file or a server that is shown to a person (a
/// terminal, a log line): control characters cannot move the cursor, retitle the window, clear
/// the screen, ring the bell or reorder text, because they are shown escaped.
///
/// Escaped: C0 controls (`\e`, `\a`, `\0`, `\r`, `\x01`...), DEL (`\x7f`), C1 controls (`\u{9b}`...)
/// and the bidirectional overrides and isolates (`\u{202e}`...). A backslash is left alone: the
/// output is for reading, not for parsing back. Files and pipes that get a response's bytes
/// never pass through here.
package enum DisplayText {
    /// `text` with control characters escaped. With `keepingLineBreaks`, `\n`, `\r\n` and `\t`
    /// stay (for multi-line output such as a pretty-printed body); otherwise the result is one
    /// line. `keepingOwnEscapes` keeps ESC: only for text whose every ESC is the caller's own
    /// (colored JSON, whose strings carry theirs as `\u001b`).
    package static func escaped(_ text: String, keepingLineBreaks: Bool = false, keepingOwnEscapes: Bool = false)
        -> String
    {
        // Printable ASCII (nearly every id, URL and reason) has nothing to escape: the bytes tell
        // at once, without decoding scalars (`check` shows thousands of lines).
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        let escapes = { (scalar: Unicode.Scalar) in
            needsEscape(scalar, keepingLineBreaks: keepingLineBreaks) && !(keepingOwnEscapes && scalar == "\u{1B}")
        }
        guard text.unicodeScalars.contains(where: escapes) else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count + 8)
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let endsLine = scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n"
            guard escapes(scalar), !(keepingLineBreaks && endsLine) else {
                output.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\u{1B}": output += "\\e"
            case "\u{07}": output += "\\a"
            case "\u{00}": output += "\\0"
            case "\r": output += "\\r"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            default:
                let hex = String(scalar.value, radix: 16)
                output += scalar.value < 0x80 ? "\\x" + (hex.count == 1 ? "0" : "") + hex : "\\u{\(hex)}"
            }
        }
        return output
    }

    /// Server text in a one-line message (paging's errors): the first `limit` scalars, with C0
    /// controls, DEL and C1 controls escaped as Swift spells them (`\n`, `\0`, `\u{1B}`,
    /// `\u{009B}`), and `…` after text that was cut, so a hostile header can neither move the
    /// terminal nor flood it.
    ///
    /// Unlike ``escaped(_:keepingLineBreaks:keepingOwnEscapes:)``: ESC and BEL are spelled
    /// `\u{1B}` and `\u{07}`, other controls `\u{01}` rather than `\x01`, C1 controls `\u{0085}`,
    /// hex is uppercase, the bidirectional controls are left as they are, and the text is cut.
    package static func escapedAndCut(_ text: String, limit: Int = 200) -> String {
        var output = ""
        for scalar in text.unicodeScalars.prefix(limit) {
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                output += scalar.escaped(asASCII: true)
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return text.unicodeScalars.count > limit ? output + "…" : output
    }

    /// Whether `scalar` is shown escaped.
    static func needsEscape(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: !keepingLineBreaks
        case 0x00..<0x20, 0x7F, 0x80..<0xA0: true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
