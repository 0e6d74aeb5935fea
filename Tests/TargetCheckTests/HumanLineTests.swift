import TargetModel
import TargetSpec
import TextSafety
import XCTest

@testable import TargetCheck

/// Issue 16: a check's human line is built in one reserved string. It must be the line the
/// appends of plain strings gave (kept below as the reference), colors, padding and escaped
/// reasons included.
final class HumanLineTests: XCTestCase {
    private func reference(
        _ reporter: HumanReporter, idWidth: Int, colors: Bool, _ item: CheckItem, _ result: CheckResult
    ) -> String {
        let word = result.outcome.word
        let colored = colors ? HumanReporter.color(result.outcome) + word + "\u{1B}[0m" : word
        var text =
            HumanReporter.pad(DisplayText.escaped(item.id), idWidth) + "  " + colored
            + String(repeating: " ", count: 13 - word.count)
        text +=
            HumanReporter.pad(result.statusCode.map(String.init) ?? "-", 4) + " "
            + HumanReporter.leftPad(result.duration.map(HumanReporter.duration) ?? "-", 8)
        if let first = result.reasons.first { text += "  " + DisplayText.escaped(first) }
        text += "\n"
        for reason in result.reasons.dropFirst() { text += "    " + DisplayText.escaped(reason) + "\n" }
        return text
    }

    func testLinesAreThoseOfTheAppendedStrings() throws {
        let yaml = """
            api: t
            baseURL: https://example.com
            cases:
              a: {path: /a, sample: ok}
              b2: {path: /b, sample: ok}
              a_rather_long_case_name_that_goes_past_the_forty_eight_columns_of_ids: {path: /c, sample: ok}
            """
        let api = try XCTUnwrap(TargetFileLoader.load(text: yaml, file: "t.yaml").api)
        let items = try CheckPlan(apis: [api]).items
        let results: [CheckResult] = [
            .passed(status: 200, duration: 0.0004, request: nil),
            .passed(status: 204, duration: 0.0123, request: nil),
            .passed(status: nil, duration: 12.5, request: nil),
            .failed(
                .drift,
                ["the body's shape differs", "$.id: expected a number, found a string", "bell \u{07} and \u{1B}[31m"],
                status: 500, duration: 1.234),
            .failed(.transport, ["timed out: \u{202E}reversed"], duration: nil),
            .skipped("POST is not sent live; add --include-unsafe to send it"),
            .notCovered("no sample")
        ]
        for colors in [false, true] {
            let reporter = HumanReporter(items: items, colors: colors, showsProgress: false) { _ in }
            let idWidth = min(48, items.map(\.id.count).max() ?? 0)
            for item in items {
                for result in results {
                    XCTAssertEqual(
                        reporter.line(for: item, result),
                        reference(reporter, idWidth: idWidth, colors: colors, item, result),
                        "\(item.id) \(result.outcome) colors \(colors)")
                }
            }
        }
    }
}
