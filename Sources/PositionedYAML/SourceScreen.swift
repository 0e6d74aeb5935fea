/// Checks done on a target file's bytes before libyaml sees them, and the byte ↔ mark arithmetic
/// that agrees with libyaml's own counting.
///
/// libyaml counts lines and columns in characters (Unicode scalars), 0-based, and breaks lines at
/// LF, CR, CR LF (one break), NEL (U+0085), LS (U+2028) and PS (U+2029). A UTF-8 byte-order mark at
/// the very start is not counted. Everything here counts the same way, so marks computed here and
/// marks from libyaml point at the same character.
package enum SourceScreen {
    /// The UTF-8 byte-order mark.
    static let utf8ByteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The name of the encoding if `bytes` is clearly UTF-16 or UTF-32 (by byte-order mark, or by
    /// the zero byte beside the first ASCII character that UTF-16 without a mark has).
    static func foreignEncoding(of bytes: UnsafeBufferPointer<UInt8>) -> String? {
        func starts(with prefix: [UInt8]) -> Bool {
            bytes.count >= prefix.count && zip(bytes, prefix).allSatisfy { $0 == $1 }
        }
        if starts(with: [0x00, 0x00, 0xFE, 0xFF]) || starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return "UTF-32" }
        if starts(with: [0xFE, 0xFF]) || starts(with: [0xFF, 0xFE]) { return "UTF-16" }
        if bytes.count >= 2, (bytes[0] == 0) != (bytes[1] == 0), bytes[0] < 0x80, bytes[1] < 0x80 { return "UTF-16" }
        return nil
    }

    /// The first byte that is not well-formed UTF-8, or that encodes a character YAML forbids
    /// (C0 controls but tab, LF and CR; DEL; C1 controls but NEL; U+FFFE; U+FFFF), with its mark.
    /// One pass, no allocation.
    package static func firstForbiddenByte(in bytes: UnsafeBufferPointer<UInt8>) -> LocatedProblem? {
        var index = 0
        let count = bytes.count
        while index < count {
            // Eight bytes at a time while all are printable ASCII, tab, LF or CR (most of a
            // target file: lines are short, so most words hold a line break); any other word is
            // looked at byte by byte. Each test below is exact per byte (no carry crosses into the
            // next byte), leaving 0x80 in the bytes it finds.
            if let base = bytes.baseAddress, index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highBits: UInt64 = 0x8080_8080_8080_8080
                let low7 = ~highBits
                // Bytes equal to `byte`: a zero byte of the XOR is the one whose low seven bits,
                // plus 0x7F, do not reach the high bit, and whose own high bit is clear.
                func equal(_ byte: UInt64) -> UInt64 {
                    let difference = word ^ (ones &* byte)
                    return ~(((difference & low7) &+ low7) | difference) & highBits
                }
                // ASCII bytes under 0x20: their low seven bits plus 0x60 stay under 0x80.
                let control = ~((word & low7) &+ (ones &* 0x60)) & ~word & highBits
                // The three allowed control bytes are only looked for in a word with one.
                let refused = control == 0 ? 0 : control & ~(equal(0x09) | equal(0x0A) | equal(0x0D))
                if refused | equal(0x7F) | (word & highBits) == 0 {
                    index += 8
                    continue
                }
            }
            let lead = bytes[index]
            if lead < 0x80 {
                if lead >= 0x20 && lead != 0x7F || lead == 0x0A || lead == 0x09 || lead == 0x0D {
                    index += 1
                    continue
                }
                return LocatedProblem(problem: .binaryByte(lead, at: mark(ofByteOffset: index, in: bytes)), mark: nil)
            }
            guard let (scalar, length) = decodeMultibyte(at: index, in: bytes) else {
                // The lead byte of the ill-formed sequence is the one named: it is where the
                // text stops being UTF-8, and where a decoder shows its replacement character.
                return LocatedProblem(
                    problem: .invalidUTF8(byte: lead, at: mark(ofByteOffset: index, in: bytes)), mark: nil)
            }
            if (0x80...0x9F).contains(scalar) && scalar != 0x85 || scalar == 0xFFFE || scalar == 0xFFFF,
                let character = Unicode.Scalar(scalar)
            {
                return LocatedProblem(
                    problem: .binaryCharacter(character, at: mark(ofByteOffset: index, in: bytes)), mark: nil)
            }
            index += length
        }
        return nil
    }

    /// Decodes the multi-byte sequence starting at `index`; `nil` if it is ill-formed (overlong,
    /// surrogate, beyond U+10FFFF, truncated, or a stray continuation byte).
    private static func decodeMultibyte(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (UInt32, Int)? {
        let lead = bytes[index]
        let length: Int
        var lowestSecond: UInt8 = 0x80
        var highestSecond: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lowestSecond = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            highestSecond = 0x9F
        case 0xF0:
            length = 4
            lowestSecond = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            highestSecond = 0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= lowestSecond && second <= highestSecond else { return nil }
        var scalar = UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<length {
            let continuation = bytes[index + offset]
            guard continuation & 0xC0 == 0x80 else { return nil }
            scalar = scalar << 6 | UInt32(continuation & 0x3F)
        }
        return (scalar, length)
    }

    /// The 1-based mark of the character starting at byte `offset`, counted as libyaml counts.
    package static func mark(ofByteOffset offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Mark {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            let breakLength = lineBreakLength(at: index, in: bytes)
            if breakLength > 0 {
                line += 1
                column = 1
                index += breakLength
                continue
            }
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return Mark(line: line, column: column)
    }

    /// The byte offset of the character at `mark`, or `nil` if the file has no such character.
    static func byteOffset(of mark: Mark, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var line = 1
        var index = 0
        while line < mark.line {
            guard index < bytes.count else { return nil }
            let breakLength = lineBreakLength(at: index, in: bytes)
            if breakLength > 0 {
                line += 1
                index += breakLength
            } else {
                index += 1
            }
        }
        var column = 1
        while column < mark.column {
            guard index < bytes.count, lineBreakLength(at: index, in: bytes) == 0 else { return nil }
            index += 1
            while index < bytes.count && bytes[index] & 0xC0 == 0x80 { index += 1 }
            column += 1
        }
        return index < bytes.count ? index : nil
    }

    /// The length in bytes of the line break at `index` (CR LF is one break of 2), or 0.
    static func lineBreakLength(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        switch bytes[index] {
        case 0x0A: return 1
        case 0x0D: return index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
        case 0xC2: return index + 1 < bytes.count && bytes[index + 1] == 0x85 ? 2 : 0
        case 0xE2:
            guard index + 2 < bytes.count, bytes[index + 1] == 0x80 else { return 0 }
            return bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 ? 3 : 0
        default: return 0
        }
    }
}
