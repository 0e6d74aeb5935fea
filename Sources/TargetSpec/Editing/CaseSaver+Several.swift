import TargetModel
import TextSafety

extension CaseSaver {
    /// Adds several cases to the target file at `path` in one edit (`import curl` into an existing
    /// file), with the same guarantees as ``save(_:as:toFileAt:file:)``: the file must load
    /// without errors, every other byte is kept, the result is loaded again and must keep every
    /// case as it was, and the file is replaced atomically only if no one changed it meanwhile.
    /// - Parameters:
    ///   - makeCases: the cases' names, members and sample files, made for the file's API (its
    ///     name, sensitive headers and base URL decide how they are written).
    /// - Returns: the 1-based line of each new case's name.
    package static func save(
        casesMadeBy makeCases: (APISpec) throws(TargetFileEditError) -> [(
            name: String, members: [YAMLText.Entry], sampleFile: (path: String, bytes: [UInt8])?
        )],
        toFileAt path: String, file: String? = nil
    ) throws(TargetFileEditError) -> [Int] {
        let shown = file ?? path
        let snapshot = try TargetFileWriter.read(path)
        try TargetFileWriter.checkWritable(snapshot)
        let directory = APISpec.folder(of: path)
        let before = TargetFileLoader.load(bytes: snapshot.bytes, file: shown, directory: directory)
        guard let api = before.api, !before.hasErrors else {
            throw TargetFileEditError(
                .invalidTargetFile, "\(shown) has errors; fix them before adding cases (moya-cli validate \(shown))",
                diagnostics: before.renderedDiagnostics())
        }
        let cases = try makeCases(api)
        var bytes = snapshot.bytes
        var lines: [Int] = []
        try TargetFileGate.writeSampleFiles(cases.compactMap(\.sampleFile), besideFileAt: path, for: .addCases)
        for (name, members, _) in cases {
            try CaseAppender.checkName(name)
            let edited = try CaseAppender.appending(name, members: members, to: bytes, file: shown)
            bytes = edited.bytes
            lines.append(edited.line)
        }
        let after = TargetFileLoader.load(bytes: bytes, file: shown, directory: directory)
        guard !after.hasErrors else {
            throw TargetFileEditError(
                .invalidResult,
                "\(shown) with the new cases added does not validate; nothing was written (this is a bug in moya-cli: please report it with the input)",
                diagnostics: after.renderedDiagnostics())
        }
        let loaded = after.api?.cases ?? []
        if loaded.count != api.cases.count + cases.count || zip(api.cases, loaded).contains(where: { $0 != $1 }) {
            let changed = zip(api.cases, loaded).first { $0 != $1 }?.0.name ?? api.cases.last?.name ?? ""
            throw TargetFileEditError(
                .invalidResult,
                "adding the cases to \(shown) would change the case '\(DisplayText.escaped(changed))'; nothing was written (a block scalar (| or >) ending a file without a final newline does: end the file with a newline)"
            )
        }
        try TargetFileWriter.replace(snapshot, with: bytes)
        return lines
    }
}
