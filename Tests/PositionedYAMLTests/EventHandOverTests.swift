import PositionedYAML
import XCTest

/// Issue 42: the parsing thread hands libyaml's own events over, with each scalar's text copied
/// into its batch when it fits (`EventPrefetch`); the reader makes the Swift values, small ASCII
/// strings without `String(decoding:)` (`SmallASCII`), and refuses a scalar over the length
/// limit. Everything the reader sees must be what parsing on its own thread gives.
final class EventHandOverTests: XCTestCase {
    /// Every event (or the error) of `text`, parsed with or without the parsing thread.
    private func events(of text: String, prefetching: Bool, maximumScalarLength: Int = 1 << 20) -> [String] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            let parser = LibYAMLParser(
                input: buffer, maximumScalarLength: maximumScalarLength, prefetching: prefetching)
            var seen: [String] = []
            while true {
                do throws(LocatedProblem) {
                    let event = try parser.next()
                    seen.append(String(describing: event))
                    if case .streamEnd = event { break }
                } catch {
                    seen.append("error \(error.problem.message) at \(error.mark.map(String.init(describing:)) ?? "-")")
                    // Parsed ahead, nothing follows an error: the stream has ended (as before).
                    if prefetching {
                        for _ in 0..<2 {
                            if let after = try? parser.next(), case .streamEnd = after { continue }
                            seen.append("an event after the error")
                        }
                    }
                    break
                }
            }
            return seen
        }
    }

    /// Scalars of every length around the batch's text capacity, quoted and plain, ASCII and not,
    /// anchored and tagged: texts that fit in a batch and texts that stay libyaml's.
    private func mixedScalars(count: Int) -> String {
        var text = "root:\n"
        for index in 0..<count {
            let length = (index * 37) % 700
            let word = String(repeating: index % 5 == 0 ? "é" : "a", count: length / (index % 5 == 0 ? 2 : 1))
            switch index % 4 {
            case 0: text += "  k\(index): \"\(word)\"\n"
            case 1: text += "  k\(index): &a\(index) x\(word)\n"
            case 2: text += "  k\(index): !!str \(index)\n"
            default: text += "  k\(index): [\(word.isEmpty ? "~" : word), *a\(index - 2), '', \"\\t\"]\n"
            }
        }
        if count >= 6000 { text += "  long: \(String(repeating: "z", count: 70_000))\n" }
        return text
    }

    func testScalarsInAndOutOfTheBatchTextArriveAsParsedOnOneThread() {
        let text = mixedScalars(count: 6000)
        XCTAssertGreaterThan(text.utf8.count, LibYAMLParser.prefetchThreshold)
        let direct = events(of: text, prefetching: false)
        XCTAssertGreaterThan(direct.count, 4 * EventPrefetch.batchSize)
        let ahead = events(of: text, prefetching: true)
        XCTAssertEqual(ahead.count, direct.count)
        XCTAssertTrue(ahead == direct, "parsed ahead, the events differ")
    }

    func testAScalarOverTheLimitIsRefusedAtItsPlaceWithNothingAfter() {
        let limit = 300
        // Scalars up to the limit pass; the first longer one (and it alone) is refused.
        let text = largeTargetFile(
            cases: 800,
            extra: "  atLimit: {path: /\(String(repeating: "p", count: limit - 1))}\n"
                + "  over: {path: /\(String(repeating: "q", count: limit + 20))}\n"
                + "  later: {path: /\(String(repeating: "r", count: limit * 3))}\n"
                // Batches after the refused scalar's: none of their events may be read.
                + (0..<2000).map { "  after\($0): {path: /after/\($0)}\n" }.joined())
        let direct = events(of: text, prefetching: false, maximumScalarLength: limit)
        XCTAssertTrue(direct.last?.hasPrefix("error ") == true, direct.last ?? "")
        XCTAssertTrue(direct.last?.contains("\(limit + 21)") == true, direct.last ?? "")
        let ahead = events(of: text, prefetching: true, maximumScalarLength: limit)
        XCTAssertEqual(ahead.count, direct.count)
        XCTAssertTrue(ahead == direct, "parsed ahead, the events or the error differ")
    }

    func testSmallASCIIStringsAreTheLibrarysOwn() throws {
        // Lengths 0 to 20, every byte value at every position of the first 16.
        var samples: [[UInt8]] = (0...20).map { Array("abcdefghijklmnopqrstu".utf8.prefix($0)) }
        for position in 0..<16 {
            for byte in [0x00, 0x01, 0x20, 0x7E, 0x7F, 0x80, 0xC3, 0xFF] as [UInt8] {
                var bytes = Array(repeating: UInt8(ascii: "k"), count: 16)
                bytes[position] = byte
                samples.append(Array(bytes.prefix(position + 1)))
                samples.append(bytes)
            }
        }
        samples.append(Array("é".utf8))
        samples.append(Array("path".utf8))
        var made = 0
        for bytes in samples {
            let library = String(decoding: bytes, as: UTF8.self)
            let fast = bytes.withUnsafeBufferPointer { buffer in
                SmallASCII.string(buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: buffer.count)
            }
            let isSmallASCII = bytes.count <= 15 && bytes.allSatisfy { $0 < 0x80 }
            XCTAssertEqual(fast != nil, isSmallASCII, "\(bytes)")
            guard let fast else { continue }
            made += 1
            XCTAssertEqual(fast, library, "\(bytes)")
            XCTAssertEqual(Array(fast.utf8), bytes)
            XCTAssertEqual(fast.utf8.count, bytes.count)
            XCTAssertEqual(fast.hashValue, library.hashValue)
            XCTAssertEqual(fast + "!", library + "!")
            XCTAssertEqual(withUnsafeBytes(of: fast) { Array($0) }, withUnsafeBytes(of: library) { Array($0) })
        }
        XCTAssertGreaterThan(made, 80)
    }
}
