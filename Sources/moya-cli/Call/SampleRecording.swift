import MoyaKit
import TargetModel
import TargetSpec

/// `--record[=NAME]`: a live response written into the case's target file as its sample (see
/// `SampleRecorder`), said in one line on stderr.
struct SampleRecording {
    var options: RecordOptions

    /// The most of a body kept in memory to record; a larger one is not recorded.
    static let maximumBodyBytes = 32 * 1024 * 1024

    /// Records `response` as the sample of `caseName` in `api`'s file, hiding what `redactor` hides.
    /// `fileRoot`: `--file-root`, which a body's file must be inside.
    func record(
        _ response: Response, api: APISpec, caseName: String, redactor: SecretRedactor, fileRoot: String?
    ) throws {
        let shown = "\(api.name).\(caseName)"
        guard response.hasWholeBody else {
            throw CommandFailure(
                .cannotWriteOutput,
                "cannot record the response of \(shown): its body (\(response.bodyLength) bytes) is larger than \(Self.maximumBodyBytes) bytes; nothing was recorded"
            )
        }
        let sample = RecordedSample(response)
        let policy = RecordedSample.Policy(
            recordsHeaders: options.recordsHeaders, secretValues: redactor.secretValues,
            sensitiveHeaderNames: redactor.sensitiveHeaderNames.union(api.sensitiveHeaders))
        let what = options.sampleName.map { "sample '\($0)'" } ?? "the default sample"
        do throws(TargetFileEditError) {
            let outcome = try SampleRecorder.record(
                [.init(caseName: caseName, sampleName: options.sampleName, sample: sample)], policy: policy,
                toFileAt: api.file, fileRoot: fileRoot)
            if outcome.isUnchanged {
                StandardStream.error.write(
                    "moya-cli: \(what) of \(shown) in \(api.file) already holds this response (HTTP \(response.statusCode)); nothing was written\n"
                )
            } else {
                let body = outcome.bodyFile.map { ", its body in \($0)" } ?? ""
                StandardStream.error.write(
                    "moya-cli: recorded HTTP \(response.statusCode) as \(what) of \(shown) in \(api.file)\(body)\n")
            }
        } catch {
            throw CommandFailure.reporting(error)
        }
    }
}
