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
              let name = HTTPField.Name(String(text[..<colon])) else { return }
        lastName = name
        lastValue = String(text[text.index(after: colon)...]).trimmingWhitespace()
    }

    private mutating func flushPendingField() {
        guard let name = lastName else { return }
        fields.append(HTTPField(name: name, value: lastValue))
        lastName = nil
        lastValue = ""
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
              let end = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[start...end])
    }
}
