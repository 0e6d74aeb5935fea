import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A source file split into lines the way libyaml splits them, so a ``Mark`` from the loader finds
/// its line: breaks are LF, CR, CR LF, NEL (U+0085), LS (U+2028) and PS (U+2029), and a leading
/// byte-order mark is not part of line 1.
///
/// Every loaded file gets one, but only files with diagnostics read a line, so it keeps the
/// file's bytes as they are (shared with the loader, not copied) and finds the breaks only when a
/// line is first asked for, in one pass over the bytes (a 10,000-case file's index is 1 MB that a
/// valid file never needs); a line becomes text only when it is asked for.
public struct SourceLines: Sendable {
    private let bytes: [UInt8]
    private let index = LazyIndex()

    /// Splits `text` into lines.
    public init(_ text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// Creates lines from a file's bytes; bytes that are not UTF-8 show as U+FFFD.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Where each line starts and ends (before its break), as byte offsets.
    private struct Breaks: Sendable {
        var starts: [Int] = []
        var ends: [Int] = []

        /// The breaks are found on the bytes: each break starts with a byte (LF, CR, or the lead
        /// byte 0xC2 or 0xE2) that is never part of another character nor of an ill-formed
        /// sequence before it, so lines are the same as when the decoded text is split.
        init(of bytes: [UInt8]) {
            var starts: [Int] = []
            var ends: [Int] = []
            bytes.withUnsafeBufferPointer { buffer in
                let count = buffer.count
                var index =
                    buffer.starts(with: SourceScreen.utf8ByteOrderMark) ? SourceScreen.utf8ByteOrderMark.count : 0
                var lineStart = index
                if let base = buffer.baseAddress, !SourceLines.mayHaveOtherBreaks(base + index, count: count - index) {
                    // Only LF ends lines: memchr finds them far faster than a loop over every byte.
                    while index < count, let found = memchr(base + index, 0x0A, count - index) {
                        let breakIndex = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                        starts.append(lineStart)
                        ends.append(breakIndex)
                        index = breakIndex + 1
                        lineStart = index
                    }
                } else {
                    while index < count {
                        let breakLength = SourceScreen.lineBreakLength(at: index, in: buffer)
                        guard breakLength > 0 else {
                            index += 1
                            continue
                        }
                        starts.append(lineStart)
                        ends.append(index)
                        index += breakLength
                        lineStart = index
                    }
                }
                starts.append(lineStart)
                ends.append(count)
            }
            self.starts = starts
            self.ends = ends
        }
    }

    /// The breaks, found once by whichever copy of the lines asks first.
    private final class LazyIndex: Sendable {
        private let breaks = Mutex<Breaks?>(nil)

        func breaks(of bytes: [UInt8]) -> Breaks {
            breaks.withLock { found in
                if let found { return found }
                let made = Breaks(of: bytes)
                found = made
                return made
            }
        }
    }

    /// Whether the bytes hold a CR or the lead byte of NEL, LS or PS (0xC2, 0xE2); if not, only
    /// LF can end a line.
    fileprivate static func mayHaveOtherBreaks(_ start: UnsafePointer<UInt8>, count: Int) -> Bool {
        memchr(start, 0x0D, count) != nil || memchr(start, 0xC2, count) != nil || memchr(start, 0xE2, count) != nil
    }

    /// The number of lines (a file ending in a line break has an empty last line).
    public var count: Int { index.breaks(of: bytes).starts.count }

    /// Line `number` (1-based) without its break, or `nil` if there is no such line.
    public func line(_ number: Int) -> Substring? {
        let breaks = index.breaks(of: bytes)
        guard number >= 1 && number <= breaks.starts.count else { return nil }
        let text = bytes[breaks.starts[number - 1]..<breaks.ends[number - 1]].withUnsafeBufferPointer {
            String(decoding: $0, as: UTF8.self)
        }
        return Substring(text)
    }
}
