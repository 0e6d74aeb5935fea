/// Short ASCII strings made as the standard library stores them itself, for what loading does
/// most: making a `String` of a scalar's bytes.
///
/// A string of at most 15 UTF-8 bytes is "small": its bytes sit in the string's two words, zero
/// padded, with a discriminator and the count in the top byte (0xE0 | count when every byte is
/// ASCII, as for the literal "abc": 0x636261, 0xE300000000000000). So such a string can be made
/// from its bytes without `String(decoding:as:)`'s validation and repair pass (about a hundred
/// instructions a scalar, issue 42). The layout is the standard library's (the one linked statically into the binary,
/// on 64-bit little-endian machines), not a promise of it: `SmallASCIITests` checks it against
/// strings the library makes itself, so a toolchain that changes it fails the tests.
package enum SmallASCII {
    /// Whether small ASCII strings are laid out as described on this platform.
    #if _pointerBitWidth(_64) && _endian(little)
    @usableFromInline static let isAvailable = true
    #else
    @usableFromInline static let isAvailable = false
    #endif

    /// The top nibble of a small ASCII string's second word.
    @usableFromInline static let discriminator: UInt64 = 0xE

    /// The string of `count` bytes at `bytes`, when they are at most 15 and all ASCII; `nil`
    /// otherwise. Equal, byte for byte, to `String(decoding:as:)`'s.
    @inlinable @inline(__always)
    package static func string(_ bytes: UnsafePointer<UInt8>, count: Int) -> String? {
        guard isAvailable, count <= 15 else { return nil }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) {
            $0.baseAddress.unsafelyUnwrapped.copyMemory(from: bytes, byteCount: count)
        }
        guard (words.0 | words.1) & 0x8080_8080_8080_8080 == 0 else { return nil }
        words.1 |= (discriminator << 60) | (UInt64(truncatingIfNeeded: count) << 56)
        return unsafeBitCast(words, to: String.self)
    }
}
