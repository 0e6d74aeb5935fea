import TargetModel

/// Names the target file needs, made from the spec's: case names, value names, the API name,
/// environment variable names and sample names.
enum Naming {
    /// Words of `text`: runs of ASCII letters and digits, split where lower case meets upper case
    /// (`getUserByID` → get, User, By, ID); everything else separates words.
    static func words(_ text: String) -> [String] {
        // Most names are ASCII: bytes then, not characters, which cost many times as much.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(text) }
        var words: [String] = []
        var current = ""
        var previous: Character?
        for character in text {
            guard character.isASCII, character.isLetter || character.isNumber else {
                if !current.isEmpty {
                    words.append(current)
                    current = ""
                }
                previous = nil
                continue
            }
            if let previous, previous.isLowercase || previous.isNumber, character.isUppercase, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
            previous = character
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// ``words(_:)`` of an ASCII text.
    private static func asciiWords(_ text: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        var previous: UInt8?
        let isLower = { (byte: UInt8) in (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
        let isUpper = { (byte: UInt8) in (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        for byte in text.utf8 {
            guard isLower(byte) || isUpper(byte) || isDigit(byte) else {
                if !current.isEmpty {
                    words.append(String(decoding: current, as: UTF8.self))
                    current = []
                }
                previous = nil
                continue
            }
            if let previous, isLower(previous) || isDigit(previous), isUpper(byte), !current.isEmpty {
                words.append(String(decoding: current, as: UTF8.self))
                current = []
            }
            current.append(byte)
            previous = byte
        }
        if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }

    /// `text` in lower camel case, an identifier (`[A-Za-z_][A-Za-z0-9_]*`): `list-users` →
    /// `listUsers`, `GetUserByID` → `getUserByID`; `fallback` when nothing is left, and an
    /// underscore before a leading digit.
    static func lowerCamel(_ text: String, fallback: @autoclosure () -> String) -> String {
        let parts = words(text)
        guard let first = parts.first else { return fallback() }
        var name = first.prefix(1).lowercased() + first.dropFirst()
        for part in parts.dropFirst() { name += part.prefix(1).uppercased() + part.dropFirst() }
        if name.first?.isNumber == true { name = "_" + name }
        return name
    }

    /// A case name for an operation without an `operationId`: method and path,
    /// `GET /users/{id}/repos` → `getUsersByIdRepos`.
    static func caseName(method: String, path: String) -> String {
        var text = method.lowercased()
        for segment in path.split(separator: "/") {
            if segment.hasPrefix("{"), segment.hasSuffix("}") {
                text += " by " + segment.dropFirst().dropLast()
            } else {
                text += " " + segment
            }
        }
        return lowerCamel(text, fallback: method.lowercased())
    }

    /// Whether `name` is a value or case name: `[A-Za-z_][A-Za-z0-9_]*`, the loader's rule.
    static func isIdentifier(_ name: String) -> Bool {
        TargetFileValidator.isIdentifier(name)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// A value name for a parameter or property name: kept when it is an identifier, else every
    /// run of other characters becomes `_` (`per-page` → `per_page`, `filter[state]` →
    /// `filter_state`), with a `_` before a leading digit.
    static func valueName(_ name: String) -> String {
        if isIdentifier(name) { return name }
        let written = name
        var name = name
        // Comparison suffixes (`StartTime<`, `price>=`) are words, not separators: without them
        // `StartTime<` and `StartTime>` would both be `StartTime` (then `StartTime2`).
        let mayCompare = name.utf8.contains {
            $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "!")
        }
        for (symbol, word) in Self.comparisonWords where mayCompare && name.contains(symbol) {
            name = name.replacing(symbol, with: "_" + word + "_")
        }
        var result = ""
        var pendingSeparator = false
        for byte in name.utf8 {
            let keep =
                byte == UInt8(ascii: "_") || isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if keep {
                if pendingSeparator, !result.isEmpty { result += "_" }
                pendingSeparator = false
                result.append(Character(Unicode.Scalar(byte)))
            } else {
                pendingSeparator = true
            }
        }
        while result.hasSuffix("_"), !written.hasSuffix("_") { result.removeLast() }
        if result.isEmpty { return "value" }
        if result.first?.isNumber == true { result = "_" + result }
        return result
    }

    /// What a comparison in a parameter name becomes in its value name, longest symbol first:
    /// `StartTime<` → `StartTime_lt`, `price>=` → `price_ge`.
    static let comparisonWords: [(String, String)] = [
        ("<=", "le"), (">=", "ge"), ("!=", "ne"), ("<", "lt"), (">", "gt")
    ]

    /// An API name (`[A-Za-z][A-Za-z0-9_-]*`) from a title, as a person writes it: the title's
    /// words, lower case, joined with `-` (`Swagger Petstore` → `swagger-petstore`). A word's
    /// own capitals are a brand's, not word breaks: `GitHub v3 REST API` → `github-v3-rest-api`.
    static func apiName(_ title: String) -> String? {
        let parts = title.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map { $0.lowercased() }
        guard var name = parts.first.map({ _ in parts.joined(separator: "-") }) else { return nil }
        if name.first?.isNumber == true { name = "api-" + name }
        return String(name.prefix(48))
    }

    /// The prefix of the environment variables the API's credentials come from, for an API name
    /// the user chose: `swagger-petstore` → `SWAGGER_PETSTORE`.
    static func environmentPrefix(_ apiName: String) -> String {
        let name = words(apiName).map { $0.uppercased() }.joined(separator: "_")
        guard let first = name.first else { return "API" }
        return first.isNumber ? "API_" + name : name
    }

    /// The prefix for an API named from the spec's title: `MOYA_` first, so that a spec cannot
    /// choose a variable the user has for something else (a title `AWS` and a scheme
    /// `secretAccessKey` would otherwise read `AWS_SECRET_ACCESS_KEY`).
    static func untrustedEnvironmentPrefix(_ apiName: String) -> String {
        "MOYA_" + environmentPrefix(apiName)
    }

    /// `SWAGGER_PETSTORE` + `api_key` → `SWAGGER_PETSTORE_API_KEY`.
    static func environmentName(_ prefix: String, _ suffix: String) -> String {
        let tail = words(suffix).map { $0.uppercased() }.joined(separator: "_")
        return tail.isEmpty ? prefix : prefix + "_" + tail
    }

    /// The sample name for a status: its reason phrase in lower camel case (`404` → `notFound`),
    /// or `status418` for codes without a common phrase.
    static func sampleName(status: Int) -> String { SampleBody.sampleName(status: status) }

    /// `name`, or `name2`, `name3`, … — the first not in `taken`, which it joins.
    static func unique(_ name: String, in taken: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while taken.contains(candidate) {
            candidate = name + String(number)
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }
}
