/// Picks the closest name for "did you mean" hints: used for keys, methods, types, placeholders,
/// value names and, on the command line, API and case names.
public enum Suggestion {
    /// The candidate closest to `input`, or `nil` when nothing is close enough.
    ///
    /// A candidate qualifies when it equals `input` ignoring case (`get` → `GET`), when its edit
    /// distance is at most 2 (at most 1 for inputs of 4 characters or fewer, so `dns` does not
    /// suggest `tls`), or when one is a prefix of the other. The smallest distance wins; ties keep the candidates' order.
    public static func closest(to input: String, in candidates: some Sequence<String>) -> String? {
        let lowered = input.lowercased()
        var best: (candidate: String, score: Int)?
        for candidate in candidates where candidate != input {
            let loweredCandidate = candidate.lowercased()
            let score: Int
            if loweredCandidate == lowered {
                score = 0
            } else {
                let distance = editDistance(lowered, loweredCandidate)
                if distance <= (lowered.count <= 4 ? 1 : 2) {
                    score = distance
                } else if !lowered.isEmpty
                    && (loweredCandidate.hasPrefix(lowered) || lowered.hasPrefix(loweredCandidate))
                {
                    score = 3
                } else {
                    continue
                }
            }
            if let current = best, current.score <= score { continue }
            best = (candidate, score)
        }
        return best?.candidate
    }

    /// `"; did you mean 'x'?"` for the closest candidate, or an empty string.
    ///
    /// `quote` formats the suggestion (for placeholders: `{x}`).
    public static func didYouMean(
        _ input: String, in candidates: some Sequence<String>, quote: (String) -> String = { $0 }
    ) -> String {
        guard let match = closest(to: input, in: candidates) else { return "" }
        return "; did you mean '\(quote(match))'?"
    }

    /// The Levenshtein distance between two strings, counted in characters.
    public static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        // Optimal string alignment: like Levenshtein, but swapping two neighbours (`shpo` for
        // `shop`, the commonest typo) costs one edit, not two.
        let a = Array(lhs)
        let b = Array(rhs)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
