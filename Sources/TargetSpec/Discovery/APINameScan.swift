import PositionedYAML
import TargetModel

/// The API name a target file gives in a top-level `api:` line, read line by line without a YAML
/// parser: for a file that could not be parsed, whose name would otherwise be its file name's,
/// so that `call NAME` reports the file's errors (exit 65) instead of an unknown API (exit 64).
enum APINameScan {
    /// The value of the first line `api: NAME` (the key at column 0, plain or quoted; the value
    /// plain or quoted, a comment after it allowed) that is a valid API name, else `nil`.
    static func name(in lines: SourceLines) -> String? {
        guard lines.count > 0 else { return nil }
        for number in 1...lines.count {
            guard let line = lines.line(number), let value = value(in: line) else { continue }
            return TargetFileValidator.isAPIName(value) ? value : nil
        }
        return nil
    }

    /// The value after a top-level `api:` key on `line`, unquoted; `nil` when the line is not one.
    private static func value(in line: Substring) -> String? {
        var rest = line
        guard let key = ["api", "\"api\"", "'api'"].first(where: { rest.hasPrefix($0) }) else { return nil }
        rest = rest.dropFirst(key.count).drop { $0 == " " || $0 == "\t" }
        guard rest.first == ":" else { return nil }
        rest = rest.dropFirst()
        if let comment = rest.firstRange(of: " #") { rest = rest[..<comment.lowerBound] }
        let isBlank = { (character: Character) in character == " " || character == "\t" || character == "\r" }
        var text = String(rest.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
        if text.count >= 2, let quote = text.first, quote == "\"" || quote == "'", text.last == quote {
            text = String(text.dropFirst().dropLast())
        }
        return text
    }
}
