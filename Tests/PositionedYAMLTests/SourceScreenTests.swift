import PositionedYAML
import XCTest

/// Issue 16: the screen for binary bytes reads sixteen, then eight bytes at a time; wherever the
/// forbidden byte falls among them, it must name the same byte and place as a byte-by-byte scan.
final class SourceScreenTests: XCTestCase {
    private func screen(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { SourceScreen.firstForbiddenByte(in: $0)?.problem.message }
    }

    private func expected(_ bytes: [UInt8], badAt offset: Int) -> String {
        bytes.withUnsafeBufferPointer {
            YAMLProblem.binaryByte(bytes[offset], at: SourceScreen.mark(ofByteOffset: offset, in: $0)).message
        }
    }

    func testEveryPlaceOfAForbiddenByteIsFound() {
        let fillers: [[UInt8]] = [
            Array("key: value".utf8), Array("  - \t\r\n".utf8), Array("caf\u{E9} \u{1F600}\n".utf8)
        ]
        for filler in fillers {
            for length in 0..<70 {
                let text = (0..<length).map { filler[$0 % filler.count] }
                // A split multi-byte character at the end is its own (UTF-8) problem, not this test's.
                guard String(validating: text, as: UTF8.self) != nil else { continue }
                XCTAssertNil(screen(text), "clean: \(text)")
                for bad: UInt8 in [0x00, 0x01, 0x0B, 0x0C, 0x1B, 0x1F, 0x7F] {
                    for position in 0...length {
                        var bytes = text
                        bytes.insert(bad, at: position)
                        guard String(validating: bytes, as: UTF8.self) != nil else { continue }  // inside a character
                        XCTAssertEqual(
                            screen(bytes), expected(bytes, badAt: position), "byte \(bad) at \(position) of \(bytes)")
                    }
                }
            }
        }
    }
}
