import PositionedYAML
import TargetSpec
import XCTest

/// Issue 16: a large file handed on case by case (`validate`, `list`) gives its pages back once
/// libyaml has read past them (`InputRelease`). Everything it reports must be what loading the
/// file held whole reports: the cases, every diagnostic, its mark, its hint and its source line.
final class InputReleaseTests: XCTestCase {
    /// Loads `text` twice, held whole and with its pages given back; checks both report the same
    /// cases and diagnostics, rendered with their source lines; returns the rendered diagnostics.
    @discardableResult
    private func loadBothWays(_ text: String, file: String = "big.yaml", line: UInt = #line) -> String {
        let kept = TargetFileLoader.load(text: text, file: file, directory: ".")
        let original = Array(text.utf8)
        let release = InputRelease { original }
        var handedOn: [String] = []
        let released = TargetFileLoader.load(
            bytes: Array(text.utf8), file: file, directory: ".", limits: .default, fileRoot: nil,
            release: release
        ) { handedOn.append($0.name) }
        XCTAssertTrue(release.hasReleased, "pages were given back", line: line)
        XCTAssertEqual(released.diagnostics, kept.diagnostics, line: line)
        XCTAssertEqual(released.renderedDiagnostics(), kept.renderedDiagnostics(), line: line)
        XCTAssertEqual(released.caseCount, kept.caseCount, line: line)
        if let api = kept.api, released.api != nil {
            XCTAssertEqual(handedOn, api.cases.map(\.name), line: line)
        }
        return released.renderedDiagnostics()
    }

    func testAValidLargeFileLoadsAsWhenHeld() {
        let text = largeTargetFile(cases: 9_000)
        XCTAssertGreaterThan(text.utf8.count, TargetFileLoader.releaseThreshold)
        XCTAssertEqual(loadBothWays(text), "")
    }

    func testDiagnosticsNearTheEndKeepTheirSourceLines() {
        let unknownKey = loadBothWays(largeTargetFile(cases: 9_000, extra: "  late: {path: /late, sampel: x}\n"))
        XCTAssertTrue(unknownKey.contains("  late: {path: /late, sampel: x}"), unknownKey)
        let duplicate = loadBothWays(largeTargetFile(cases: 9_000, extra: "  item5: {path: /again}\n"))
        XCTAssertTrue(
            duplicate.contains("duplicate key 'item5'") && duplicate.contains("  item5: {path: /again}"), duplicate)
    }

    func testATabFarIntoTheFileKeepsItsHintAndMark() {
        let rendered = loadBothWays(largeTargetFile(cases: 9_000, extra: "  tabbed:\n\tpath: /tab\n"))
        XCTAssertTrue(rendered.contains("tabs are not allowed in YAML indentation"), rendered)
    }

    /// The file gone (or no longer readable) when an error needs its text again: the error is
    /// still reported, at libyaml's mark, without the hint and the source line it cannot show.
    func testAnErrorAfterTheFileWentIsReportedWithoutWhatNeedsItsText() {
        let text = largeTargetFile(cases: 9_000, extra: "  tabbed:\n\tpath: /tab\n")
        let kept = TargetFileLoader.load(text: text, file: "big.yaml", directory: ".")
        let release = InputRelease { nil }
        let released = TargetFileLoader.load(
            bytes: Array(text.utf8), file: "big.yaml", directory: ".", limits: .default, fileRoot: nil,
            release: release
        ) { _ in }
        XCTAssertTrue(release.hasReleased)
        XCTAssertNil(released.sourceLines)
        XCTAssertEqual(released.diagnostics.map(\.mark), kept.diagnostics.map(\.mark))
        let message = released.diagnostics.first?.message ?? ""
        XCTAssertFalse(message.isEmpty)
        XCTAssertFalse(message.contains("tabs are not allowed"), message)
        XCTAssertTrue(kept.diagnostics.first?.message.contains("tabs are not allowed") ?? false)
    }

    func testAForbiddenByteAtTheEndIsReportedBeforeAnyPageGoes() {
        let text = largeTargetFile(cases: 9_000, extra: "  late: {path: \"/\u{07}\"}\n")
        let kept = TargetFileLoader.load(text: text, file: "big.yaml", directory: ".")
        let original = Array(text.utf8)
        let release = InputRelease { original }
        let released = TargetFileLoader.load(
            bytes: Array(text.utf8), file: "big.yaml", directory: ".", limits: .default, fileRoot: nil,
            release: release
        ) { _ in }
        XCTAssertFalse(kept.diagnostics.isEmpty)
        XCTAssertEqual(released.diagnostics, kept.diagnostics)
        XCTAssertEqual(released.renderedDiagnostics(), kept.renderedDiagnostics())
    }

    /// Through a file, as `validate` and `list` load one: the same result as from its text.
    func testALargeFileOnDiskHandedOnLoadsAsItsText() throws {
        let folder = NSTemporaryDirectory() + "input-release-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/big.yaml"
        let text = largeTargetFile(cases: 9_000, extra: "  late: {path: /late, sampel: x}\n")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var handedOn = 0
        let loaded = TargetFileLoader.load(path: path, file: "big.yaml") { _ in handedOn += 1 }
        let kept = TargetFileLoader.load(text: text, file: "big.yaml", directory: folder)
        XCTAssertEqual(loaded.diagnostics, kept.diagnostics)
        XCTAssertEqual(loaded.renderedDiagnostics(), kept.renderedDiagnostics())
        XCTAssertTrue(
            loaded.renderedDiagnostics().contains("  late: {path: /late, sampel: x}"), loaded.renderedDiagnostics())
    }
}
