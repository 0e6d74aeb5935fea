import MoyaKit

/// Writes the `--report` files: whole or not at all (a temporary file renamed into place), or to
/// stdout for `-`.
enum ReportWriter {
    static func write(_ requests: [ReportRequest], summary: CheckSummary) throws {
        for request in requests {
            let text = switch request.format {
            case .junit: JUnitReporter.render(summary)
            case .json: JSONReporter.render(summary)
            case .tap: TAPReporter.render(summary)
            }
            if request.path == "-" {
                StandardStream.output.write(text)
                continue
            }
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: request.path), options: .atomic)
            } catch {
                throw CommandFailure(.transportFailure, "cannot write the \(request.format.rawValue) report to '\(request.path)': \(error)")
            }
        }
    }
}
