import MoyaKit
import TargetSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Prints the result of a call and maps it to the documented exit status.
enum CallOutcome {
    /// `redactor` hides secrets in the final error line, as in the `-v` log.
    static func finish(
        _ result: Result<Response, MoyaError>, writer: ResponseWriter, sink: BodySink?, target: DynamicTarget,
        redactor: SecretRedactor
    ) throws {
        switch result {
        case .success(let response):
            try writer.write(response, sink: sink)
            if target.task.downloadsFile, !writer.output.silent, let destination = downloadPath(target) {
                StandardStream.error.write("moya-cli: saved \(destination)\n")
            }
        case .failure(let error):
            if case .statusCode(let response) = error {
                // The body is still printed; a --keypath that does not fit an error body must not
                // hide the validation failure's exit status.
                do {
                    try writer.write(response, sink: sink)
                } catch let failure as CommandFailure where failure.status != .transportFailure {
                    throw failure
                } catch {}
                throw CommandFailure(
                    ExitStatus.forFailedValidation(statusCode: response.statusCode),
                    "\(target.apiName).\(target.caseName): HTTP \(response.statusCode) failed the case's validation")
            }
            sink?.abandon()
            var failure = failure(for: error)
            failure.message = redactor.redact(failure.message)
            throw failure
        }
    }

    static func failure(for error: MoyaError) -> CommandFailure {
        // The `prepare` program refused (an untrusted file), failed or printed no headers: nothing was sent.
        if case .underlying(let preparation as PrepareHookError, _) = error {
            return CommandFailure(.credentials, preparation.message)
        }
        guard let transport = error.transportError else {
            return CommandFailure(.transportFailure, error.description)
        }
        switch transport.kind {
        case .timedOut: return CommandFailure(.timeout, transport.message)
        case .tooManyRedirects: return CommandFailure(.tooManyRedirects, transport.message)
        case .cancelled: return Interrupt.failureIfSignalled ?? CommandFailure(.interrupted, "interrupted")
        case .destinationExists: return CommandFailure(.usage, transport.message + "; pass --force to replace it")
        case .destinationProtected: return CommandFailure(.usage, transport.message)
        case .cannotWriteOutput, .brokenPipe:
            return CommandFailure(ResponseWriter.status(for: transport), transport.message)
        case .responseTooLarge:
            return CommandFailure(
                .transportFailure,
                transport.message + "; raise --max-body-size, or stream the body to a pipe or --output FILE")
        default: return CommandFailure(.transportFailure, transport.message)
        }
    }

    static func downloadPath(_ target: DynamicTarget) -> String? {
        switch target.task {
        case .downloadDestination(let destination), .downloadParameters(_, _, let destination):
            return destination(URL(fileURLWithPath: "/"), HTTPResponseHead(statusCode: 200)).destinationURL.path
        default:
            return nil
        }
    }
}
