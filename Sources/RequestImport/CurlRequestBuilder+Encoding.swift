import FoundationEssentials
import TargetModel

/// curl's readings of option arguments: headers, form parts, URL encoding, query items.
extension CurlRequestBuilder {
    /// The word as UTF-8 text, or an error naming the option.
    static func text(_ word: ShellWord, of given: CurlCommand.Given) throws(RequestImportError) -> String {
        try text(word, what: "\(given.spelling)'s argument")
    }

    static func text(_ word: ShellWord, what: String) throws(RequestImportError) -> String {
        guard let text = String(validating: word.bytes, as: UTF8.self) else {
            throw RequestImportError("\(what) is not UTF-8 text", at: word.place)
        }
        return text
    }

    /// `Name: value` (or `Name;`, an empty value); `nil` for `Name:`, which removes a header.
    static func header(_ text: String, at place: TextPlace) throws(RequestImportError) -> (name: String, value: String)?
    {
        guard let separator = text.firstIndex(where: { $0 == ":" || $0 == ";" }) else {
            throw RequestImportError("the header '\(text.prefix(100))' has no ':'", at: place)
        }
        let name = String(text[..<separator])
        let value = text[text.index(after: separator)...].trimmingSpaces
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
            throw RequestImportError(
                "the header name '\(name.prefix(100))' is not a header name (letters, digits and !#$%&'*+-.^_`|~, no spaces)",
                at: place)
        }
        guard !value.utf8.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }) else {
            throw RequestImportError("the header \(name)'s value holds CR, LF or NUL", at: place)
        }
        if text[separator] == ";" {
            guard value.isEmpty else {
                throw RequestImportError("the header '\(text.prefix(100))' has no ':'", at: place)
            }
            return (name, "")
        }
        return value.isEmpty ? nil : (name, value)
    }

    /// A token character of RFC 9110 (header names, methods).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// Headers given more than once joined into one (`, `; `; ` for Cookie), in first order.
    static func joined(
        _ headers: [(name: String, value: String, isSecret: Bool, place: TextPlace)],
        notes: inout [(place: TextPlace, message: String)]
    ) -> [NewCaseHeader] {
        var result: [NewCaseHeader] = []
        for header in headers {
            if let index = result.firstIndex(where: { $0.name.lowercased() == header.name.lowercased() }) {
                let separator = header.name.lowercased() == "cookie" ? "; " : ", "
                result[index].value += separator + header.value
                result[index].isSecret = result[index].isSecret || header.isSecret
                notes.append(
                    (
                        header.place,
                        "the header \(header.name) is given twice; the case sends the values joined with '\(separator)'"
                    ))
            } else {
                result.append(NewCaseHeader(name: header.name, value: header.value, isSecret: header.isSecret))
            }
        }
        return result
    }

    /// The query's `name=value` items, percent-decoded (`+` a space), in order.
    static func queryPairs(
        _ query: String?
    ) -> [NewCasePair] {
        guard let query, !query.isEmpty else { return [] }
        var pairs: [NewCasePair] = []
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            pairs.append(
                NewCasePair(
                    name: percentDecoded(String(parts[0]), plusIsSpace: true),
                    value: parts.count > 1 ? percentDecoded(String(parts[1]), plusIsSpace: true) : ""))
        }
        return pairs
    }

    /// `%XX` decoded (and `+` as a space in a query); invalid escapes and bytes kept as written.
    static func percentDecoded(_ text: String, plusIsSpace: Bool) -> String {
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        var index = 0
        while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: "%"), index + 2 < source.count,
                let high = hexValue(source[index + 1]), let low = hexValue(source[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Every byte but ALPHA, DIGIT and `-._~` as `%XX`, a space as `+` when `spaceAsPlus` (as
    /// curl's `--data-urlencode` writes form data), as curl does.
    static func curlEscaped(_ bytes: [UInt8], spaceAsPlus: Bool = false) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        var result: [UInt8] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.append(byte)
            case UInt8(ascii: " ") where spaceAsPlus: result.append(UInt8(ascii: "+"))
            default: result += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        }
        return result
    }

    static func percentEncodedPathSegment(_ text: String) -> String {
        String(decoding: curlEscaped(Array(text.utf8)), as: UTF8.self)
    }

    /// `--data-urlencode` and `--url-query`: `content`, `=content`, `name=content`, `@file`,
    /// `name@file`, as curl reads them.
    func urlEncoded(_ argument: [UInt8], at place: TextPlace) throws(RequestImportError) -> [UInt8] {
        let separator = argument.firstIndex { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "@") }
        guard let separator else { return Self.curlEscaped(argument, spaceAsPlus: true) }
        let name = Array(argument[..<separator])
        var content = Array(argument[(separator + 1)...])
        if argument[separator] == UInt8(ascii: "@") {
            content = try files.read(String(decoding: content, as: UTF8.self), at: place)
        }
        let encoded = Self.curlEscaped(content, spaceAsPlus: true)
        return name.isEmpty ? encoded : name + [UInt8(ascii: "=")] + encoded
    }

    /// One `-F` argument: `name=value`, `name=@file`, `name=<file`, with `;type=` and `;filename=`.
    func formPart(_ text: String, at place: TextPlace) throws(RequestImportError) -> ImportedRequest.Part {
        guard let equals = text.firstIndex(of: "=") else {
            throw RequestImportError("-F '\(text.prefix(100))' needs NAME=CONTENT", at: place)
        }
        let name = String(text[..<equals])
        var rest = Substring(text[text.index(after: equals)...])
        let marker = rest.first
        if marker == "@" || marker == "<" { rest = rest.dropFirst() }
        var content: String
        if rest.first == "\"" {
            content = ""
            rest = rest.dropFirst()
            while let character = rest.first, character != "\"" {
                rest = rest.dropFirst()
                if character == "\\", let next = rest.first {
                    content.append(next)
                    rest = rest.dropFirst()
                } else {
                    content.append(character)
                }
            }
            rest = rest.dropFirst()
        } else {
            let end = rest.firstIndex(of: ";") ?? rest.endIndex
            content = String(rest[..<end])
            rest = rest[end...]
        }
        var part = ImportedRequest.Part(name: name, content: .text(Array(content.utf8)))
        for attribute in rest.split(separator: ";") {
            let trimmed = attribute.trimmingSpaces
            if trimmed.lowercased().hasPrefix("type=") {
                part.mimeType = String(trimmed.dropFirst(5))
            } else if trimmed.lowercased().hasPrefix("filename=") {
                part.fileName = String(trimmed.dropFirst(9)).trimmingQuotes
            } else {
                throw RequestImportError(
                    "-F '\(text.prefix(100))': the part attribute '\(trimmed.prefix(40))' is not imported (only type= and filename=); quote a value holding ';' as name=\"a;b\"",
                    at: place)
            }
        }
        if marker == "@" {
            if content.contains(",") && !text.contains("\"") {
                throw RequestImportError(
                    "-F '\(text.prefix(100))' sends several files in one part; give each its own -F", at: place)
            }
            part.content = .file(path: content)
        } else if marker == "<" {
            part.content = .text(try files.read(content, at: place))
        }
        return part
    }
}

/// `NewCase`'s nested types under short names for this file's signatures.
typealias NewCaseHeader = NewCase.Header
typealias NewCasePair = NewCase.Pair

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    var trimmingQuotes: String {
        hasPrefix("\"") && hasSuffix("\"") && count >= 2 ? String(dropFirst().dropLast()) : String(self)
    }
}
