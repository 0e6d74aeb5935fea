import CurlTransport
import RequestImport
import TargetSpec
import TextSafety

/// Runs `moya-cli import postman`: reads the collection (and environment file), makes the target
/// file, validates and writes it, then says on stderr what was written and left out.
struct ImportPostmanRunner {
    let command: MoyaCommand.Import.FromPostman

    func run() throws {
        let inputName = command.input == "-" ? "<stdin>" : command.input
        let bytes = try ImportInput.read(
            command.input, name: inputName, limit: PostmanImporter.maximumInputSize, what: "Postman collections")
        var environment: [UInt8]?
        if let path = command.environment {
            environment = try ImportInput.read(
                path, name: path, limit: PostmanImporter.maximumInputSize, what: "Postman environments")
        }
        let result: PostmanImporter.Result
        do throws(RequestImportError) {
            result = try PostmanImporter.read(
                bytes, environment: environment, apiName: command.apiName,
                header: [TargetFileGate.headerComment(command: "import postman", input: command.input)],
                only: command.only)
        } catch {
            let place = error.place.map { ":\($0)" } ?? ""
            throw CommandFailure(.invalidTargetFile, "\(inputName)\(place): \(error.message)")
        }
        let path = command.output ?? "targets/\(result.apiName).yaml"
        if path != "-" {
            try ImportedTargetFile.checkWritable(path, replacing: command.force)
        }
        try ImportedTargetFile.write(result.text, to: path, replacing: command.force, sampleFiles: result.sampleFiles)
        var lines = [
            "import: wrote \(path == "-" ? "standard output" : path): API '\(result.apiName)', \(result.caseNames.count) case\(result.caseNames.count == 1 ? "" : "s")"
        ]
        lines += result.notes.map { "import: " + $0 }
        if let next = ImportNextStep.line(path: path, apiName: result.apiName, variables: result.secretVariables) {
            lines.append(next)
        }
        StandardStream.error.write(lines.map { DisplayText.escaped($0) + "\n" }.joined())
    }
}
