/// Text in a TAP line (`ok 1 - description # SKIP reason`).
package enum TAPText {
    /// `text` on one line, with `#` escaped as TAP requires, control characters shown escaped
    /// (``DisplayText``) and then every `\` doubled (so `\e` from the display escaping reads `\\e`).
    package static func escaped(_ text: String) -> String {
        var result = ""
        for character in DisplayText.escaped(text) {
            switch character {
            case "#": result += "\\#"
            case "\\": result += "\\\\"
            case "\n", "\r": result += " "
            default: result.append(character)
            }
        }
        return result
    }
}
