/// Regular expressions for `matches` and JSONPath's `match()`/`search()`: Swift's, matched over
/// Unicode scalars (as RFC 9485's I-Regexp counts characters), compiled once per expectation.
package enum RegularExpression {
    /// `pattern` compiled, or `nil` when it is not a regular expression.
    static func compile(_ pattern: String, wholeMatch: Bool = false) -> CompiledPattern? {
        guard let regex = try? Regex(pattern) else { return nil }
        return CompiledPattern(regex: regex.matchingSemantics(.unicodeScalar))
    }

    /// Why `pattern` is not a regular expression, or `nil` when it is one.
    package static func problem(in pattern: String) -> String? {
        do {
            _ = try Regex(pattern)
            return nil
        } catch {
            return "'\(pattern)' is not a regular expression (\(error))"
        }
    }
}

extension CompiledPattern {
    /// Whether the pattern matches all of `text`.
    func matchesWhole(_ text: String) -> Bool {
        (try? regex.wholeMatch(in: text)) != nil
    }

    /// Whether the pattern matches somewhere in `text`.
    func matchesPart(_ text: String) -> Bool {
        (try? regex.firstMatch(in: text)) != nil
    }
}
