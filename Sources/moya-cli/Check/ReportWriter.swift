import FileIO
import MoyaKit
import TargetCheck

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes the `--report` files by `OutputFile`'s rules: a regular file whole or not at all (a
/// temporary file renamed into place, replacing an existing report, as CI expects), a device or
/// FIFO (`/dev/stdout`, `/dev/null`) written through, never replaced; stdout for `-`. Missing
/// folders are made as `mkdir -p` makes them (`reports/ci/x.xml` in a fresh checkout).
enum ReportWriter {
    static func write(_ requests: [ReportRequest], summary: CheckSummary) throws {
        for request in requests {
            let text = CheckReport.render(summary, as: request.format)
            do throws(FileError) {
                if request.path == "-" {
                    try StandardStream.output.writeChecked(text)
                } else {
                    try OutputFile.write(
                        Data(text.utf8), to: URL(fileURLWithPath: request.path), overwrite: true, createFolders: true)
                }
            } catch {
                throw CommandFailure(
                    ResponseWriter.status(for: error),
                    "cannot write the \(request.format.rawValue) report: \(error.message)")
            }
        }
    }
}
