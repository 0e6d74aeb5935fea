/// What kind of message a message is: the message with each quoted name (`'…'`) masked, so
/// messages that differ only in the names they give (`case 'a' has no sample`, `case 'b' has no
/// sample`) are counted together when there are too many to show one by one.
package enum MessageKind {
    /// `message` with the text between each pair of single quotes replaced by `…`; a message
    /// with an unpaired quote is its own kind.
    package static func of(_ message: String) -> String {
        var result = ""
        var isQuoted = false
        for character in message {
            if character == "'" {
                if !isQuoted { result += "'…'" }
                isQuoted.toggle()
            } else if !isQuoted {
                result.append(character)
            }
        }
        return isQuoted ? message : result
    }
}
