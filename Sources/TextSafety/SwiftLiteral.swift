/// Text from a target file written into Swift source: string literals and comment lines that
/// neither end early nor hide what they hold.
package enum SwiftLiteral {
    /// `text` as a Swift string literal with its quotes: `"` and `\` escaped (so no `\(` can
    /// interpolate), the common controls short (`\n`), every other control, format character
    /// (bidirectional overrides included), separator other than space, private-use or unassigned
    /// scalar as `\u{XX}`; printable text as it is.
    package static func quoted(_ text: String) -> String {
        "\"" + escaped(text) + "\""
    }

    /// The inside of a Swift string literal holding `text` (see ``quoted(_:)``).
    package static func escaped(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            return text
        }
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\0": output += "\\0"
            default:
                if isHidden(scalar) {
                    output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }

    /// `text` as the text of one `//` comment line: line breaks as spaces, and what `quoted`
    /// escapes written as `\u{XX}`, so a comment can neither end nor show something it does not hold.
    package static func commentText(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" || scalar == "\t" {
                output += " "
            } else if isHidden(scalar) {
                output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        while output.last == " " { output.removeLast() }
        return output
    }

    /// Whether `scalar` would be invisible or change how the text around it shows.
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x20 || scalar.value == 0x7F { return true }
        if scalar.isASCII { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .privateUse, .surrogate,
            .unassigned:
            return true
        default:
            return false
        }
    }
}
