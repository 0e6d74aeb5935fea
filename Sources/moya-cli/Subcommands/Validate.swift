import ArgumentParser
import MoyaKit
import TargetSpec

extension MoyaCommand {
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load and validate target files; report every problem with its location.",
            discussion: """
                Validates the given files, or every target file found (see --targets). Prints each \
                problem as FILE:LINE:COLUMN: error: MESSAGE with the offending line. Exits 0 when all \
                files are valid (warnings allowed), 65 otherwise.
                """
        )

        @Argument(help: ArgumentHelp("Target files to validate; default: every file found.", valueName: "file"))
        var files: [String] = []

        @OptionGroup var targetOptions: TargetOptions

        func run() throws {
            try reportingFailures {
                let loader = CatalogLoader(options: targetOptions)
                var diagnostics: [Diagnostic] = []
                var sources: [String: SourceLines] = [:]
                var summary: [String] = []
                if files.isEmpty {
                    let catalog = try loader.load()
                    diagnostics = catalog.diagnostics
                    sources = catalog.sources
                    for entry in catalog.entries + catalog.shadowed {
                        summary.append(Self.summaryLine(file: entry.file, api: entry.api, diagnostics: diagnostics))
                    }
                } else {
                    for file in files {
                        guard FileManager.default.fileExists(atPath: file) else {
                            throw CommandFailure(.usage, "no such file: \(file)")
                        }
                        let result = TargetFileLoader.load(path: file)
                        KeptUntilExit.keep(result)
                        diagnostics += result.diagnostics
                        sources[file] = result.sourceLines
                        summary.append(Self.summaryLine(file: file, api: result.api, diagnostics: result.diagnostics))
                    }
                }
                StandardStream.error.write(DiagnosticRenderer.render(diagnostics, source: { sources[$0] }, colored: loader.colorsDiagnostics))
                StandardStream.output.write(summary.joined())
                let errors = diagnostics.filter { $0.severity == .error }.count
                if errors > 0 {
                    throw CommandFailure(.invalidTargetFile, "\(errors) error\(errors == 1 ? "" : "s") in target files")
                }
            }
        }

        static func summaryLine(file: String, api: APISpec?, diagnostics: [Diagnostic]) -> String {
            let mine = diagnostics.filter { $0.file == file }
            let errors = mine.filter { $0.severity == .error }.count
            let warnings = mine.count - errors
            guard let api, errors == 0 else {
                return "\(file): invalid (\(errors) error\(errors == 1 ? "" : "s"))\n"
            }
            let note = warnings > 0 ? ", \(warnings) warning\(warnings == 1 ? "" : "s")" : ""
            return "\(file): ok (API '\(api.name)', \(api.cases.count) case\(api.cases.count == 1 ? "" : "s")\(note))\n"
        }
    }
}
