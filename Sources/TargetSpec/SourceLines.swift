/// A source file split into lines the way libyaml splits them, so a ``Mark`` from the loader finds
/// its line: breaks are LF, CR, CR LF, NEL (U+0085), LS (U+2028) and PS (U+2029), and a leading
/// byte-order mark is not part of line 1.
public struct SourceLines: Sendable {
    private let text: String
    /// Where each line starts; a line ends where the next line's break begins.
    private var starts: [String.Index] = []
    private var ends: [String.Index] = []

    /// Splits `text` into lines.
    public init(_ text: String) {
        self.text = text
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        if index < scalars.endIndex, scalars[index] == "\u{FEFF}" { index = scalars.index(after: index) }
        var lineStart = index
        while index < scalars.endIndex {
            let scalar = scalars[index]
            switch scalar {
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
                starts.append(lineStart)
                ends.append(index)
                index = scalars.index(after: index)
                if scalar == "\r", index < scalars.endIndex, scalars[index] == "\n" { index = scalars.index(after: index) }
                lineStart = index
            default:
                index = scalars.index(after: index)
            }
        }
        starts.append(lineStart)
        ends.append(scalars.endIndex)
    }

    /// Creates lines from a file's bytes; bytes that are not UTF-8 show as U+FFFD.
    public init(bytes: [UInt8]) {
        self.init(String(decoding: bytes, as: UTF8.self))
    }

    /// The number of lines (a file ending in a line break has an empty last line).
    public var count: Int { starts.count }

    /// Line `number` (1-based) without its break, or `nil` if there is no such line.
    public func line(_ number: Int) -> Substring? {
        guard number >= 1 && number <= starts.count else { return nil }
        return Substring(text.unicodeScalars[starts[number - 1]..<ends[number - 1]])
    }
}
