import CurlTransport
import FileIO
import HTTPTypes
import MoyaKit
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `--continue`: a download case's file, or `-o FILE`, fetched into `FILE.part` (`PartialFile`)
/// and resumed from where the last run (or the last attempt of `--retry`) stopped: each request
/// asks for the bytes after those the `.part` holds (`Range: bytes=SIZE-`, `If-Range` with the
/// validator saved beside it). A 206 that starts at SIZE is appended; any other success starts
/// over; a 416 whose `Content-Range` gives SIZE as the whole length means the `.part` was whole.
/// A failure, a signal or a refused answer keeps the `.part` for the next run.
struct ResumedDownload {
    var call: PreparedCall

    func send() throws -> (response: Response, override: RequestOverridePlugin) {
        let invocation = call.invocation
        let output = invocation.outputOptions
        var target = call.target
        let explicitPath = output.output.flatMap { $0 == "-" ? nil : $0 }
        guard let destination = explicitPath ?? CallOutcome.downloadPath(target) else {
            throw CommandFailure(.usage, "--continue resumes a file: give -o FILE, or call a download case")
        }
        if invocation.stubOptions.stub {
            throw CommandFailure(.usage, "--continue resumes a transfer; --stub makes none")
        }
        if invocation.recordOptions.record {
            throw CommandFailure(.usage, "--continue cannot be combined with --record")
        }
        let file: PartialFile
        do {
            file = try PartialFile(destination: destination, overwrite: explicitPath != nil || output.force)
        } catch {
            throw CommandFailure(
                ResponseWriter.status(for: error),
                error.message + (error.kind == .destinationExists ? "; pass --force to download it again" : ""))
        }
        // The body goes to the `.part`, not through the transport's own download file.
        target.task = target.task.withoutDownload
        let override = try call.override()
        var runner = call.runner(for: target, override: override)
        runner.sender.plugins.append(RangeRequestPlugin(file: file))
        let sink = PartialFileSink(file: file)
        guard let result = try runner.run(body: .stream(to: sink, keepingPrefix: 0), sink: sink, showsProgress: true)
        else {
            file.close()
            throw Interrupt.failureIfSignalled ?? CommandFailure(.interrupted, "interrupted")
        }
        let kept = "; \(file.partPath) is kept: run again with --continue to resume"
        switch result {
        case .success(let response):
            try commit(file, note: "saved \(destination)", silent: output.silent)
            return (response, override)
        case .failure(.statusCode(let response)) where response.statusCode == 416 && sink.wasAlreadyWhole:
            try commit(file, note: "\(destination) was already whole; saved it", silent: output.silent)
            return (response, override)
        case .failure(.statusCode(let response)):
            file.close()
            throw CommandFailure(
                ExitStatus.forFailedValidation(statusCode: response.statusCode),
                "\(target.apiName).\(target.caseName): HTTP \(response.statusCode) failed the case's validation"
                    + (file.resumeOffset > 0 ? kept : ""))
        case .failure(let error):
            file.close()
            var failure = CallOutcome.failure(for: error)
            failure.message = runner.redactor.redact(failure.message) + (file.resumeOffset > 0 ? kept : "")
            throw failure
        }
    }

    private func commit(_ file: PartialFile, note: String, silent: Bool) throws {
        do {
            try file.commit()
        } catch {
            throw CommandFailure(ResponseWriter.status(for: error), error.message)
        }
        if !silent { StandardStream.error.write("moya-cli: \(note)\n") }
    }
}

/// Asks for what the `.part` lacks: `Range: bytes=SIZE-` and, when a validator was saved with it,
/// `If-Range`, so a changed resource is sent whole instead of spliced. Read for every attempt, so
/// a retry asks for the rest of what the failed attempt left. No compression is asked for: a
/// range of an encoded body is not a range of the file.
struct RangeRequestPlugin: PluginType {
    let file: PartialFile

    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        var request = request
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        let offset = file.resumeOffset
        guard offset > 0 else { return request }
        request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
        request.setValue(file.validator, forHTTPHeaderField: "If-Range")
        return request
    }
}

/// Writes the body of each answer into the `.part`, as its status says (see `ResumedDownload`).
final class PartialFileSink: ResponseBodyConsumer, AnswerSkipping {
    private struct State {
        var skipsAttempt: (@Sendable (HTTPResponseHead) -> Bool)?
        var wasAlreadyWhole = false
    }

    private let file: PartialFile
    private let state = Mutex(State())

    init(file: PartialFile) {
        self.file = file
    }

    /// Whether the last answer was a 416 saying the `.part` holds the whole resource.
    var wasAlreadyWhole: Bool { state.withLock { $0.wasAlreadyWhole } }

    func skipAnswers(where skips: @escaping @Sendable (HTTPResponseHead) -> Bool) {
        state.withLock { $0.skipsAttempt = skips }
    }

    func begin(_ head: HTTPResponseHead) throws(TransportError) -> Bool {
        let skips = state.withLock { $0.skipsAttempt }
        if skips?(head) == true { return false }
        let offset = file.resumeOffset
        let range = head.headers.joinedValue(for: .contentRange).flatMap(ContentRange.init)
        if head.statusCode == 416 {
            let whole = offset > 0 && range?.completeLength == offset
            state.withLock { $0.wasAlreadyWhole = whole }
            return false
        }
        guard (200...299).contains(head.statusCode) else { return false }
        let validator = Self.validator(of: head)
        do throws(FileError) {
            if head.statusCode == 206 {
                guard let range, range.start == offset else {
                    throw FileError(
                        kind: .cannotWriteOutput,
                        message:
                            "the server answered 206 with Content-Range '\(head.headers.joinedValue(for: .contentRange) ?? "")' to a request for bytes \(offset)- of \(file.destination)"
                    )
                }
                try file.begin(appendingAt: offset, validator: validator)
            } else {
                // A whole body: the resource changed, or the server ignores ranges.
                let encoded = head.headers[.contentEncoding].map { $0.lowercased() != "identity" } ?? false
                try file.begin(appendingAt: nil, validator: encoded ? nil : validator)
            }
        } catch {
            throw TransportError(error)
        }
        return true
    }

    func consume(_ bytes: UnsafeRawBufferPointer) throws(TransportError) {
        try TransportError.converting { () throws(FileError) in try file.write(bytes) }
    }

    /// What a later request's `If-Range` may carry: the strong `ETag`, else `Last-Modified`.
    static func validator(of head: HTTPResponseHead) -> String? {
        if let etag = head.headers[.eTag], let usable = PartialFile.usableValidator(etag) { return usable }
        return head.headers.joinedValue(for: .lastModified).flatMap(PartialFile.usableValidator)
    }
}

/// `Content-Range: bytes START-END/LENGTH` (or `bytes */LENGTH`), as RFC 9110 writes it.
struct ContentRange: Equatable {
    /// The first byte sent; nil for `*`.
    var start: Int64?
    /// The whole resource's length; nil for `*`.
    var completeLength: Int64?

    init?(_ text: String) {
        let value = Substring(text).drop(while: { $0 == " " || $0 == "\t" })
        guard value.lowercased().hasPrefix("bytes ") else { return nil }
        let parts = value.dropFirst("bytes ".count).split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let length = parts[1].prefix { $0 != " " && $0 != "\t" }
        completeLength = length == "*" ? nil : Int64(length)
        if parts[0] == "*" {
            start = nil
        } else {
            let bounds = parts[0].split(separator: "-", maxSplits: 1)
            guard bounds.count == 2, let first = Int64(bounds[0]), Int64(bounds[1]) != nil else { return nil }
            start = first
        }
    }
}

extension MoyaKit.Task {
    /// The request a download task sends, without saving it to its destination.
    var withoutDownload: MoyaKit.Task {
        switch self {
        case .downloadDestination: .requestPlain
        case .downloadParameters(let parameters, let encoding, _):
            .requestParameters(parameters: parameters, encoding: encoding)
        default: self
        }
    }
}
