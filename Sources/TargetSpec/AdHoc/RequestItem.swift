import OrderedJSON
import TargetModel

/// One request item of `moya-cli request`, as HTTPie and xh write them.
///
/// The separator is the first one in the item (at one position the longest wins: `:=@` before `:=`
/// before `:@` before `:`, `==@` before `==` before `=@` before `=`); a backslash before `=`, `:`,
/// `@` or `\` makes that character plain text, in the name and in the value (`a\=b=c` is field
/// `a=b` with value `c`). A data field's name is also a nested-JSON path (`NestedJSONBody`).
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
    /// `name=@path`: a field whose value is the text of a file.
    case fieldFile(name: String, path: String)
    /// `name:=@path`: a field whose value is the JSON of a file.
    case jsonFieldFile(name: String, path: String)
    /// `Header:@path`: a header whose value is a file's text (without its final line breaks).
    case headerFile(name: String, path: String)
    /// `name==@path`: a query parameter whose value is a file's text (without its final line breaks).
    case queryFile(name: String, path: String)

    /// `text` read as an item.
    ///
    /// - Throws: `AdHocRequestError` naming the item: no separator, an empty name, JSON that does
    ///   not parse, a header name that is not a token, CR, LF or NUL in a header or a part's name.
    package init(parsing text: String) throws(AdHocRequestError) {
        let (plain, escaped, _) = Self.unescaped(text)
        guard let (position, separator) = Self.firstSeparator(in: plain, escaped: escaped) else {
            throw AdHocRequestError(
                item: text, "is not an item: NAME=VALUE, NAME:=JSON, NAME==VALUE, Header:value, Header: or FIELD@FILE")
        }
        let name = String(plain[..<position])
        let value = String(plain[(position + separator.count)...])
        guard !name.isEmpty else { throw AdHocRequestError(item: text, "has no name before '\(separator)'") }
        if separator.hasSuffix("@"), separator != "@" {
            guard !value.isEmpty else { throw AdHocRequestError(item: text, "names no file after '\(separator)'") }
            switch separator {
            case "=@": self = .fieldFile(name: name, path: value)
            case ":=@": self = .jsonFieldFile(name: name, path: value)
            case "==@": self = .queryFile(name: name, path: value)
            default:
                guard TargetFileValidator.isToken(name) else {
                    throw AdHocRequestError(item: text, "has a header name that is not an HTTP token")
                }
                self = .headerFile(name: name, path: value)
            }
            return
        }
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

    /// The item's characters with the backslash escapes of `=`, `:`, `@` and `\` undone, which of
    /// them were escaped, and each as a nested-JSON path reads it: an escaped backslash stays two
    /// (`a[\\]` is the key `\`), and the other backslashes are kept for the path to read.
    private static func unescaped(_ text: String) -> (plain: [Character], escaped: [Bool], path: [String]) {
        let characters = Array(text)
        var plain: [Character] = []
        var escaped: [Bool] = []
        var path: [String] = []
        var index = 0
        while index < characters.count {
            if characters[index] == "\\", index + 1 < characters.count, "=:@\\".contains(characters[index + 1]) {
                plain.append(characters[index + 1])
                escaped.append(true)
                path.append(characters[index + 1] == "\\" ? "\\\\" : String(characters[index + 1]))
                index += 2
            } else {
                plain.append(characters[index])
                escaped.append(false)
                path.append(String(characters[index]))
                index += 1
            }
        }
        return (plain, escaped, path)
    }

    /// The name of data item `text` as a nested-JSON path reads it (see `NestedJSONBody`).
    static func jsonPath(of text: String) -> String {
        let (plain, escaped, path) = unescaped(text)
        guard let (position, _) = firstSeparator(in: plain, escaped: escaped) else { return "" }
        return path[..<position].joined()
    }

    /// The first unescaped separator and where it starts; at one place the longest.
    private static func firstSeparator(in text: [Character], escaped: [Bool]) -> (Int, String)? {
        func follows(_ index: Int, _ suffix: String) -> Bool {
            for (offset, character) in suffix.enumerated() {
                let at = index + 1 + offset
                guard at < text.count, !escaped[at], text[at] == character else { return false }
            }
            return true
        }
        for index in text.indices where !escaped[index] {
            switch text[index] {
            case ":":
                for separator in [":=@", ":=", ":@"] where follows(index, String(separator.dropFirst())) {
                    return (index, separator)
                }
                return (index, ":")
            case "=":
                for separator in ["==@", "==", "=@"] where follows(index, String(separator.dropFirst())) {
                    return (index, separator)
                }
                return (index, "=")
            case "@": return (index, "@")
            default: continue
            }
        }
        return nil
    }

    /// Whether the item puts something in the body (what makes a `request` without METHOD a
    /// POST, as in HTTPie and xh).
    package var sendsBody: Bool {
        switch self {
        case .field, .jsonField, .file, .fieldFile, .jsonFieldFile: true
        case .query, .header, .queryFile, .headerFile: false
        }
    }
}
