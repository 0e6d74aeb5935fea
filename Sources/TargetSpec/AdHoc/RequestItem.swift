import OrderedJSON
import TargetModel

/// One request item of `moya-cli request`, as HTTPie and xh write them.
///
/// The separator is the first one in the item (at one position the longer wins: `:=` before `:`,
/// `==` before `=`); a backslash before `=`, `:`, `@` or `\` makes that character plain text, in
/// the name and in the value (`a\=b=c` is field `a=b` with value `c`).
package enum RequestItem: Sendable, Equatable {
    /// `name=value`: a JSON string field, or a form field with `--form`.
    case field(name: String, value: String)
    /// `name:=json`: a raw JSON field (any JSON value).
    case jsonField(name: String, value: JSONValue)
    /// `name==value`: a query parameter.
    case query(name: String, value: String)
    /// `Header:value`: a header; `Header:` removes it.
    case header(name: String, value: String?)
    /// `field@path`: a multipart file part.
    case file(name: String, path: String)

    /// `text` read as an item.
    ///
    /// - Throws: `AdHocRequestError` naming the item: no separator, an empty name, JSON that does
    ///   not parse, a header name that is not a token, CR, LF or NUL in a header or a part's name.
    package init(parsing text: String) throws(AdHocRequestError) {
        let characters = Array(text)
        var escaped = [Bool](repeating: false, count: characters.count)
        var plain: [Character] = []
        var index = 0
        while index < characters.count {
            if characters[index] == "\\", index + 1 < characters.count, "=:@\\".contains(characters[index + 1]) {
                plain.append(characters[index + 1])
                escaped[plain.count - 1] = true
                index += 2
            } else {
                plain.append(characters[index])
                index += 1
            }
        }
        guard let (position, separator) = Self.firstSeparator(in: plain, escaped: escaped) else {
            throw AdHocRequestError(
                item: text, "is not an item: NAME=VALUE, NAME:=JSON, NAME==VALUE, Header:value, Header: or FIELD@FILE")
        }
        let name = String(plain[..<position])
        let value = String(plain[(position + separator.count)...])
        guard !name.isEmpty else { throw AdHocRequestError(item: text, "has no name before '\(separator)'") }
        switch separator {
        case "==": self = .query(name: name, value: value)
        case ":=":
            do {
                self = .jsonField(name: name, value: try JSONValue(parsing: value))
            } catch {
                throw AdHocRequestError(item: text, "is not JSON after ':=' (\(error)); quote a string as NAME=VALUE")
            }
        case "=": self = .field(name: name, value: value)
        case ":":
            guard TargetFileValidator.isToken(name) else {
                throw AdHocRequestError(item: text, "has a header name that is not an HTTP token")
            }
            let trimmed = String(value.drop { $0 == " " || $0 == "\t" })
            if HeaderLine.holdsLineBreak(trimmed) {
                throw AdHocRequestError(item: text, "holds CR, LF or NUL; it would inject a line into the request")
            }
            self = .header(name: name, value: trimmed.isEmpty ? nil : trimmed)
        default:
            if HeaderLine.holdsLineBreak(name) {
                throw AdHocRequestError(item: text, "holds CR, LF or NUL; it would inject a line into the request")
            }
            guard !value.isEmpty else { throw AdHocRequestError(item: text, "names no file after '@'") }
            self = .file(name: name, path: value)
        }
    }

    /// The first unescaped separator and where it starts.
    private static func firstSeparator(in text: [Character], escaped: [Bool]) -> (Int, String)? {
        for index in text.indices where !escaped[index] {
            let next: Character? = index + 1 < text.count && !escaped[index + 1] ? text[index + 1] : nil
            switch text[index] {
            case ":": return (index, next == "=" ? ":=" : ":")
            case "=": return (index, next == "=" ? "==" : "=")
            case "@": return (index, "@")
            default: continue
            }
        }
        return nil
    }

    /// Whether the item puts something in the body.
    package var sendsBody: Bool {
        switch self {
        case .field, .jsonField, .file: true
        case .query, .header: false
        }
    }
}
