/// A `.netrc` file as curl reads it: `machine HOST login USER password PASSWORD` entries, a
/// `default` entry for any other host, `macdef` macros skipped; tokens separated by blanks and
/// line breaks, a token may be `"quoted"` (with `\"` and `\\` inside), `#` starts a comment at
/// the start of a token.
package struct NetrcFile: Sendable, Equatable {
    /// One entry: a machine (`nil` for `default`), its login and password.
    package struct Entry: Sendable, Equatable {
        package var machine: String?
        package var login: String?
        package var password: String?
    }

    package var entries: [Entry]

    /// Why a file could not be read as a netrc, with the 1-based line.
    package struct ParseError: Error, Sendable, Equatable {
        package var line: Int
        package var message: String

        package init(line: Int, message: String) {
            self.line = line
            self.message = message
        }
    }

    /// Reads `text`.
    package init(parsing text: String) throws(ParseError) {
        var tokens: [(text: String, line: Int)] = []
        var line = 1
        var characters = Array(text.unicodeScalars)[...]
        while let first = characters.first {
            if first == "\n" {
                line += 1
                characters.removeFirst()
                continue
            }
            if first == " " || first == "\t" || first == "\r" {
                characters.removeFirst()
                continue
            }
            if first == "#" {
                // A comment, to the end of the line.
                while let next = characters.first, next != "\n" { characters.removeFirst() }
                continue
            }
            var token = ""
            if first == "\"" {
                characters.removeFirst()
                var closed = false
                while let next = characters.popFirst() {
                    if next == "\"" {
                        closed = true
                        break
                    }
                    if next == "\\", let escaped = characters.popFirst() {
                        token.unicodeScalars.append(escaped)
                        continue
                    }
                    if next == "\n" { line += 1 }
                    token.unicodeScalars.append(next)
                }
                guard closed else { throw ParseError(line: line, message: "a quoted token is not closed") }
            } else {
                while let next = characters.first, !" \t\r\n".unicodeScalars.contains(next) {
                    token.unicodeScalars.append(next)
                    characters.removeFirst()
                }
            }
            tokens.append((token, line))
        }
        var entries: [Entry] = []
        var index = 0
        func value(after keyword: (text: String, line: Int)) throws(ParseError) -> String {
            index += 1
            guard index < tokens.count else {
                throw ParseError(line: keyword.line, message: "'\(keyword.text)' has no value after it")
            }
            return tokens[index].text
        }
        while index < tokens.count {
            let token = tokens[index]
            switch token.text {
            case "machine":
                entries.append(Entry(machine: try value(after: token).lowercased()))
            case "default":
                entries.append(Entry(machine: nil))
            case "login", "password", "account":
                guard !entries.isEmpty else {
                    throw ParseError(line: token.line, message: "'\(token.text)' before any 'machine' or 'default'")
                }
                let text = try value(after: token)
                if token.text == "login" { entries[entries.count - 1].login = text }
                if token.text == "password" { entries[entries.count - 1].password = text }
            case "macdef":
                // A macro's body runs to the first empty line: skipped.
                _ = try value(after: token)
                let macroLine = tokens[index].line
                var lastLine = macroLine
                while index + 1 < tokens.count, tokens[index + 1].line <= lastLine + 1,
                    tokens[index + 1].line > macroLine
                {
                    index += 1
                    lastLine = tokens[index].line
                }
            default:
                throw ParseError(line: token.line, message: "unexpected token '\(token.text)'")
            }
            index += 1
        }
        self.entries = entries
    }

    /// The login and password for `host` (case-insensitive): its `machine` entry, else `default`;
    /// `nil` when neither has both, or the login asked for (`-u USER` without a password) differs.
    package func credential(for host: String, login wanted: String? = nil) -> (login: String, password: String)? {
        let host = host.lowercased()
        let entry = entries.first { $0.machine == host } ?? entries.first { $0.machine == nil }
        guard let entry, let login = entry.login, let password = entry.password else { return nil }
        if let wanted, wanted != login { return nil }
        return (login, password)
    }
}
