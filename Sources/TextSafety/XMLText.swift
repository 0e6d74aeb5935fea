/// Text safe in XML 1.0 attributes and content (JUnit reports).
package enum XMLText {
    /// `text` with markup escaped (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`), tab, LF and CR as
    /// character references (so attribute values keep them), and the characters XML 1.0 forbids
    /// (other C0 controls, U+FFFE, U+FFFF) replaced by U+FFFD. DEL, C1 and bidi controls are
    /// allowed in XML and left as they are.
    package static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += "&#10;"
            case "\t": result += "&#9;"
            case "\r": result += "&#13;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result += "\u{FFFD}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
