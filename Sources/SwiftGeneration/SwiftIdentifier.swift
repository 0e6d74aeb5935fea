/// Names from a target file made Swift identifiers that always compile: keywords backticked
/// (or renamed where Swift allows no backticks), a leading digit prefixed, other characters
/// dropped as word breaks, clashes numbered.
package enum SwiftIdentifier {
    /// Keywords a backticked name may be.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "throw", "throws", "switch", "where", "while", "Any", "as", "await", "false", "is",
        "nil", "some", "super", "true", "try", "any", "async", "each", "macro", "actor"
    ]

    /// Names no backticks make usable as a member or a type: they are renamed with a trailing `_`.
    static let unusable: Set<String> = ["self", "Self", "Type", "Protocol", "init", "deinit", "subscript", "_"]

    /// `name` in lowerCamelCase: `user_profile` and `user-profile` become `userProfile`, `URLPath`
    /// `urlPath`; a name that is already an identifier starting in lower case stays as it is.
    package static func lowerCamel(_ name: String) -> String {
        let words = self.words(of: name)
        guard let first = words.first else { return "value" }
        if words.count == 1 && first == name && first.first.map({ !$0.isUppercase }) == true { return prefixed(first) }
        var result = lowerLeadingCapitals(first)
        for word in words.dropFirst() { result += capitalized(word) }
        return prefixed(result)
    }

    /// `name` in UpperCamelCase: `httpbin-token` becomes `HttpbinToken`.
    package static func upperCamel(_ name: String) -> String {
        let words = self.words(of: name)
        guard !words.isEmpty else { return "Value" }
        return prefixed(words.map(capitalized).joined())
    }

    /// `identifier` as it is written where a declaration or a reference needs it: a keyword
    /// backticked.
    package static func written(_ identifier: String) -> String {
        keywords.contains(identifier) ? "`" + identifier + "`" : identifier
    }

    /// `identifier` as an argument label: keywords need no backticks there, but `inout`, `var` and `let`.
    package static func label(_ identifier: String) -> String {
        ["inout", "var", "let"].contains(identifier) ? "`" + identifier + "`" : identifier
    }

    /// Whether `text` is a plain identifier (a command-line `--type-name`): a letter or `_`, then
    /// letters, digits and `_`, not a keyword.
    package static func isPlainIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, isStart(first) else { return false }
        return text.unicodeScalars.allSatisfy(isContinuation) && !keywords.contains(text) && !unusable.contains(text)
    }

    /// `candidate`, renamed when unusable, numbered (`name2`, `name3`...) until it is not in `taken`;
    /// the result is added to `taken`.
    package static func unique(_ candidate: String, in taken: inout Set<String>) -> String {
        var base = candidate
        if unusable.contains(base) { base += "_" }
        var name = base
        var number = 2
        while taken.contains(name) {
            name = base + String(number)
            number += 1
        }
        taken.insert(name)
        return name
    }

    /// The runs of identifier characters in `name`, split at characters that cannot be in one and
    /// at `_` and `-`.
    private static func words(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        for scalar in name.unicodeScalars {
            if isContinuation(scalar) && scalar != "_" {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `word`, starting with `_` when it starts with a digit (or another non-start character).
    private static func prefixed(_ word: String) -> String {
        guard let first = word.unicodeScalars.first, !isStart(first) else { return word }
        return "_" + word
    }

    private static func capitalized(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    /// `URLPath` → `urlPath`, `Name` → `name`, `URL` → `url`.
    private static func lowerLeadingCapitals(_ word: String) -> String {
        let characters = Array(word)
        var count = 0
        while count < characters.count && characters[count].isUppercase { count += 1 }
        if count == 0 { return word }
        // All but the last of a run of capitals followed by lower case letters: `URLPath`.
        let lowered = count > 1 && count < characters.count ? count - 1 : count
        return characters[..<lowered].map { $0.lowercased() }.joined() + String(characters[lowered...])
    }

    /// Whether `scalar` may start an identifier: an ASCII letter or `_`, or a letter beyond ASCII.
    private static func isStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_"
        }
        return scalar.properties.isXIDStart
    }

    /// Whether `scalar` may continue an identifier.
    private static func isContinuation(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isStart(scalar) || (scalar >= "0" && scalar <= "9") }
        return scalar.properties.isXIDContinue
    }
}
