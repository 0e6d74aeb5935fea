import ContentDigest
import XCTest

/// The FIPS 180-4 examples (and NIST's long-message vectors) through `SHA256`, whole and in pieces.
final class SHA256Tests: XCTestCase {
    func testTheFIPSExamples() {
        XCTAssertEqual(
            SHA256.hexDigest(of: Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hexDigest(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            SHA256.hexDigest(of: [UInt8]()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    func testAMillionAsAndEveryLengthAroundABlock() {
        XCTAssertEqual(
            SHA256.hexDigest(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // 55, 56 and 64 bytes: the padding's edge cases (one block, two blocks, a full block).
        XCTAssertEqual(
            SHA256.hexDigest(of: [UInt8](repeating: UInt8(ascii: "a"), count: 55)),
            "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        XCTAssertEqual(
            SHA256.hexDigest(of: [UInt8](repeating: UInt8(ascii: "a"), count: 56)),
            "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        XCTAssertEqual(
            SHA256.hexDigest(of: [UInt8](repeating: UInt8(ascii: "a"), count: 64)),
            "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    func testPiecesHashAsTheWhole() {
        let bytes = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var hash = SHA256()
        hash.update(bytes[0..<63])
        hash.update(bytes[63..<130])
        hash.update(bytes[130...])
        let digits = Array("0123456789abcdef")
        let pieces = hash.finalize().map { String([digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]]) }.joined()
        XCTAssertEqual(pieces, SHA256.hexDigest(of: bytes))
    }
}
