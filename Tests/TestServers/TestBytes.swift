import Foundation

/// The deterministic bytes `/bytes/N` and `/stream-bytes/N` serve: byte `i` depends only on `i`,
/// so any size can be produced, and checked, without holding it in memory.
public enum TestBytes {
    /// The pattern repeats with this period (a prime, so it never lines up with buffer sizes).
    public static let period = 65_521

    /// One period, followed by 256 KiB more of it, so any slice up to 256 KiB is contiguous.
    private static let extendedPattern: [UInt8] = {
        let pattern = (0..<period).map { index -> UInt8 in
            let mixed = UInt32(truncatingIfNeeded: index) &* 2_654_435_761
            return UInt8(truncatingIfNeeded: mixed >> 24)
        }
        var extended = pattern
        while extended.count < period + 256 * 1024 { extended += pattern }
        return extended
    }()

    /// The byte at `offset`.
    public static func byte(at offset: Int) -> UInt8 {
        extendedPattern[offset % period]
    }

    /// `count` bytes starting at `offset`.
    public static func data(offset: Int = 0, count: Int) -> Data {
        var data = Data(capacity: count)
        var done = 0
        while done < count {
            let length = min(256 * 1024, count - done)
            withBytes(offset: offset + done, count: length) { data.append(contentsOf: $0) }
            done += length
        }
        return data
    }

    /// Calls `body` with `count` (at most 256 KiB) bytes starting at `offset`, without copying.
    public static func withBytes<Result>(offset: Int, count: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result
    {
        precondition(count <= 256 * 1024, "TestBytes.withBytes serves at most 256 KiB at a time")
        let start = offset % period
        return extendedPattern.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<(start + count)])) }
    }

    /// Whether the file at `url` holds exactly the first `count` test bytes; reads it piece by piece.
    public static func fileMatches(_ url: URL, count: Int) throws -> Bool {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var offset = 0
        while true {
            guard let piece = try handle.read(upToCount: 256 * 1024), !piece.isEmpty else { break }
            guard offset + piece.count <= count else { return false }
            let same = piece.withUnsafeBytes { actual in
                withBytes(offset: offset, count: piece.count) { expected in
                    guard let actualStart = actual.baseAddress, let expectedStart = expected.baseAddress else {
                        return actual.count == expected.count
                    }
                    return memcmp(actualStart, expectedStart, piece.count) == 0
                }
            }
            guard same else { return false }
            offset += piece.count
        }
        return offset == count
    }
}
