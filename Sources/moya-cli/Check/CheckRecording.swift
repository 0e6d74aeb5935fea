import MoyaKit
import TargetCheck
import TargetModel
import TargetSpec
import TextSafety

/// `check --live --record`: each case's live response written as its sample, one edit and one
/// atomic write per target file (see `SampleRecorder`); a case checked more than once (several
/// examples, chain steps) is recorded from its first check.
struct CheckRecording {
    var options: RecordOptions
    /// `--file-root`, which a body's file must be inside.
    var fileRoot: String?

    func record(items: [CheckItem], results: [CheckResult]) throws {
        var files: [String] = []
        var byFile: [String: [SampleRecorder.Recording]] = [:]
        var policies: [String: RecordedSample.Policy] = [:]
        var seen: Set<String> = []
        for (item, result) in zip(items, results) {
            guard let live = result.liveResponse, live.passedValidation || options.recordsFailures,
                !item.api.file.isEmpty, !item.spec.task.isDownload,
                seen.insert(item.api.file + "\u{0}" + item.spec.name).inserted
            else { continue }
            let file = item.api.file
            if byFile[file] == nil {
                files.append(file)
                policies[file] = RecordedSample.Policy(
                    recordsHeaders: options.recordsHeaders, sensitiveHeaderNames: item.api.sensitiveHeaders)
            }
            byFile[file, default: []].append(
                SampleRecorder.Recording(caseName: item.spec.name, sampleName: options.sampleName, sample: live.sample))
            policies[file]?.secretValues += live.secretValues
            policies[file]?.sensitiveHeaderNames.formUnion(live.sensitiveHeaderNames)
        }
        for file in files {
            let recordings = byFile[file] ?? []
            let cases = recordings.map(\.caseName).joined(separator: ", ")
            do throws(TargetFileEditError) {
                let outcome = try SampleRecorder.record(
                    recordings, policy: policies[file] ?? RecordedSample.Policy(), toFileAt: file,
                    fileRoot: fileRoot)
                let count = "\(recordings.count) sample\(recordings.count == 1 ? "" : "s")"
                StandardStream.error.write(
                    outcome.isUnchanged
                        ? "moya-cli: \(file) already holds the \(count) recorded (\(cases)); nothing was written\n"
                        : "moya-cli: recorded \(count) in \(file) (\(cases))\n")
            } catch {
                throw CommandFailure.reporting(error)
            }
        }
    }
}
