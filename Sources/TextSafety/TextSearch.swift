#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether one text occurs in another, compared byte for byte (UTF-8).
///
/// The standard library's `contains(_:)` and `replacing(_:with:)` of strings search with a table
/// of Characters built for every call: tens of thousands of instructions for a short text, which
/// importers spend on every header and sample they redact.
package enum TextSearch {
    package static func contains(_ text: some StringProtocol, _ part: some StringProtocol) -> Bool {
        var text = String(text)
        var part = String(part)
        return text.withUTF8 { haystack in
            part.withUTF8 { needle in
                guard let first = needle.first else { return true }
                guard needle.count <= haystack.count else { return false }
                // Each place the first byte occurs (memchr), then the rest compared (memcmp).
                var start = 0
                let last = haystack.count - needle.count
                while start <= last {
                    guard let found = memchr(haystack.baseAddress! + start, Int32(first), last - start + 1) else {
                        return false
                    }
                    let offset = haystack.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(haystack.baseAddress! + offset, needle.baseAddress!, needle.count) == 0 { return true }
                    start = offset + 1
                }
                return false
            }
        }
    }

    /// `text` with every occurrence of `part` replaced, or `text` itself when it has none.
    package static func replacing(_ part: String, with replacement: String, in text: String) -> String {
        guard !part.isEmpty, contains(text, part) else { return text }
        return text.replacing(part, with: replacement)
    }
}
