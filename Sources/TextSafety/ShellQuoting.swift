/// Text as a POSIX shell reads it back unchanged: single-quoted words for commands a person
/// pastes or `eval`s, and backslash-escaped words for completion scripts that expand them.
package enum ShellQuoting {
    /// `value` in single quotes, each `'` written `'\''`. Nothing inside (`$`, backquotes, `;`,
    /// newlines, control characters) is expanded or run; a NUL is kept, so a caller that hands
    /// the text to a shell must refuse it first (no shell word can hold one).
    package static func singleQuoted(_ value: String) -> String {
        "'" + value.replacing("'", with: #"'\''"#) + "'"
    }

    /// `word` as it is when it is plain ASCII (letters, digits and `-_./=:,@+%`), single-quoted
    /// otherwise (the empty word too): for a command shown back to a person (`auth status`).
    package static func quotedUnlessPlainASCII(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                        || "-_./=:,@+%".unicodeScalars.contains($0))
            }
        return plain ? word : singleQuoted(word)
    }

    /// `text` as it is when every character is a letter or number of any script or one of
    /// `-_./:@`, single-quoted otherwise (the empty text too): for case help's example lines.
    ///
    /// Unlike ``quotedUnlessPlainASCII(_:)``, non-ASCII letters stay unquoted and `=,+%` are quoted.
    package static func quotedUnlessPlain(_ text: String) -> String {
        let safe = text.allSatisfy { $0.isLetter || $0.isNumber || "-_./:@".contains($0) }
        return safe && !text.isEmpty ? text : singleQuoted(text)
    }

    /// `text` with a backslash before every character that is not a letter, a number or one of
    /// `_@%+=:,./-`: bash's `compgen -W` expands the words it is given, and gives these back as
    /// they are.
    package static func backslashEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if !(character.isLetter || character.isNumber || "_@%+=:,./-".contains(character)) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// `text` for zsh's `_describe`, where `:` starts a description: `\` and `:` escaped.
    package static func zshDescribeEscaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing(":", with: "\\:")
    }
}
