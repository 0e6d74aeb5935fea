import ArgumentParser
import MoyaKit
import PositionedYAML
import TargetModel
import TargetSpec

#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// `validate`'s configuration, checks and run. Its options and arguments are declared in
// Sources/OptionSpecs/Declarations and generated into Validate+Generated.swift (`make options`).
extension MoyaCommand.Validate {
    static let configuration = CommandConfiguration(
        abstract: "Load and validate target files; report every problem with its location.",
        discussion: """
            Validates the given files (a folder stands for its *.yaml and *.yml files), or every \
            target file found (see --targets). Prints each problem on stderr as \
            FILE:LINE:COLUMN: error: MESSAGE with the offending line, and one summary line per \
            file on stdout; a sample whose status fails because the file writes no 'validation' \
            (then 2xx only) gets a note. Exits 0 when all files are valid (warnings allowed), 65 otherwise, \
            64 for a file that does not exist.
            """
    )

    func run() throws {
        try ValidateInvocation(self).run()
    }

    /// Every problem found, each file's lines, and one summary line per file.
    struct Report {
        var diagnostics: [Diagnostic] = []
        var sources: [String: SourceLines] = [:]
        var summary: [String] = []
        /// For discovered files: the places searched (`TargetCatalog.searchedDescription`).
        var searched = ""
    }

    /// Validates everything discovery finds, with its same-level duplicate errors, in
    /// discovery order (a file with no valid API name included).
    static func discoveredFilesReport(_ loader: CatalogLoader) throws -> Report {
        // Each case is validated and dropped: validate keeps only the diagnostics, counts and notes.
        let failingSamples = FailingSamples()
        let catalog = try loader.load { file, spec in failingSamples.record(spec, in: file.displayPath) }
        let entries = catalog.entries + catalog.shadowed
        var report = Report(
            diagnostics: catalog.diagnostics, sources: catalog.sources, searched: catalog.searchedDescription)
        for file in catalog.files {
            let entry = entries.first { $0.file == file }
            report.summary.append(
                summaryLine(
                    file: file, api: entry?.api, caseCount: entry?.caseCount ?? 0,
                    diagnostics: catalog.diagnostics))
            report.diagnostics += notes(
                file: file, api: entry?.api, diagnostics: catalog.diagnostics, failingSamples: failingSamples)
        }
        return report
    }

    /// Validates the files named on the command line; every name is checked before any is loaded.
    static func namedFilesReport(_ arguments: [String], fileRoot: String?) throws -> Report {
        var paths: [String] = []
        for argument in arguments {
            var isFolder = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else {
                throw CommandFailure(.usage, "no such file: \(argument)")
            }
            guard isFolder else {
                paths.append(argument)
                continue
            }
            // Regular files only: a FIFO named *.yaml in a folder is skipped, not waited on.
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? [])
                .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
                .filter { name in
                    var status = stat()
                    return stat(argument + "/" + name, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
                }
                .sorted()
            guard !names.isEmpty else {
                throw CommandFailure(.usage, "no target files (*.yaml, *.yml) in folder \(argument)")
            }
            paths += names.map { argument.hasSuffix("/") ? argument + $0 : argument + "/" + $0 }
        }
        var report = Report()
        var seen = Set<String>()
        let failingSamples = FailingSamples()
        for path in paths where seen.insert(path).inserted {
            let result = TargetFileLoader.load(path: path, fileRoot: fileRoot) { spec in
                failingSamples.record(spec, in: path)
            }
            KeptUntilExit.keep(result)
            report.diagnostics += result.diagnostics
            report.sources[path] = result.sourceLines
            report.summary.append(
                summaryLine(
                    file: path, api: result.api, caseCount: result.caseCount, diagnostics: result.diagnostics))
            report.diagnostics += notes(
                file: path, api: result.api, diagnostics: result.diagnostics, failingSamples: failingSamples)
        }
        return report
    }

    /// What a valid file relies on without writing it, where it matters: with no `validation`
    /// (neither the case nor the top level), a sample's status outside 2xx fails. One note per
    /// file, at its first such sample.
    static func notes(file: String, api: APISpec?, diagnostics: [Diagnostic], failingSamples: FailingSamples)
        -> [Diagnostic]
    {
        guard let api, api.validation == nil, let (status, mark) = failingSamples.first[file],
            !diagnostics.contains(where: { $0.file == file && $0.severity == .error })
        else { return [] }
        return [
            Diagnostic(
                .note, file: file, mark: mark,
                message: """
                    this sample's status \(status) fails the validation of a file that writes none (200...299: call exits \
                    \(ExitStatus.forFailedValidation(statusCode: status).rawValue)); write 'validation: none' to accept every status
                    """)
        ]
    }

    /// The first sample with a status outside 2xx of a case that writes no `validation`, per file.
    final class FailingSamples {
        var first: [String: (status: Int, mark: Mark)] = [:]

        func record(_ spec: CaseSpec, in file: String) {
            guard first[file] == nil, spec.validation == nil else { return }
            for named in spec.samples {
                if case .response(let status, _, _) = named.sample.outcome, !(200...299).contains(status) {
                    first[file] = (status, named.sample.mark)
                    return
                }
            }
        }
    }

    /// `FILE: ok (API 'NAME', N cases[, M warnings])` or `FILE: invalid (N errors)`.
    static func summaryLine(file: String, api: APISpec?, caseCount: Int, diagnostics: [Diagnostic]) -> String {
        let mine = diagnostics.filter { $0.file == file }
        let errors = mine.filter { $0.severity == .error }.count
        let warnings = mine.filter { $0.severity == .warning }.count
        guard let api, errors == 0 else {
            return "\(file): invalid (\(errors) error\(errors == 1 ? "" : "s"))\n"
        }
        let note = warnings > 0 ? ", \(warnings) warning\(warnings == 1 ? "" : "s")" : ""
        return "\(file): ok (API '\(api.name)', \(caseCount) case\(caseCount == 1 ? "" : "s")\(note))\n"
    }
}
