import CurlTransport
import RequestImport
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

/// Runs `moya-cli import curl`: reads the commands, makes their cases, and writes a new target
/// file (validated first, atomically) or adds them to an existing one as `request --save-as` does.
struct ImportCurlRunner {
    let command: MoyaCommand.Import.FromCurl

    func run() throws {
        let inputName = command.input == "-" ? "<stdin>" : command.input
        let bytes = try ImportInput.read(
            command.input, name: inputName, limit: CurlImporter.maximumInputSize, what: "curl commands")
        let folder = command.input == "-" ? "." : APISpec.folder(of: command.input)
        let options = CurlImportOptions(
            apiName: command.apiName, caseName: command.caseName, only: command.only,
            folder: folder)
        let outputPath =
            try command.output ?? Self.discoveredFile(of: command.apiName) ?? "targets/\(command.apiName).yaml"
        let addsToFile = outputPath != "-" && !command.force && Self.isRegularFile(outputPath)

        let cases: [ImportedCase]
        let read: CurlImport
        if addsToFile {
            (read, cases) = try addCases(bytes, options: options, inputName: inputName, to: outputPath)
        } else {
            let made: (text: String, cases: [ImportedCase])
            do throws(RequestImportError) {
                read = try CurlImporter.read(bytes, options: options)
                made = try read.targetFileText(header: [
                    TargetFileGate.headerComment(command: "import curl", input: command.input)
                ])
            } catch {
                throw Self.failure(error, inputName: inputName)
            }
            cases = made.cases
            try ImportedTargetFile.write(
                made.text, to: outputPath, replacing: command.force, sampleFiles: made.cases.compactMap(\.sampleFile))
        }
        report(read, cases: cases, outputPath: outputPath, added: addsToFile)
    }

    /// Adds the cases to the existing file at `path`; a command sent elsewhere than its base URL
    /// gets its own case `baseURL`.
    private func addCases(_ bytes: [UInt8], options: CurlImportOptions, inputName: String, to path: String) throws
        -> (CurlImport, [ImportedCase])
    {
        var result: (CurlImport, [ImportedCase])?
        do throws(TargetFileEditError) {
            // Cases are never added to a trusted file: they would run with its trust and its auth.
            try TargetFileGate.checkPlace(path, for: .addCases)
            _ = try CaseSaver.save(
                casesMadeBy: { (api) throws(TargetFileEditError) in
                    do throws(RequestImportError) {
                        let read = try CurlImporter.read(bytes, options: options, taken: Set(api.cases.map(\.name)))
                        // A command sent to another origin than the API's base URL becomes a
                        // case with its own baseURL; with a base URL of variables, the first
                        // command's origin stands for the API's.
                        var basePath = ""
                        var apiOrigin: String?
                        if api.baseURL.environmentReferences.isEmpty {
                            let base = try RequestURL(api.baseURL.source)
                            apiOrigin = base.origin
                            basePath = base.path == "/" ? "" : base.path
                        }
                        let cases = try read.cases(
                            apiName: api.name, sensitiveHeaders: TargetFileGate.sensitiveHeaders(of: api),
                            basePath: basePath, apiOrigin: apiOrigin,
                            apiHasAuth: api.auth != nil || !api.authSchemes.isEmpty)
                        result = (read, cases)
                        return cases.map { ($0.name, $0.members, $0.sampleFile) }
                    } catch {
                        throw TargetFileEditError(
                            .invalidTargetFile, Self.failure(error, inputName: inputName).message)
                    }
                }, toFileAt: path)
        } catch {
            throw CommandFailure.reporting(error)
        }
        guard let result else { throw CommandFailure(.internalError, "no cases were made") }
        return result
    }

    /// What was written, the notes, the secrets to set and the files to give, on stderr.
    private func report(_ read: CurlImport, cases: [ImportedCase], outputPath: String, added: Bool) {
        var lines: [String] = []
        let place = outputPath == "-" ? "standard output" : outputPath
        let count = "\(cases.count) case\(cases.count == 1 ? "" : "s")"
        lines.append(
            added
                ? "import: added \(count) to \(place): \(cases.map(\.name).joined(separator: ", "))"
                : "import: wrote \(place): API '\(command.apiName)', \(count): \(cases.map(\.name).joined(separator: ", "))"
        )
        for note in read.notes {
            lines.append("import: \(note.caseName) (\(note.place)): \(note.message)")
        }
        for imported in cases { lines += imported.reportLines }
        if let next = ImportNextStep.line(
            path: outputPath, apiName: command.apiName, variables: cases.flatMap { $0.secrets.map(\.variable) })
        {
            lines.append(next)
        }
        StandardStream.error.write(lines.map { DisplayText.escaped($0) + "\n" }.joined())
    }

    /// The error for commands that cannot be read: `FILE:LINE:COLUMN: message`, exit 65.
    static func failure(_ error: RequestImportError, inputName: String) -> CommandFailure {
        let place = error.place.map { ":\($0)" } ?? ""
        return CommandFailure(.invalidTargetFile, "\(inputName)\(place): \(error.message)")
    }

    /// The file that defines the API `name` where `call` would find it (`./targets`,
    /// `$MOYA_TARGETS_PATH`, …), if any: the cases go there, as `request --save-as` adds one.
    static func discoveredFile(of name: String) throws -> String? {
        do {
            let (_, api) = try CatalogLoader(options: TargetOptions()).api(named: name)
            return api.file.isEmpty ? nil : api.file
        } catch let failure as CommandFailure where failure.status == .usage {
            return nil
        }
    }

    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFDIR
    }
}
