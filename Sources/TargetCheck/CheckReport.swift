/// The reports of a run, for CI: JUnit XML, a JSON document, TAP 13, and an HTML page for a person.
package enum CheckReport {
    /// The report formats.
    package enum Format: String, CaseIterable, Sendable {
        /// JUnit XML: one testsuite per API, one testcase per item.
        case junit
        /// A JSON document (schema in moya-cli(1), CHECK REPORTS).
        case json
        /// TAP version 13.
        case tap
        /// A self-contained HTML page for a person (see `HTMLReporter`).
        case html
    }

    /// The text of `summary`'s report in `format`.
    package static func render(_ summary: CheckSummary, as format: Format) -> String {
        switch format {
        case .junit: JUnitReporter.render(summary)
        case .json: JSONReporter.render(summary)
        case .tap: TAPReporter.render(summary)
        case .html: HTMLReporter.render(summary)
        }
    }
}
