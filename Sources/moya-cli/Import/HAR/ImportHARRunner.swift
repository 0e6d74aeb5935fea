import CurlTransport
import RequestImport
import TargetSpec
import TextSafety

/// Runs `moya-cli import har`: reads the capture, makes one target file per origin, validates
/// each and writes them, then says on stderr what was written and left out.
struct ImportHARRunner {
    let command: MoyaCommand.Import.FromHAR

    func run() throws {
        let inputName = command.input == "-" ? "<stdin>" : command.input
        let bytes = try ImportInput.read(
            command.input, name: inputName, limit: HARImporter.maximumInputSize, what: "HAR captures")
        var made: [(api: HARAPI, path: String, text: String, cases: [ImportedCase])] = []
        do throws(RequestImportError) {
            let apis = try HARImporter.read(bytes, apiName: command.apiName, only: command.only)
            if command.output != nil, apis.count > 1 {
                throw RequestImportError(
                    "-o names one file, and the capture has \(apis.count) hosts: choose one with --only HOST")
            }
            for api in apis {
                let file = try api.targetFileText(header: [
                    TargetFileGate.headerComment(command: "import har", input: command.input)
                ])
                made.append((api, command.output ?? "targets/\(api.name).yaml", file.text, file.cases))
            }
        } catch {
            let place = error.place.map { ":\($0)" } ?? ""
            throw CommandFailure(.invalidTargetFile, "\(inputName)\(place): \(error.message)")
        }
        // Every file is checked before any is written, so a refusal leaves none half done.
        for file in made where file.path != "-" {
            try ImportedTargetFile.checkWritable(file.path, replacing: command.force)
        }
        var lines: [String] = []
        for file in made {
            try ImportedTargetFile.write(
                file.text, to: file.path, replacing: command.force, sampleFiles: file.cases.flatMap(\.sampleFiles))
            let place = file.path == "-" ? "standard output" : file.path
            lines.append(
                "import: wrote \(place): API '\(file.api.name)' (\(file.api.origin)), \(file.cases.count) case\(file.cases.count == 1 ? "" : "s")"
                    + (file.api.repeatedCount > 0
                        ? "; \(file.api.repeatedCount) repeated request\(file.api.repeatedCount == 1 ? "" : "s") left out"
                        : ""))
            for (name, request) in file.api.requests {
                for note in request.notes { lines.append("import: \(name): \(note.message)") }
            }
            for imported in file.cases { lines += imported.reportLines }
            if let next = ImportNextStep.line(
                path: file.path, apiName: file.api.name, variables: file.cases.flatMap { $0.secrets.map(\.variable) })
            {
                lines.append(next)
            }
        }
        StandardStream.error.write(lines.map { DisplayText.escaped($0) + "\n" }.joined())
    }
}
