import PathResolution
import TargetModel
import TextSafety

/// Writes live responses into a target file as cases' samples (`call --record`, `check --live
/// --record`): each as a text edit at the sample's node that keeps every other byte, in the style
/// the file uses there; the result is loaded again and must validate, and the file is replaced
/// atomically, only if no one changed it since it was read. A body too large or not text goes to
/// a file beside the target file (`samples/API/CASE[.NAME].EXT`, see ``SampleFile``).
///
/// ```swift
/// let response = RecordedSample(status: 200, headers: [.init(name: "Content-Type", value: "application/json")],
///                               body: Array(#"{"login":"moya"}"#.utf8))
/// let results = try SampleRecorder.record([.init(caseName: "userProfile", sample: response)],
///                                         policy: .init(), toFileAt: "targets/github.yaml")
/// ```
package enum SampleRecorder {
    /// One response to record: the case, the sample's name (`nil`: the default sample) and the response.
    package struct Recording: Sendable {
        package var caseName: String
        package var sampleName: String?
        package var sample: RecordedSample

        package init(caseName: String, sampleName: String? = nil, sample: RecordedSample) {
            self.caseName = caseName
            self.sampleName = sampleName
            self.sample = sample
        }
    }

    /// What was recorded.
    package struct Outcome: Sendable, Equatable {
        /// Whether the target file (and the body's file) already held exactly this sample: nothing was written.
        package var isUnchanged: Bool
        /// The body's file, relative to the target file's folder, when the body went to one.
        package var bodyFile: String?
    }

    /// Records `recordings` in the target file at `path`, in one edit and one write.
    /// - Parameters:
    ///   - file: the file's name in messages and diagnostics (defaults to `path`).
    ///   - fileRoot: the folder the files a target file names must be in (`--file-root`), when
    ///     not the target file's own: a body's file outside it is refused.
    /// - Throws: ``TargetFileEditError``; nothing is written to the target file when it throws.
    package static func record(
        _ recordings: [Recording], policy: RecordedSample.Policy, toFileAt path: String, file: String? = nil,
        fileRoot: String? = nil
    ) throws(TargetFileEditError) -> Outcome {
        let shown = file ?? path
        let snapshot = try TargetFileWriter.read(path, purpose: "record a sample in")
        let directory = APISpec.folder(of: path)
        let before = TargetFileLoader.load(bytes: snapshot.bytes, file: shown, directory: directory, fileRoot: fileRoot)
        guard let api = before.api, !before.hasErrors else {
            throw TargetFileEditError(
                .invalidTargetFile,
                "\(shown) has errors; fix them before recording samples (moya-cli validate \(shown))",
                diagnostics: before.renderedDiagnostics())
        }
        var bytes = snapshot.bytes
        var files: [(path: String, bytes: [UInt8])] = []
        for recording in recordings {
            if let name = recording.sampleName { try checkSampleName(name) }
            guard let spec = api.cases.first(where: { $0.name == recording.caseName }) else {
                throw TargetFileEditError(.usage, "\(shown) has no case '\(DisplayText.escaped(recording.caseName))'")
            }
            let stem = SampleBody.fileStem(api: api.name, caseName: spec.name, sampleName: recording.sampleName)
            let rendered = recording.sample.rendered(policy: policy, fileStem: stem)
            let layout = try SampleLayout.read(bytes, caseName: recording.caseName, file: shown)
            bytes = try SampleEdit(bytes: bytes, layout: layout, file: shown)
                .recording(rendered.value, as: recording.sampleName)
            if let body = rendered.file { files.append(body) }
        }
        var unchangedFiles = true
        for body in files where !(try SampleFile.holds(body.bytes, at: body.path, besideFileIn: directory, file: shown))
        {
            unchangedFiles = false
        }
        if bytes == snapshot.bytes, unchangedFiles {
            return Outcome(isUnchanged: true, bodyFile: files.last?.path)
        }
        try TargetFileWriter.checkWritable(snapshot)
        if let fileRoot,
            let outside = files.first(where: { !CanonicalPath.isInside(directory + "/" + $0.path, fileRoot) })
        {
            throw TargetFileEditError(
                .cannotWrite,
                "cannot record the sample of \(DisplayText.escaped(shown)) in \(outside.path): it would be outside the file root \(DisplayText.escaped(fileRoot)) (--file-root), where the file could not read it"
            )
        }
        // A trusted file may be recorded into in place: the gate's one exception.
        try TargetFileGate.writeSampleFiles(files, besideFileAt: path, for: .editInPlace, shown: shown)
        let after = TargetFileLoader.load(bytes: bytes, file: shown, directory: directory, fileRoot: fileRoot)
        let names = { (spec: APISpec?) in spec?.cases.map { [$0.name] + $0.samples.map(\.name) } ?? [] }
        let expected = names(api).indices.map { index -> [String] in
            var row = names(api)[index]
            for recording in recordings where recording.caseName == row[0] {
                let sample = recording.sampleName ?? (row.count > 1 ? row[1] : "default")
                if !row.dropFirst().contains(sample) { row.append(sample) }
            }
            return row
        }
        // Each recorded sample must read back with the status received.
        let statusesKept = recordings.allSatisfy { recording in
            let spec = after.api?.cases.first { $0.name == recording.caseName }
            let sample =
                recording.sampleName.flatMap { name in spec?.samples.first { $0.name == name } }
                ?? spec?.samples.first
            guard case .response(let status, _, _)? = sample?.sample.outcome else { return false }
            return status == recording.sample.status
        }
        guard !after.hasErrors, names(after.api) == expected, statusesKept else {
            throw TargetFileEditError(
                .invalidResult,
                "\(shown) with the recorded sample does not validate; nothing was written to it (this is a bug in moya-cli: please report it with the response)",
                diagnostics: after.renderedDiagnostics())
        }
        try TargetFileWriter.replace(snapshot, with: bytes)
        return Outcome(isUnchanged: false, bodyFile: files.last?.path)
    }

    /// A sample name as moya-targets(5) allows it: letters, digits, `_` and `-`.
    package static func checkSampleName(_ name: String) throws(TargetFileEditError) {
        guard !name.isEmpty,
            name.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            })
        else {
            throw TargetFileEditError(
                .usage,
                "'\(DisplayText.escaped(name))' is not a valid sample name: use letters, digits, '_' and '-'")
        }
    }
}
