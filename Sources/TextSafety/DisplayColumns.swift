/// Text shown to a person, measured and wrapped in terminal columns: a wide (CJK, emoji)
/// character takes two, a combining mark or a zero-width character none. The text is escaped
/// first (``DisplayText/escaped(_:keepingLineBreaks:keepingOwnEscapes:)``), so what comes from a
/// target file is sanitised as everywhere else; a line is never broken inside an escape (`\e`,
/// `\x01`, `\u{202e}`) or a grapheme.
package enum DisplayColumns {
    /// The columns `text` takes on a terminal (the text as given: escape it first).
    package static func width(of text: String) -> Int {
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) { return text.utf8.count }
        return text.reduce(0) { $0 + width(of: $1) }
    }

    /// The columns one character takes: 2 for East Asian wide and fullwidth characters and
    /// emoji shown as such, 0 for a lone combining mark or a format character, else 1.
    package static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.isASCII { return 1 }
        let properties = first.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if isWide(first.value) || properties.isEmojiPresentation
            || character.unicodeScalars.contains(where: { $0.value == 0xFE0F })
        {
            return 2
        }
        return 1
    }

    /// East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth W and F, by block).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default: false
        }
    }

    /// `text`, escaped, in lines of at most `width` columns: broken at spaces (several in a row
    /// count as one where a line breaks), or after each `separator` (`", "`: between the items of
    /// a list) when one is given; a word wider than a line is broken between characters.
    /// Lines after the first are `indent` columns narrower (the caller indents them). Text that
    /// fits is returned as it is; no line ends with a space. At least one column is assumed, and
    /// one character wider than the line gets a line of its own.
    package static func wrapped(_ text: String, width: Int, indent: Int = 0, separator: String = " ") -> [String] {
        let shown = DisplayText.escaped(text)
        if DisplayColumns.width(of: shown) <= width { return [shown] }
        var words: [String]
        if separator == " " {
            words = shown.split(separator: " ").map(String.init)
        } else {
            let pieces = shown.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
            let kept = String(separator.reversed().drop { $0 == " " }.reversed())
            words = pieces.enumerated().map { $0.offset < pieces.count - 1 ? $0.element + kept : $0.element }
        }
        words.removeAll { $0.isEmpty }
        return wrapped(words: words, width: width, indent: indent)
    }

    /// `words` (each shown text, without controls) joined by single spaces in lines of at most
    /// `width` columns, lines after the first `indent` narrower; a word wider than its line is
    /// broken at its spaces, else after a `|`, `/` or `,`, else between units (an escape, a
    /// grapheme).
    package static func wrapped(words: [String], width: Int, indent: Int = 0) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        var room: Int { max(1, lines.isEmpty ? width : width - indent) }
        var pending = words[...]
        while let word = pending.popFirst() {
            let wordWidth = DisplayColumns.width(of: word)
            // An item of a list wider than a line breaks at its own spaces before anywhere else.
            if wordWidth > room, word.contains(" ") {
                pending = ArraySlice(word.split(separator: " ").map(String.init) + pending)
                continue
            }
            if !line.isEmpty && lineWidth + 1 + wordWidth <= room {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if !line.isEmpty {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            if wordWidth <= room {
                line = word
                lineWidth = wordWidth
                continue
            }
            // Broken after the last `|`, `/` or `,` that fits (between an enumeration's cases, a
            // path's segments), else where the line is full.
            var pieces: [(unit: String, width: Int)] = []
            for unit in units(of: word) {
                let unitWidth = DisplayColumns.width(of: unit)
                while lineWidth + unitWidth > room && (!line.isEmpty || !pieces.isEmpty) {
                    let cut = pieces.dropLast().lastIndex { ["|", "/", ","].contains($0.unit) }.map { $0 + 1 }
                    let kept = pieces[..<(cut ?? pieces.count)]
                    lines.append(line + kept.map(\.unit).joined())
                    pieces.removeFirst(kept.count)
                    line = ""
                    lineWidth = pieces.reduce(0) { $0 + $1.width }
                }
                pieces.append((unit, unitWidth))
                lineWidth += unitWidth
            }
            line += pieces.map(\.unit).joined()
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// The pieces a line may be broken between: graphemes, with each escape `DisplayText` writes
    /// (`\e`, `\a`, `\0`, `\r`, `\n`, `\t`, `\xHH`, `\u{H…}`) kept as one.
    static func units(of text: String) -> [String] {
        var units: [String] = []
        var characters = text[...]
        while let first = characters.first {
            var length = 1
            if first == "\\", characters.count > 1 {
                let rest = characters.dropFirst()
                switch rest.first {
                case "e", "a", "0", "r", "n", "t": length = 2
                case "x" where rest.count >= 3 && rest.dropFirst().prefix(2).allSatisfy(\.isHexDigit): length = 4
                case "u" where rest.dropFirst().first == "{":
                    // At most eight hex digits: a run of `\u{` with no end costs nothing to skip.
                    let digits = rest.dropFirst(2).prefix(9)
                    if let close = digits.firstIndex(of: "}"), !digits[..<close].isEmpty,
                        digits[..<close].allSatisfy(\.isHexDigit)
                    {
                        length = 4 + digits.distance(from: digits.startIndex, to: close)
                    }
                default: break
                }
            }
            let end = characters.index(characters.startIndex, offsetBy: length)
            units.append(String(characters[..<end]))
            characters = characters[end...]
        }
        return units
    }
}
