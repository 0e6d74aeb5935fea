import FileIO
import PathResolution
import TargetModel
import TextSafety

#if canImport(Glibc)
import Glibc
#endif

/// The one gate for every file moya-cli writes into a target folder: `import openapi|curl|har|
/// postman`, `request --save-as`/`--save-sample`, `--record` and `generate`. Each writer hands it
/// what it wants written; the gate alone decides
/// - which places may be written (``checkPlace(_:for:)``): never a new file or new cases in a
///   trusted folder, where a file could run commands and read the environment; only the
///   documented exception, a trusted file edited in place by its own user (`--save-as`,
///   `--record`);
/// - which values are secrets (``sensitiveHeaders(of:)``, with `CredentialNames` for names and
///   `SecretSpellings` for every spelling a value can take);
/// - how a sample body is written (`SampleBody`: inline, or a file beside the target file when it
///   is too deep or too large, `SampleBody.fileStem`, ``writeSampleFiles(_:besideFileAt:)``);
/// - the header comment of a file it makes (``headerComment(command:input:)``).
package enum TargetFileGate {
    /// What a writer does to the file at a path.
    package enum Write: Sendable, Equatable {
        /// Makes a new file (an import, `generate`).
        case newFile
        /// Adds cases to an existing file it did not write (`import curl` into an API's file).
        case addCases
        /// Edits a case of the user's own file in place (`--save-as`, `--record`).
        case editInPlace
    }

    /// Refuses `path` for `write` with a usage error (64) when it lies in a trusted target folder
    /// (or the token cache), unless `write` is ``Write/editInPlace``: a file the user trusts may be
    /// edited where it is, since the edit adds only what the user sent or received and the file
    /// keeps its owner; moya-cli never makes a trusted file nor adds another's cases to one.
    package static func checkPlace(_ path: String, for write: Write) throws(TargetFileEditError) {
        guard write != .editInPlace, path != "-" else { return }
        let resolved = CanonicalPath.resolved(path) ?? path
        guard let (folder, reason) = OutputFile.protectedFolder(holding: resolved) else { return }
        throw TargetFileEditError(
            .usage,
            write == .addCases
                ? "not adding cases to \(path): it is in \(folder), \(reason); import into another file (-o FILE), read the cases, and copy those you want into it yourself"
                : "not writing \(path): it would land in \(folder), \(reason)"
        )
    }

    /// The lower-cased names of the headers whose values an API's file never holds in clear: every
    /// request's (`CredentialNames.sensitiveHeaders`), the file's `sensitiveHeaders:`, and the
    /// header each of its API-key schemes sends its key in (`X-Shop-Key`).
    package static func sensitiveHeaders(of api: APISpec) -> Set<String> {
        var names = CredentialNames.sensitiveHeaders.union(api.sensitiveHeaders)
        for auth in [api.auth].compactMap({ $0 }) + api.authSchemes.map(\.auth) {
            if case .apiKey(.header, let name, _) = auth { names.insert(name.lowercased()) }
        }
        return names
    }

    /// Writes the sample files `files` (paths relative to the target file's folder) beside the
    /// target file at `path` for `write`: only inside that folder, through no symbolic link,
    /// atomically (``checkPlace(_:for:)`` first).
    package static func writeSampleFiles(
        _ files: [(path: String, bytes: [UInt8])], besideFileAt path: String, for write: Write = .newFile,
        shown: String? = nil
    ) throws(TargetFileEditError) {
        guard !files.isEmpty else { return }
        try checkPlace(path, for: write)
        let directory = APISpec.folder(of: path)
        // A new target file's folder may not exist yet (`targets/`): made as the file's would be.
        var made = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            made += "/" + component
            if mkdir(made, 0o755) != 0, errno != EEXIST {
                throw TargetFileEditError(
                    .cannotWrite,
                    "cannot make the folder \(made) for the samples of \(path): \(String(cString: strerror(errno)))")
            }
        }
        for file in files {
            try SampleFile.write(file.bytes, at: file.path, besideFileIn: directory, file: shown ?? path)
        }
    }

    /// The header comment of a file a command makes from `input`: its file name only (the
    /// user's folders are nobody's business in a file that may be shared), `standard input`
    /// for `-`.
    package static func headerComment(command: String, input: String, manual: String = "moya-cli-import(1)")
        -> String
    {
        "Made by moya-cli \(command) from \(inputName(input)); see \(manual)."
    }

    /// The name a header or message gives the input `path`: its last component.
    package static func inputName(_ path: String) -> String {
        guard path != "-" else { return "<stdin>" }
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return trimmed.split(separator: "/").last.map(String.init) ?? path
    }
}
