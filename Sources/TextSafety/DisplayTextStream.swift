/// `DisplayText.escaped(_:keepingLineBreaks: true)` for text that arrives in pieces (a body
/// streamed to a terminal): the same escaping, whatever the piece boundaries.
///
/// A piece may end inside a UTF-8 character (a C1 control or a bidirectional override is two or
/// three bytes), or between the CR and LF of a line break; those bytes wait for the next piece,
/// so no character is cut into something unsafe and `\r\n` stays a line break. ESC and the other
/// C0 controls are one byte each and are escaped wherever they fall, so a sequence split across
/// pieces is as harmless as a whole one. Bytes that are not UTF-8 are shown as U+FFFD.
package struct DisplayTextStream {
    /// The bytes of the last piece that wait for the next: an unfinished character, a final CR.
    private var pending: [UInt8] = []
    /// Whether the text shown so far ends with a line break (or nothing was shown).
    private var endsLine = true

    package init() {}

    /// The displayable text of `bytes`, minus what waits for the next piece.
    package mutating func escape(_ bytes: UnsafeRawBufferPointer) -> String {
        var input = pending
        input.append(contentsOf: bytes)
        let cut = Self.safeEnd(of: input)
        pending = Array(input[cut...])
        return show(input[..<cut])
    }

    /// What was still waiting, at the end of the text, and a line break if the text has none at
    /// its end (as a whole text body on a terminal gets one); nothing after no text at all.
    package mutating func finish() -> String {
        var rest = pending
        pending = []
        if !(rest.isEmpty && endsLine) && rest.last != UInt8(ascii: "\n") { rest.append(UInt8(ascii: "\n")) }
        return show(rest[...])
    }

    private mutating func show(_ bytes: ArraySlice<UInt8>) -> String {
        guard let last = bytes.last else { return "" }
        endsLine = last == UInt8(ascii: "\n")
        return DisplayText.escaped(String(decoding: bytes, as: UTF8.self), keepingLineBreaks: true)
    }

    /// Where `bytes` may be cut: before a final CR, or before a final UTF-8 character whose
    /// continuation bytes have not all arrived.
    static func safeEnd(of bytes: [UInt8]) -> Int {
        let end = bytes.count
        if bytes.last == UInt8(ascii: "\r") { return end - 1 }
        // A lead byte among the last three, with fewer continuation bytes after it than it needs.
        var index = end - 1
        while index >= 0 && index >= end - 3 {
            let byte = bytes[index]
            if byte & 0xC0 != 0x80 {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                return end - index < length ? index : end
            }
            index -= 1
        }
        return end
    }
}
