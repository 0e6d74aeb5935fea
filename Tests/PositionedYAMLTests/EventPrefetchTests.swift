import PositionedYAML
import TargetSpec
import XCTest

/// Issue 16: large inputs are parsed on a thread of their own, ahead of the builder
/// (`EventPrefetch`). What the builder sees, and so every diagnostic, must be what parsing on the
/// caller's thread gives: the same events, the same error at the same place, nothing after.
final class EventPrefetchTests: XCTestCase {
    /// Every event (or the error) of `text`, parsed with or without the parsing thread.
    private func events(of text: String, prefetching: Bool, limit: Int = .max) -> [String] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            let parser = LibYAMLParser(input: buffer, maximumScalarLength: 1 << 20, prefetching: prefetching)
            var seen: [String] = []
            while seen.count < limit {
                do throws(LocatedProblem) {
                    let event = try parser.next()
                    seen.append(String(describing: event))
                    if case .streamEnd = event { break }
                } catch {
                    seen.append("error \(error.problem.message) at \(error.mark.map(String.init(describing:)) ?? "-")")
                    break
                }
            }
            return seen
        }
    }

    func testLargeInputsAreParsedAheadWithTheSameEvents() {
        let text = largeTargetFile(cases: 2000)
        XCTAssertGreaterThan(text.utf8.count, LibYAMLParser.prefetchThreshold)
        let direct = events(of: text, prefetching: false)
        XCTAssertGreaterThan(
            direct.count, (EventPrefetch.depth + 2) * EventPrefetch.batchSize, "more batches than the queue holds")
        XCTAssertEqual(events(of: text, prefetching: true), direct)
    }

    func testASyntaxErrorArrivesAfterTheSameEventsAndNothingFollows() {
        let text = largeTargetFile(cases: 500, extra: "  broken: [unclosed\n  next: 1\n")
        let direct = events(of: text, prefetching: false)
        XCTAssertTrue(direct.last?.hasPrefix("error ") == true, direct.last ?? "")
        XCTAssertEqual(events(of: text, prefetching: true), direct)
    }

    func testAfterTheStreamEndsTheParserKeepsAnsweringStreamEnd() throws {
        let bytes = Array(largeTargetFile(cases: 450).utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            let parser = LibYAMLParser(input: buffer, maximumScalarLength: 1 << 20, prefetching: true)
            while true {
                if case .streamEnd = try parser.next() { break }
            }
            for _ in 0..<3 {
                guard case .streamEnd = try parser.next() else { return XCTFail("an event after the stream's end") }
            }
        }
    }

    /// The reader may stop at any point (a limit, a second document): the parsing thread must end
    /// and nothing hang, with its queue full or not.
    func testStoppingEarlyEndsTheParsingThread() {
        let text = largeTargetFile(cases: 3000)
        for limit in [0, 1, EventPrefetch.batchSize, EventPrefetch.batchSize * (EventPrefetch.depth + 2)] {
            XCTAssertEqual(events(of: text, prefetching: true, limit: limit).count, limit)
        }
    }

    func testLoaderDiagnosticsOfALargeFileArePlacedAsBefore() {
        // A duplicate key half-way, an unknown key near the end: both reported, at their lines.
        var text = largeTargetFile(cases: 600)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let pathIndex = 3 + 4 * 300 + 1  // item300's `path:` line, counted from 0
        var edited = Array(lines)
        edited.insert("    path: /again", at: pathIndex + 1)
        edited.insert("  late: {path: /late, sampel: x}", at: edited.count - 1)
        text = edited.joined(separator: "\n")
        let result = TargetFileLoader.load(text: text, file: "big.yaml", directory: ".")
        XCTAssertNil(result.api)
        let rendered = result.renderedDiagnostics()
        XCTAssertTrue(rendered.contains("big.yaml:\(pathIndex + 2):5: error: duplicate key 'path'"), rendered)
    }

    func testLargeFileErrorsThatStopLoadingDoNotHang() {
        // A second document, and a node limit reached early: the builder stops, the parsing
        // thread with it.
        let twoDocuments = TargetFileLoader.load(
            text: largeTargetFile(cases: 500) + "---\napi: other\n", file: "two.yaml", directory: ".")
        XCTAssertTrue(twoDocuments.renderedDiagnostics().contains("two.yaml:"), twoDocuments.renderedDiagnostics())
        XCTAssertNil(twoDocuments.api)

        var limits = YAMLLimits.default
        limits.maximumCases = 1000
        let bytes = Array(largeTargetFile(cases: 3000).utf8)
        let tooMany = TargetFileLoader.load(bytes: bytes, file: "many.yaml", directory: ".", limits: limits)
        XCTAssertNil(tooMany.api)
        // The 1,001st case's key: line 3 is `cases:`, each case four lines.
        XCTAssertEqual(tooMany.diagnostics.count, 1)
        XCTAssertTrue(
            tooMany.renderedDiagnostics().hasPrefix(
                "many.yaml:\(4 + 4 * 1000):3: error: the file holds more than 1000 cases; the file is refused (split the API into several files)\n"
            ),
            tooMany.renderedDiagnostics())
    }

    func testAStreamedCaseCountsItsNodesOnlyWhileItIsRead() {
        // 3,000 cases of 17 nodes each: 51,000 nodes in the file; held at once, the cases' keys
        // (kept to find duplicates) and one case.
        var limits = YAMLLimits.default
        limits.maximumNodes = 3100
        let result = TargetFileLoader.load(
            bytes: Array(largeTargetFile(cases: 3000).utf8), file: "many.yaml", directory: ".", limits: limits)
        XCTAssertEqual(result.diagnostics, [])
        XCTAssertEqual(result.api?.cases.count, 3000)
        // One case larger than the limit is still refused, where it crosses it.
        limits.maximumNodes = 100
        let headers = (0..<60).map { "X-H\($0): v" }.joined(separator: ", ")
        let large = "api: big\nbaseURL: https://example.com\ncases:\n  one:\n    path: /\n    headers: {\(headers)}\n"
        let refused = TargetFileLoader.load(bytes: Array(large.utf8), file: "one.yaml", directory: ".", limits: limits)
        XCTAssertNil(refused.api)
        XCTAssertTrue(refused.renderedDiagnostics().contains("one.yaml:6:"), refused.renderedDiagnostics())
        XCTAssertTrue(refused.renderedDiagnostics().contains("more than 100 YAML nodes"), refused.renderedDiagnostics())
    }

    func testACaseThatDefinesAnAnchorKeepsCountingItsNodes() {
        // An anchor keeps its node alive for later aliases, so anchored cases add up.
        var text = "api: big\nbaseURL: https://example.com\ncases:\n"
        for index in 0..<40 {
            text += "  item\(index):\n    path: /items/\(index)\n    headers: &h\(index) {X-A: a, X-B: b}\n"
        }
        var limits = YAMLLimits.default
        limits.maximumNodes = 100
        let refused = TargetFileLoader.load(
            bytes: Array(text.utf8), file: "anchors.yaml", directory: ".", limits: limits)
        XCTAssertNil(refused.api)
        XCTAssertTrue(refused.renderedDiagnostics().contains("more than 100 YAML nodes"), refused.renderedDiagnostics())
        limits.maximumNodes = 1000
        XCTAssertEqual(
            TargetFileLoader.load(bytes: Array(text.utf8), file: "anchors.yaml", directory: ".", limits: limits).api?
                .cases.count, 40)
    }

    func testALargeValidFileLoadsAsAWhole() {
        let result = TargetFileLoader.load(text: largeTargetFile(cases: 1000), file: "big.yaml", directory: ".")
        XCTAssertEqual(result.diagnostics, [])
        XCTAssertEqual(result.api?.cases.count, 1000)
        XCTAssertEqual(result.api?.cases.last?.name, "item999")
    }

    /// Hostile large files: each problem is found by the thread that finds it (a scalar over the
    /// limit by the parsing thread, an alias bomb or an unknown alias by the builder), reported
    /// at its place, and loading ends without hanging.
    func testHostileLargeFilesAreRefusedAsBefore() {
        var limits = YAMLLimits.default
        limits.maximumScalarLength = 1000
        let long = TargetFileLoader.load(
            bytes: Array(
                largeTargetFile(
                    cases: 500, extra: "  huge: {path: /h, sample: \"\(String(repeating: "x", count: 5000))\"}\n"
                ).utf8),
            file: "long.yaml", directory: ".", limits: limits)
        XCTAssertNil(long.api)
        XCTAssertTrue(long.renderedDiagnostics().contains("long.yaml:2004:"), long.renderedDiagnostics())
        XCTAssertTrue(long.renderedDiagnostics().contains("scalar is too long (5000 bytes"), long.renderedDiagnostics())

        let unknown = TargetFileLoader.load(
            text: largeTargetFile(cases: 500, extra: "  aliased: *nowhere\n"), file: "alias.yaml", directory: ".")
        XCTAssertTrue(
            unknown.renderedDiagnostics().contains("alias.yaml:2004:12: error: unknown alias '*nowhere'"),
            unknown.renderedDiagnostics())

        var bomb = "api: bomb\nbaseURL: https://example.com\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...6 {
            bomb +=
                "\(Character(UnicodeScalar(97 + level)!)): &\(Character(UnicodeScalar(97 + level)!)) ["
                + Array(repeating: "*\(Character(UnicodeScalar(96 + level)!))", count: 10).joined(separator: ", ")
                + "]\n"
        }
        let padded = largeTargetFile(cases: 700).replacingOccurrences(
            of: "api: big\nbaseURL: https://example.com\n", with: bomb)
        XCTAssertGreaterThan(padded.utf8.count, LibYAMLParser.prefetchThreshold)
        let exploded = TargetFileLoader.load(text: padded, file: "bomb.yaml", directory: ".")
        XCTAssertNil(exploded.api)
        XCTAssertTrue(
            exploded.renderedDiagnostics().contains("aliases expand to more than"), exploded.renderedDiagnostics())
    }
}
