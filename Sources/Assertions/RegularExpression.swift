import Synchronization

/// Regular expressions for `matches` and JSONPath's `match()`/`search()`: Swift's, matched over
/// Unicode scalars (as RFC 9485's I-Regexp counts characters), compiled once per process: the
/// loader's check compiles a pattern, and the check of every response reuses it (compiling one
/// costs about as much as testing 50 plain paths).
package enum RegularExpression {
    private static let compiled = Mutex<[String: CompiledPattern]>([:])

    /// `pattern` compiled, or `nil` when it is not a regular expression (or nests quantifiers).
    static func compile(_ pattern: String, wholeMatch: Bool = false) -> CompiledPattern? {
        if let known = compiled.withLock({ $0[pattern] }) { return known }
        guard !hasNestedQuantifier(pattern), let regex = try? Regex(pattern) else { return nil }
        let made = CompiledPattern(regex: regex.matchingSemantics(.unicodeScalar))
        compiled.withLock { cache in
            // Bounded: patterns with placeholders filled from values could otherwise grow it.
            if cache.count >= 1024 { cache.removeAll() }
            cache[pattern] = made
        }
        return made
    }

    /// Why `pattern` is not a regular expression, or `nil` when it is one.
    package static func problem(in pattern: String) -> String? {
        if hasNestedQuantifier(pattern) {
            return "'\(pattern)' repeats a group that repeats (like (a+)+), which a hostile response can make "
                + "take exponential time; write it without the nested repetition"
        }
        if compile(pattern) != nil { return nil }
        do {
            _ = try Regex(pattern)
            return nil
        } catch {
            return "'\(pattern)' is not a regular expression (\(error))"
        }
    }
}

extension RegularExpression {
    /// Whether a quantified group holds a quantifier (`(a+)+`, `(a*b?)*`, `(x{2,})+`): the
    /// patterns Swift's backtracking engine may take exponential time on. The text both of a
    /// pattern (a target file) and of what it is matched against (a server) is untrusted.
    static func hasNestedQuantifier(_ pattern: String) -> Bool {
        let scalars = Array(pattern.unicodeScalars)
        // For each open group: whether it holds a quantifier so far.
        var groups: [Bool] = []
        var inClass = false
        var index = 0
        func isQuantifier(at position: Int) -> Bool {
            guard position < scalars.count else { return false }
            switch scalars[position] {
            case "+", "*", "?", "{": return true
            default: return false
            }
        }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\" {
                index += 2
                if isQuantifier(at: index), !groups.isEmpty, scalars[index] != "?" { groups[groups.count - 1] = true }
                continue
            }
            if inClass {
                if scalar == "]" { inClass = false }
                index += 1
                if !inClass, isQuantifier(at: index), !groups.isEmpty, scalars[index] != "?" {
                    groups[groups.count - 1] = true
                }
                continue
            }
            switch scalar {
            case "[": inClass = true
            case "(": groups.append(false)
            case ")":
                let inner = groups.popLast() ?? false
                if inner && isQuantifier(at: index + 1) && scalars[index + 1] != "?" { return true }
                // A quantified group makes its enclosing group hold a quantifier.
                if (inner || isQuantifier(at: index + 1)), !groups.isEmpty { groups[groups.count - 1] = true }
            case "+", "*", "{":
                if !groups.isEmpty { groups[groups.count - 1] = true }
            default: break
            }
            index += 1
        }
        return false
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
