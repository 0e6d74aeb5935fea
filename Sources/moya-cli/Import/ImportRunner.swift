import FileIO
import MoyaKit
import OpenAPIImport
import PositionedYAML
import TargetModel
import TargetSpec
import TextSafety

#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs `moya-cli import openapi`: reads the spec, imports it, validates the result as a target
/// file, writes it, and says on stderr what was not imported.
struct ImportRunner {
    let command: MoyaCommand.Import.OpenAPI

    /// The file every `file` value's example names, beside the target file, so `check` covers
    /// upload cases; written only when a case needs it and it is not there yet.
    static let exampleUploadFile = "samples/moya-import-upload.txt"
    static let exampleUploadText = "An example upload written by moya-cli import; use a real file instead.\n"

    func run() throws {
        let specName = command.spec == "-" ? "<stdin>" : command.spec
        let bytes = try ImportInput.read(
            command.spec, name: specName, limit: OpenAPIImporter.limits.maximumFileSize, what: "OpenAPI documents")
        let toStandardOutput = command.output == "-"
        var options = OpenAPIImportOptions(
            apiName: command.apiName ?? Self.apiName(fromOutput: command.output), only: command.only,
            specPath: command.spec == "-" ? nil : command.spec)
        // The example upload goes beside a target file, never beside a device or a FIFO
        // (`-o /dev/stdout` must not make /dev/samples).
        if !toStandardOutput, Self.isRegularFileOrAbsent(command.output) {
            options.exampleUploadFile = Self.exampleUploadFile
        }

        let result: OpenAPIImportResult
        do throws(OpenAPIImportError) {
            result = try OpenAPIImporter.importDocument(bytes, file: specName, options: options)
        } catch {
            throw Self.failure(for: error, specName: specName, bytes: bytes)
        }

        let outputPath = command.output ?? "targets/\(result.apiName).yaml"
        let folder = toStandardOutput ? "." : APISpec.folder(of: outputPath)
        if !toStandardOutput {
            try ImportedTargetFile.checkWritable(outputPath, replacing: command.force)
        }
        // The example upload must exist for the file to validate (and for check to use it).
        var createdUpload: String?
        if result.usesExampleUpload {
            createdUpload = try Self.writeExampleUpload(in: folder)
        }
        let loaded = TargetFileLoader.load(
            text: result.text, file: toStandardOutput ? "<stdout>" : outputPath, directory: folder)
        if loaded.hasErrors {
            if let createdUpload { unlink(createdUpload) }
            StandardStream.error.write(loaded.renderedDiagnostics(summarizingWarnings: true))
            throw CommandFailure(
                .internalError,
                "the target file made from \(specName) does not validate; nothing was written (this is a bug in moya-cli import: please report it with the spec)"
            )
        }
        do throws(FileError) {
            if toStandardOutput {
                try StandardStream.output.writeChecked(result.text)
            } else {
                let file = try OutputFile(path: outputPath, overwrite: command.force, createFolders: true)
                do throws(FileError) {
                    try file.write(Array(result.text.utf8).withUnsafeBytes { Data($0) })
                    try file.commit()
                } catch {
                    file.discard()
                    throw error
                }
            }
        } catch {
            if let createdUpload { unlink(createdUpload) }
            throw CommandFailure(
                [.destinationExists, .destinationProtected].contains(error.kind) ? .usage : .cannotWriteOutput,
                error.message)
        }
        report(result, outputPath: toStandardOutput ? nil : outputPath, createdUpload: createdUpload)
    }

    /// What was written and what was not imported, on stderr.
    private func report(_ result: OpenAPIImportResult, outputPath: String?, createdUpload: String?) {
        var lines: [String] = []
        let skipped = result.notes.filter(\.skipsOperation)
        let place = outputPath ?? "standard output"
        lines.append(
            "import: wrote \(place): API '\(result.apiName)', \(result.caseCount) case\(result.caseCount == 1 ? "" : "s") from \(result.operationCount) operation\(result.operationCount == 1 ? "" : "s")"
        )
        if !skipped.isEmpty {
            let list = skipped.prefix(5).map { ($0.operation ?? "?") + " (" + $0.message + ")" }.joined(separator: "; ")
            lines.append(
                "import: \(skipped.count) operation\(skipped.count == 1 ? "" : "s") skipped: \(list)\(skipped.count > 5 ? "; …" : "")"
            )
        }
        let general = result.notes.filter { !$0.skipsOperation && $0.caseName == nil }
        let onCases = result.notes.filter { !$0.skipsOperation && $0.caseName != nil }
        for note in general.prefix(20) { lines.append("import: api: \(note.message)") }
        if general.count > 20 {
            lines.append("import: … and \(general.count - 20) more notes on the API: see the top of \(place)")
        }
        if onCases.count <= 20 {
            for note in onCases { lines.append("import: \(note.caseName ?? "api"): \(note.message)") }
        } else {
            // Too many to read one by one: how many of each kind, with a case to look at.
            lines.append(
                "import: \(onCases.count) notes on cases, by kind (each is a comment at its case in \(place)):")
            var counts: [String: (count: Int, example: String)] = [:]
            var order: [String] = []
            for note in onCases {
                let kind = note.kind
                if counts[kind] == nil { order.append(kind) }
                counts[kind, default: (0, note.caseName ?? "api")].count += 1
            }
            let ranked = order.enumerated().sorted {
                (counts[$0.element]?.count ?? 0, -$0.offset) > (counts[$1.element]?.count ?? 0, -$1.offset)
            }
            for (_, kind) in ranked.prefix(20) {
                let entry = counts[kind] ?? (0, "")
                lines.append("import:   \(entry.count) × \(kind) (e.g. \(entry.example))")
            }
            if ranked.count > 20 { lines.append("import:   … and \(ranked.count - 20) more kinds") }
        }
        if let createdUpload {
            lines.append("import: wrote \(createdUpload): the example upload check uses for file values")
        }
        if !result.credentials.isEmpty {
            let names = result.credentials.map(\.name)
            lines.append(
                "import: credentials come from " + names.map { "$" + $0 }.joined(separator: ", ")
                    + "; a file outside your trusted folders reads them only when you allow it: MOYA_ALLOW_ENV="
                    + names.joined(separator: ":"))
        }
        if let outputPath,
            let next = ImportNextStep.line(
                path: outputPath, apiName: result.apiName, variables: result.credentials.map(\.name))
        {
            lines.append(next)
        }
        StandardStream.error.write(lines.map { DisplayText.escaped($0) + "\n" }.joined())
    }

    /// The error for a spec that could not be imported: its problems as diagnostics with the
    /// spec's lines, each with its JSON pointer.
    static func failure(for error: OpenAPIImportError, specName: String, bytes: [UInt8]) -> CommandFailure {
        switch error {
        case .unreadable(let diagnostics):
            StandardStream.error.write(
                DiagnosticRenderer.render(diagnostics, source: { _ in SourceLines(bytes: bytes) }))
            return CommandFailure(.invalidTargetFile, "\(specName) is not a readable YAML or JSON document")
        case .invalidSpec(let problems):
            let lines = SourceLines(bytes: bytes)
            let shown = problems.prefix(100)
            // A problem in another file of the spec (its pointer starts with that file's path,
            // `schemas/user.yaml#/User`) is shown at its line in that file.
            let folder = specName.lastIndex(of: "/").map { String(specName[...$0]) } ?? ""
            let diagnostics = shown.map { problem -> Diagnostic in
                let hash = problem.pointer.firstIndex(of: "#") ?? problem.pointer.startIndex
                let file = hash == problem.pointer.startIndex ? specName : folder + problem.pointer[..<hash]
                return Diagnostic(
                    .error, file: file, mark: problem.mark, message: problem.message + " (at \(problem.pointer))")
            }
            StandardStream.error.write(
                DiagnosticRenderer.render(
                    diagnostics,
                    source: { file in
                        file == specName
                            ? lines : (try? YAMLLoader.readFile(atPath: file)).map { SourceLines(bytes: $0) }
                    }))
            if problems.count > shown.count {
                StandardStream.error.write("\(specName): … and \(problems.count - shown.count) more problems\n")
            }
            return CommandFailure(
                .invalidTargetFile,
                "\(specName) is not a valid OpenAPI description (\(problems.count) problem\(problems.count == 1 ? "" : "s"))"
            )
        case .nothingSelected(let patterns):
            return CommandFailure(
                .usage, "--only \(patterns.joined(separator: ", ")) matches no operation in \(specName)")
        case .outputTooLarge(let size, let cases):
            let limits = YAMLLimits.default
            return CommandFailure(
                .invalidTargetFile,
                "the target file made from \(specName) would be \(size) bytes with \(cases) cases, "
                    + "over the \(limits.maximumFileSize >> 20) MiB and \(limits.maximumCases) cases a target file may have; "
                    + "nothing was written: import part of it with --only TAG or --only /PATH-GLOB")
        }
    }

    /// The API name an output file's name gives (`-o targets/aws.yaml` → `aws`), when it is one;
    /// `nil` for standard output or a name that is not an API name.
    static func apiName(fromOutput path: String?) -> String? {
        guard let path, path != "-" else { return nil }
        var name = path.split(separator: "/").last.map(String.init) ?? ""
        for suffix in [".yaml", ".yml"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
            return TargetFileValidator.isAPIName(name) ? name : nil
        }
        return nil
    }

    /// Whether `path` (nil: the default, `targets/API.yaml`) names no file yet or a regular file,
    /// following links.
    static func isRegularFileOrAbsent(_ path: String?) -> Bool {
        guard let path else { return true }
        var status = stat()
        guard stat(path, &status) == 0 else { return errno == ENOENT }
        return status.st_mode & S_IFMT == S_IFREG
    }

    /// Writes the example upload beside the target file unless it exists; returns its path when
    /// it was written.
    static func writeExampleUpload(in folder: String) throws -> String? {
        let path = folder + "/" + exampleUploadFile
        var status = stat()
        if lstat(path, &status) == 0 { return nil }
        do throws(FileError) {
            let file = try OutputFile(path: path, overwrite: false, createFolders: true)
            try file.write(Data(exampleUploadText.utf8))
            try file.commit()
        } catch {
            throw CommandFailure(.cannotWriteOutput, "cannot write the example upload \(path): \(error.message)")
        }
        return path
    }
}
