import HTTPTypes

/// Collects the header lines libcurl reports, keeping only the last response's.
///
/// libcurl hands over every header block it reads: `100 Continue`, each redirect it follows, the
/// final response, and trailers. A status line starts a new block, so an earlier block is dropped.
struct ResponseHeaderCollector {
    /// The protocol of the last status line, e.g. `"HTTP/1.1"`, `"HTTP/2"`.
    private(set) var httpVersion: String?
    /// The fields of the last header block, in the order received, repeated names kept.
    private(set) var fields = HTTPFields()
    private var lastName: HTTPField.Name?
    private var lastValue = ""

    /// Takes one raw line, CRLF included.
    mutating func consume(_ line: UnsafeBufferPointer<UInt8>) {
        // Header lines are nearly always ASCII: read as bytes, they cost a tenth of reading them
        // as characters (a live sweep spent a sixth of its time here). Any other line takes the
        // general path, whose answers the byte path gives for ASCII, character for character.
        if line.allSatisfy({ $0 < 0x80 }) {
            consumeASCII(line)
            return
        }
        var text = String(decoding: line, as: UTF8.self)
        while let last = text.last, last == "\n" || last == "\r" { text.removeLast() }

        if text.hasPrefix("HTTP/") {
            flushPendingField()
            fields = HTTPFields()
            httpVersion = text.split(separator: " ", maxSplits: 1).first.map(String.init)
            return
        }
        if text.isEmpty {
            flushPendingField()
            return
        }
        if let first = text.first, first == " " || first == "\t" {
            // An obsolete folded continuation of the previous field's value.
            if lastName != nil { lastValue += " " + text.trimmingWhitespace() }
            return
        }
        flushPendingField()
        guard let colon = text.firstIndex(of: ":"),
            let name = HTTPField.Name(String(text[..<colon]))
        else { return }
        lastName = name
        lastValue = String(text[text.index(after: colon)...]).trimmingWhitespace()
    }

    /// ``consume(_:)`` for an ASCII line, on its bytes. Each step is the general path's, where
    /// an ASCII character is a byte, except `\r\n`: one character, which the general path neither
    /// strips at the end (a lone `\r` or `\n` it does) nor takes for a blank; nor does this path.
    private mutating func consumeASCII(_ line: UnsafeBufferPointer<UInt8>) {
        let cr = UInt8(ascii: "\r")
        let lf = UInt8(ascii: "\n")
        let space = UInt8(ascii: " ")
        let tab = UInt8(ascii: "\t")
        var end = line.count
        while end > 0, line[end - 1] == lf || line[end - 1] == cr {
            if end > 1 && line[end - 2] == cr && line[end - 1] == lf { break }
            end -= 1
        }
        let text = UnsafeBufferPointer(rebasing: line[..<end])
        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: text[range]), as: UTF8.self)
        }
        func trimmed(_ range: Range<Int>) -> String {
            var lower = range.lowerBound
            var upper = range.upperBound
            while lower < upper && (text[lower] == space || text[lower] == tab) { lower += 1 }
            while upper > lower && (text[upper - 1] == space || text[upper - 1] == tab) { upper -= 1 }
            return string(lower..<upper)
        }

        if text.starts(with: "HTTP/".utf8) {
            flushPendingField()
            fields = HTTPFields()
            httpVersion = string(0..<(text.firstIndex(of: space) ?? text.count))
            return
        }
        guard let first = text.first else {
            flushPendingField()
            return
        }
        if first == space || first == tab {
            // An obsolete folded continuation of the previous field's value.
            if lastName != nil { lastValue += " " + trimmed(0..<text.count) }
            return
        }
        flushPendingField()
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")), let name = HTTPField.Name(string(0..<colon)) else {
            return
        }
        lastName = name
        lastValue = trimmed((colon + 1)..<text.count)
    }

    private mutating func flushPendingField() {
        guard let name = lastName else { return }
        fields.append(HTTPField(name: name, value: Self.withoutTrailingBlanks(lastValue)))
        lastName = nil
        lastValue = ""
    }

    /// `value` without the CR, LF, space and tab bytes at its end, which `HTTPField` would drop
    /// anyway (a field value ends at its last visible byte). A line's value keeps its CRLF up to
    /// here (see `consumeASCII`), which made every field take `HTTPField`'s slow legalizing path:
    /// without it, the value is already legal.
    private static func withoutTrailingBlanks(_ value: String) -> String {
        let bytes = value.utf8
        var end = bytes.endIndex
        while end > bytes.startIndex {
            let before = bytes.index(before: end)
            switch bytes[before] {
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: " "), UInt8(ascii: "\t"): end = before
            default: return end == bytes.endIndex ? value : String(decoding: bytes[..<end], as: UTF8.self)
            }
        }
        return ""
    }

    /// The collected fields, including one still pending when no blank line followed it.
    var finishedFields: HTTPFields {
        var copy = self
        copy.flushPendingField()
        return copy.fields
    }
}

private extension String {
    func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isBlank($0) }),
            let end = lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(self[start...end])
    }
}
