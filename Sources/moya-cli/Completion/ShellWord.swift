import ArgumentParser
import TextSafety

/// Words as completion scripts pass them: bash (`COMP_WORDS`), zsh (`words`) and fish 4
/// (`--tokens-raw`) hand over what was typed, quotes and backslashes included.
enum ShellWord {
    /// What the shell would pass to the command for `word` once run: quotes and backslashes
    /// removed, a leading `~` or `~/` replaced by `home`. An unfinished quote (the word being
    /// typed) counts as closed at the end.
    static func unquoted(_ word: String, home: String? = nil) -> String {
        var result = ""
        var characters = Substring(word)
        if let home, characters == "~" || characters.hasPrefix("~/") {
            result = home
            characters = characters.dropFirst()
        }
        var quote: Character?
        while let character = characters.popFirst() {
            switch (quote, character) {
            case (nil, "'"), (nil, "\""):
                quote = character
            case ("'", "'"), ("\"", "\""):
                quote = nil
            case (nil, "\\"):
                if let escaped = characters.popFirst() { result.append(escaped) }
            case ("\"", "\\"):
                // In double quotes a backslash only escapes these; elsewhere it stays.
                if let next = characters.first, "$`\"\\".contains(next) {
                    result.append(next)
                    characters.removeFirst()
                } else {
                    result.append(character)
                }
            default:
                result.append(character)
            }
        }
        return result
    }

    /// `candidates` as the completion script of `shell` expects them, one a line.
    ///
    /// zsh's script hands them to `_describe`, where `:` starts a description: escaped, so `a:b`
    /// and `c:d.txt` stay whole. bash's script passes them through `compgen -W`, which expands
    /// them as shell words (`$(...)` in a target file would run, `x'y` would fail): escaped, so
    /// the expansion gives them back as they are; bash quotes them when inserting (`-o filenames`).
    static func formatted(_ candidates: [String], for shell: CompletionShell?) -> [String] {
        switch shell {
        case .zsh: candidates.map(ShellQuoting.zshDescribeEscaped)
        case .bash: candidates.map(ShellQuoting.backslashEscaped)
        default: candidates
        }
    }
}
