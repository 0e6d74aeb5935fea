import CCleanup
import MoyaKit
import OrderedJSON
import PathResolution
import TargetAuth
import TargetModel
import TargetSpec
import TextSafety

#if canImport(Glibc)
import Glibc
#endif

/// Runs `moya-cli import swift`: lists the Swift files, has `moya-cli-import-swift` (beside this
/// binary, so that moya-cli never links swift-syntax) read them into target files, then validates
/// and writes each through the importers' one writer (`ImportedTargetFile`, `TargetFileGate`).
struct ImportSwiftRunner {
    let command: MoyaCommand.Import.FromSwift

    /// The helper's name, beside moya-cli (`make install` installs both).
    static let helperName = "moya-cli-import-swift"
    /// The most Swift files read from the folders given.
    static let maximumFiles = 20_000

    func run() throws {
        let files = try Self.swiftFiles(command.inputs)
        let helper = try Self.helperPath()
        var arguments = [helper]
        if let apiName = command.apiName { arguments += ["--api", apiName] }
        if let samples = command.samples { arguments += ["--samples", samples] }
        let inputName = command.inputs.count == 1 ? command.inputs[0] : "\(command.inputs.count) inputs"
        arguments += ["--header", TargetFileGate.headerComment(command: "import swift", input: inputName)]
        arguments += ["--"] + files
        let run = ProgramRun(
            arguments: arguments, timeout: 600, input: nil, outputLimit: 512 << 20,
            isInterrupted: { moya_signals_pending() != 0 })
        let output: [UInt8]
        let exitCode: Int32
        switch run.run() {
        case .cannotStart(let code):
            throw CommandFailure(
                .internalError,
                "cannot start \(helper): \(String(cString: strerror(code)).lowercased()) (reinstall moya-cli with `make install`)"
            )
        case .timedOut:
            throw CommandFailure(.internalError, "\(Self.helperName) took longer than 600 seconds; nothing was written")
        case .interrupted:
            throw CommandFailure(.interrupted, "interrupted; nothing was written")
        case .ended(let code, let signal, let printed):
            if signal != 0 {
                throw CommandFailure(
                    .internalError,
                    "\(Self.helperName) ended by signal \(signal); nothing was written (this is a bug: please report it with the sources)"
                )
            }
            output = printed
            exitCode = code
        }
        guard let reply = try? JSONValue(parsing: output), case .object(let members) = reply else {
            throw CommandFailure(
                .internalError,
                "\(Self.helperName) exited \(exitCode) without an answer moya-cli reads; nothing was written")
        }
        let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
        if case .object(let error)? = fields["error"] {
            let details = Dictionary(error, uniquingKeysWith: { first, _ in first })
            let place = details["place"].flatMap(\.stringValue).map { $0 + ": " } ?? ""
            let message = details["message"].flatMap(\.stringValue) ?? "cannot be imported"
            throw CommandFailure(
                exitCode == 64 ? .usage : exitCode == 66 ? .usage : .invalidTargetFile, place + message)
        }
        guard case .array(let apis)? = fields["apis"] else {
            throw CommandFailure(.internalError, "\(Self.helperName) answered without APIs; nothing was written")
        }
        var made:
            [(
                name: String, type: String, path: String, text: String, cases: Int, samples: [(String, String)],
                variables: [String]
            )] = []
        for api in apis {
            guard case .object(let apiMembers) = api else { continue }
            let field = Dictionary(apiMembers, uniquingKeysWith: { first, _ in first })
            let name = field["name"].flatMap(\.stringValue) ?? "api"
            var samples: [(String, String)] = []
            if case .array(let files)? = field["sampleFiles"] {
                for file in files {
                    guard case .object(let pair) = file else { continue }
                    let entry = Dictionary(pair, uniquingKeysWith: { first, _ in first })
                    if let path = entry["path"].flatMap(\.stringValue),
                        let source = entry["source"].flatMap(\.stringValue)
                    {
                        samples.append((path, source))
                    }
                }
            }
            var variables: [String] = []
            if case .array(let list)? = field["variables"] { variables = list.compactMap(\.stringValue) }
            made.append(
                (
                    name, field["type"].flatMap(\.stringValue) ?? name, command.output ?? "targets/\(name).yaml",
                    field["text"].flatMap(\.stringValue) ?? "",
                    field["cases"].flatMap { if case .int(let count) = $0 { count } else { nil } } ?? 0, samples,
                    variables
                ))
        }
        if command.output != nil, made.count > 1 {
            throw CommandFailure(
                .usage,
                "-o names one file, and the sources have \(made.count) TargetType types (\(made.map(\.type).joined(separator: ", "))): choose one with --api NAME"
            )
        }
        // Every file is checked before any is written, so a refusal leaves none half done.
        for file in made where file.path != "-" {
            try ImportedTargetFile.checkWritable(file.path, replacing: command.force)
        }
        // Files the sources read from the target file's folder (as generate swift writes
        // `Configuration.filesFolder`) must be beside it for it to load.
        for api in apis {
            guard case .object(let apiMembers) = api,
                let name = apiMembers.first(where: { $0.0 == "name" })?.1.stringValue,
                let file = made.first(where: { $0.name == name }),
                case .array(let files)? = apiMembers.first(where: { $0.0 == "files" })?.1
            else { continue }
            let folder = file.path == "-" ? "." : APISpec.folder(of: file.path)
            for needed in files.compactMap(\.stringValue) where access(folder + "/" + needed, F_OK) != 0 {
                throw CommandFailure(
                    .invalidTargetFile,
                    "the sources read \(needed) from the target file's folder (Configuration.filesFolder): put it at \(folder)/\(needed) and import again; nothing was written"
                )
            }
        }
        var lines: [String] = []
        for file in made {
            var sampleFiles: [(path: String, bytes: [UInt8])] = []
            for (path, source) in file.samples {
                // Only what is inside --samples is copied: a symbolic link there leading out of it
                // (a cloned app's `Stubs/Me.json -> ~/.aws/credentials`) would put the user's own
                // file into the target folder, to be committed.
                if let samples = command.samples, !CanonicalPath.isInside(source, samples) {
                    throw CommandFailure(
                        .invalidTargetFile,
                        "the stub \(DisplayText.escaped(source)) leads out of \(DisplayText.escaped(samples)) (a symbolic link to \(DisplayText.escaped(CanonicalPath.of(source)))): not copied; nothing was written"
                    )
                }
                let bytes = try ImportInput.read(source, name: source, limit: 64 << 20, what: "sample files")
                sampleFiles.append((path, bytes))
            }
            try ImportedTargetFile.write(file.text, to: file.path, replacing: command.force, sampleFiles: sampleFiles)
            let place = file.path == "-" ? "standard output" : file.path
            lines.append(
                "import: wrote \(place): API '\(file.name)' from \(file.type), \(file.cases) case\(file.cases == 1 ? "" : "s")"
            )
            let folder = file.path == "-" ? "." : APISpec.folder(of: file.path)
            for (path, source) in file.samples { lines.append("import: wrote \(folder)/\(path) from \(source)") }
            if let next = ImportNextStep.line(path: file.path, apiName: file.name, variables: file.variables) {
                lines.append(next)
            }
        }
        if case .array(let notes)? = fields["notes"] {
            for note in notes {
                guard case .object(let noteMembers) = note else { continue }
                let entry = Dictionary(noteMembers, uniquingKeysWith: { first, _ in first })
                let caseName = entry["case"].flatMap(\.stringValue).map { $0 + ": " } ?? ""
                lines.append(
                    "import: \(entry["place"].flatMap(\.stringValue) ?? "?"): \(caseName)\(entry["message"].flatMap(\.stringValue) ?? "")"
                )
            }
        }
        StandardStream.error.write(lines.map { DisplayText.escaped($0) + "\n" }.joined())
    }

    /// The helper beside the running binary (`$MOYA_IMPORT_SWIFT` is not read: the command line
    /// runs only what was installed with it).
    static func helperPath() throws -> String {
        guard let executable = ProcessEnvironment.executablePath, let slash = executable.lastIndex(of: "/") else {
            throw CommandFailure(.internalError, "cannot find the folder moya-cli runs from, where \(helperName) is")
        }
        let path = String(executable[..<slash]) + "/" + helperName
        guard access(path, X_OK) == 0 else {
            throw CommandFailure(
                .internalError,
                "\(helperName) is not installed beside moya-cli (\(path)): `import swift` needs it; install both with `make install`"
            )
        }
        return path
    }

    /// The files given, and the `.swift` files under the folders given (hidden folders and
    /// `.build` skipped), sorted within each folder.
    static func swiftFiles(_ inputs: [String]) throws -> [String] {
        var files: [String] = []
        func walk(_ folder: String, depth: Int) throws {
            guard depth < 64 else { return }
            guard let directory = opendir(folder) else {
                throw CommandFailure(.usage, "cannot read \(folder): \(String(cString: strerror(errno)).lowercased())")
            }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasPrefix(".") { continue }
                names.append(name)
            }
            closedir(directory)
            for name in names.sorted() {
                let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
                var status = stat()
                guard lstat(path, &status) == 0 else { continue }
                if status.st_mode & S_IFMT == S_IFDIR {
                    try walk(path, depth: depth + 1)
                } else if status.st_mode & S_IFMT == S_IFREG, name.hasSuffix(".swift") {
                    files.append(path)
                    if files.count > maximumFiles {
                        throw CommandFailure(
                            .usage, "more than \(maximumFiles) Swift files under \(folder): name fewer")
                    }
                }
            }
        }
        for input in inputs {
            var status = stat()
            guard stat(input, &status) == 0 else {
                throw CommandFailure(.usage, "cannot read \(input): \(String(cString: strerror(errno)).lowercased())")
            }
            if status.st_mode & S_IFMT == S_IFDIR {
                let before = files.count
                try walk(input, depth: 0)
                if files.count == before {
                    throw CommandFailure(.invalidTargetFile, "\(input): no .swift file in this folder")
                }
            } else if status.st_mode & S_IFMT == S_IFREG {
                files.append(input)
            } else {
                throw CommandFailure(.usage, "cannot read \(input): not a regular file or a folder")
            }
        }
        return files
    }
}
