import TextSafety

/// Writes validated JSON text again as `JSONWriter` writes its parsed value compact: whitespace
/// between tokens dropped, numbers and literals as written, strings decoded and escaped again by
/// the writer's rules (`\"`, `\\`, the short escapes, `\u00XX` for other controls and DEL, `/`
/// and other characters as themselves). One pass over the bytes, no tree.
struct JSONCompactTranscoder {
    let reader: JSONSpanReader
    /// Whether the C1 controls (U+0080...U+009F) are escaped too (`PageItemsWriter`'s rule).
    let escapesC1: Bool

    private var bytes: UnsafeBufferPointer<UInt8> { reader.bytes }

    init(reader: JSONSpanReader, escapesC1: Bool) {
        self.reader = reader
        self.escapesC1 = escapesC1
    }

    /// Appends the value in `range` to `output`, handing `output` to `emit` (and emptying it)
    /// whenever it holds `threshold` bytes or more.
    mutating func write(
        _ range: Range<Int>, into output: inout [UInt8], flushingAt threshold: Int, _ emit: ([UInt8]) -> Void
    ) {
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index = writeString(from: index, into: &output, flushingAt: threshold, emit)
            } else if JSONSpanReader.isWhitespace(byte) {
                index += 1
                continue
            } else {
                // Punctuation, numbers and literals, as written (at most a chunk's worth at a time:
                // `[1,2,3,…]` has no whitespace to stop at).
                var end = index + 1
                let runLimit = index + min(max(threshold, 16), range.upperBound - index)
                while end < runLimit, bytes[end] != UInt8(ascii: "\""), !JSONSpanReader.isWhitespace(bytes[end]) {
                    end += 1
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
            }
            if output.count >= threshold {
                emit(output)
                output.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Writes the string whose opening quote is at `start`; returns the index past its closing
    /// quote. A long string is handed to `emit` in pieces too: escaping can make it six times longer.
    private func writeString(
        from start: Int, into output: inout [UInt8], flushingAt threshold: Int,
        _ emit: ([UInt8]) -> Void
    ) -> Int {
        output.append(UInt8(ascii: "\""))
        var index = start + 1
        while true {
            if output.count >= threshold {
                emit(output)
                output.removeAll(keepingCapacity: true)
            }
            // The run of bytes written as they are (at most a chunk's worth at a time).
            var end = index
            let runLimit = index + min(max(threshold, 16), bytes.count)
            while end < runLimit {
                let byte = bytes[end]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F { break }
                if escapesC1, byte == 0xC2, (0x80...0x9F).contains(bytes[end + 1]) { break }
                end += 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
            index = end
            if end == runLimit { continue }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                output.append(UInt8(ascii: "\""))
                return index + 1
            case UInt8(ascii: "\\"):
                let (scalar, next) = reader.escape(at: index)
                JSONStringEscaping.appendEscaped(scalar, escapingC1: escapesC1, to: &output)
                index = next
            case 0x7F:
                JSONStringEscaping.appendHexEscape(0x7F, to: &output)
                index += 1
            default:
                // A C1 control (validated text has no raw control below U+0020 in a string).
                JSONStringEscaping.appendHexEscape(bytes[index + 1], to: &output)
                index += 2
            }
        }
    }
}
