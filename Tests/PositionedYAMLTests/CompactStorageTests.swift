import PositionedYAML
import XCTest

/// Issue 16: the tables a large file's cases fill (`ChunkedArray`, the duplicate-key index
/// `KeyTable`) are kept compact; each must answer as the plain array or dictionary it replaces.
final class CompactStorageTests: XCTestCase {
    func testChunkedArrayIsAnArray() {
        var chunked = ChunkedArray<Int>(chunkShift: 2)
        var reference: [Int] = []
        XCTAssertTrue(chunked.isEmpty)
        var generator = SystemRandomNumberGenerator()
        for step in 0..<500 {
            chunked.append(step * 3)
            reference.append(step * 3)
            if step % 7 == 0 {
                let position = Int.random(in: 0..<reference.count, using: &generator)
                chunked[position] = -step
                reference[position] = -step
            }
            if step % 11 == 0 {
                chunked[chunked.count - 1] += 1
                reference[reference.count - 1] += 1
            }
        }
        XCTAssertEqual(chunked.count, 500)
        XCTAssertEqual(Array(chunked), reference)
        XCTAssertEqual(chunked.reversed(), reference.reversed())
        XCTAssertEqual(chunked[128], reference[128])  // the first element of a chunk
        XCTAssertEqual(chunked[127], reference[127])  // the last of one
    }

    /// A mark keeps its line and column in 32 bits each: read back, ordered and printed as before;
    /// what 32 bits cannot hold is clamped, not trapped on.
    func testMarkInThirtyTwoBits() {
        var mark = Mark(line: 70_000, column: 12)
        XCTAssertEqual(MemoryLayout<Mark>.size, 8)
        XCTAssertEqual([mark.line, mark.column], [70_000, 12])
        XCTAssertEqual(mark.description, "70000:12")
        mark.column += 1
        XCTAssertEqual(mark, Mark(line: 70_000, column: 13))
        XCTAssertLessThan(Mark(line: 2, column: 99), Mark(line: 3, column: 1))
        XCTAssertLessThan(Mark(line: 3, column: 1), Mark(line: 3, column: 2))
        XCTAssertEqual(Mark(line: Int(UInt32.max) + 5, column: -1), Mark(line: Int(UInt32.max), column: 0))
        XCTAssertEqual(Set([Mark(line: 1, column: 2), Mark(line: 1, column: 2), Mark(line: 2, column: 1)]).count, 2)
    }

    /// The first mark of each key, as a dictionary of the first marks gives it: canonically
    /// equivalent keys are the same key, bytes alone do not decide, and the table grows many
    /// times past its first size.
    func testKeyTableFindsWhatADictionaryFinds() {
        var table = KeyTable()
        var reference: [String: Mark] = [:]
        let words = [
            "caf\u{E9}", "cafe\u{301}", "\u{212A}", "K", "Å", "A\u{30A}", "\u{212B}", "",
            "a much longer key than fifteen bytes", "\u{1F600}"
        ]
        var keys = words
        for index in 0..<5_000 { keys.append(index % 3 == 0 ? "case\(index / 2)" : "item\(index)") }
        keys += words + keys.prefix(40)
        for (index, key) in keys.enumerated() {
            let mark = Mark(line: index + 1, column: index % 9 + 1)
            let first = table.insert(key, at: mark)
            XCTAssertEqual(first, reference[key], "key \(key.debugDescription) at \(index)")
            if reference[key] == nil { reference[key] = mark }
        }
        XCTAssertEqual(table.count, reference.count)
    }
}
