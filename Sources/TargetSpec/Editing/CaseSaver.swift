import TargetModel
import TextSafety

/// What ``CaseSaver/save(_:as:toFileAt:file:)`` wrote.
package struct SavedCase: Sendable {
    /// The 1-based line of the new case's name in the file.
    package var line: Int
    /// The environment variables the case reads its secret headers from: to tell the user.
    package var secrets: [RenderedCase.SecretReference]
    /// Why the sample given was not saved, if it was not.
    package var sampleOmission: String?
    /// The credentials outside headers the case takes as values, given when it is called.
    package var credentialValues: [CredentialValue] = []
}

/// Adds a request as a new case at the end of a target file's `cases` (`request --save-as`):
/// the file is read, must load without errors, gets the case as a text edit that keeps every
/// other byte, is loaded again to check the result, and is replaced atomically — only if no one
/// changed it in between.
///
/// ```swift
/// let saved = try CaseSaver.save(request, as: "createItem", toFileAt: "targets/hb.yaml")
/// for secret in saved.secrets { print("set \(secret.variable) for \(secret.header)") }
/// ```
package enum CaseSaver {
    /// Checks, before a request is sent, that it could be saved as `name`: a valid name the file
    /// at `path` does not have, in a file that can be edited (a block `cases`, a regular file,
    /// not a link, writable). ``save(_:as:toFileAt:file:)`` checks all of it again.
    /// With `credential`, also that the auth scheme the case will read it from can be added.
    package static func checkNewCase(
        named name: String, inFileAt path: String, credential: AuthSchemeEdit.Kind? = nil
    ) throws(TargetFileEditError) {
        try CaseAppender.checkName(name)
        let snapshot = try TargetFileWriter.read(path)
        try TargetFileWriter.checkWritable(snapshot)
        let layout = try CasesLayout.read(snapshot.bytes, file: path)
        if let existing = layout.keys.first(where: { $0.name == name }) {
            throw TargetFileEditError(
                .usage, "case '\(name)' exists in \(path) (line \(existing.line)); pick another name or remove it first"
            )
        }
        if let credential {
            let directory = APISpec.folder(of: path)
            let loaded = TargetFileLoader.load(bytes: snapshot.bytes, file: path, directory: directory)
            if let api = loaded.api, !loaded.hasErrors {
                _ = try AuthSchemeEdit.adding(
                    credential, for: api, to: snapshot.bytes, file: path, directory: directory)
            }
        }
    }

    /// Adds `newCase` as the case `name` to the target file at `path`.
    /// - Parameters:
    ///   - credential: the type of the credential the request sent (`-u`, `--bearer`): the case
    ///     reads it from an auth scheme of that type, added to the API when it has none
    ///     (``AuthSchemeEdit``); `newCase.auth` is then that scheme.
    ///   - file: the file's name in messages and diagnostics (defaults to `path`).
    /// - Throws: ``TargetFileEditError``; its ``TargetFileEditError/Kind/exitStatus`` is the
    ///   status to exit with. Nothing is written when it throws.
    package static func save(
        _ newCase: NewCase, as name: String, toFileAt path: String,
        credential: AuthSchemeEdit.Kind? = nil, file: String? = nil
    ) throws(TargetFileEditError) -> SavedCase {
        let shown = file ?? path
        try CaseAppender.checkName(name)
        let snapshot = try TargetFileWriter.read(path)
        let directory = APISpec.folder(of: path)
        let before = TargetFileLoader.load(bytes: snapshot.bytes, file: shown, directory: directory)
        guard var api = before.api, !before.hasErrors else {
            throw TargetFileEditError(
                .invalidTargetFile, "\(shown) has errors; fix them before adding a case (moya-cli validate \(shown))",
                diagnostics: before.renderedDiagnostics())
        }
        var bytes = snapshot.bytes
        var newCase = newCase
        var schemeVariables: [RenderedCase.SecretReference] = []
        if let credential {
            let edit = try AuthSchemeEdit.adding(credential, for: api, to: bytes, file: shown, directory: directory)
            bytes = edit.bytes
            newCase.auth = .scheme(edit.caseAuth)
            schemeVariables = edit.variables
            api = edit.api
        }
        let rendered = try newCase.render(
            apiName: api.name, sensitiveHeaders: TargetFileGate.sensitiveHeaders(of: api),
            sampleFileStem: SampleBody.fileStem(api: api.name, caseName: name))
        let edited = try CaseAppender.appending(name, members: rendered.members, to: bytes, file: shown)
        try TargetFileWriter.checkWritable(snapshot)
        try TargetFileGate.writeSampleFiles(
            rendered.filesBeside, besideFileAt: path, for: .editInPlace)
        let after = TargetFileLoader.load(bytes: edited.bytes, file: shown, directory: directory)
        guard !after.hasErrors else {
            throw TargetFileEditError(
                .invalidResult,
                "\(shown) with the case '\(DisplayText.escaped(name))' added does not validate; nothing was written (this is a bug in moya-cli: please report it with the request)",
                diagnostics: after.renderedDiagnostics())
        }
        // Every byte before the new case is kept, so every case before it must read the same;
        // this also catches a change of meaning the text edit could not see.
        let cases = after.api?.cases ?? []
        if cases.count != api.cases.count + 1 || zip(api.cases, cases).contains(where: { $0 != $1 }) {
            let changed = zip(api.cases, cases).first { $0 != $1 }?.0.name ?? api.cases.last?.name ?? ""
            throw TargetFileEditError(
                .invalidResult,
                "adding the case to \(shown) would change the case '\(changed)'; nothing was written (a block scalar (| or >) ending a file without a final newline does: end the file with a newline)"
            )
        }
        try TargetFileWriter.replace(snapshot, with: edited.bytes)
        return SavedCase(
            line: edited.line, secrets: schemeVariables + rendered.secrets, sampleOmission: rendered.sampleOmission,
            credentialValues: rendered.credentialValues)
    }
}
