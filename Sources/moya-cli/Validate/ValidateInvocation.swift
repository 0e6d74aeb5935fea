import ArgumentParser
import MoyaKit
import TargetSpec
import TextSafety

// `ValidateInvocation` runs the command. Its fields, its table and `init(_ command:)` are declared in
// Sources/OptionSpecs/Declarations and generated into Validate+Generated.swift (`make options`).
extension ValidateInvocation {
    /// An unknown `--name` is an unknown option here, not a word.
    static var takesValueNames: Bool { false }

    func validate() throws(OptionsError) {
        try targetOptions.validate()
    }

    func run() throws {
        if help { throw CleanExit.helpRequest(MoyaCommand.Validate.self) }
        try reportingFailures {
            let loader = CatalogLoader(options: targetOptions)
            let report =
                files.isEmpty
                ? try MoyaCommand.Validate.discoveredFilesReport(loader)
                : try MoyaCommand.Validate.namedFilesReport(files, fileRoot: targetOptions.fileRoot)
            StandardStream.error.write(
                DiagnosticRenderer.render(
                    report.diagnostics, source: { report.sources[$0] }, colored: loader.colorsDiagnostics))
            StandardStream.output.write(report.summary.joined())
            if files.isEmpty, report.summary.isEmpty {
                StandardStream.error.write(
                    "moya-cli: warning: no target files found; searched: \(DisplayText.escaped(report.searched))\n")
            }
            let errors = report.diagnostics.filter { $0.severity == .error }.count
            if errors > 0 {
                throw CommandFailure(.invalidTargetFile, "\(errors) error\(errors == 1 ? "" : "s") in target files")
            }
        }
    }
}
