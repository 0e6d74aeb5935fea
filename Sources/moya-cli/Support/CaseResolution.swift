import MoyaKit
import TargetSpec

/// From words on the command line to a `DynamicTarget`, with usage errors (exit 64) that say what is valid.
enum CaseResolution {
    static func caseSpec(named name: String, in api: APISpec) throws -> CaseSpec {
        do {
            return try api.case(named: name)
        } catch {
            throw CommandFailure(.usage, error.description)
        }
    }

    static func bind(_ invocation: CaseInvocation, for spec: CaseSpec, api: APISpec, command: String) throws -> [String: ArgumentValue] {
        let binder = spec.argumentBinder()
        let (arguments, errors) = binder.bindReportingAll(positional: invocation.positional, named: invocation.named)
        guard errors.isEmpty else {
            let usage = "usage: moya-cli \(command) \(api.name) \(spec.name)" + CaseHelp.valuesSynopsis(spec)
            throw CommandFailure(.usage, errors.map(\.description).joined(separator: "\nmoya-cli: error: ") + "\n" + usage)
        }
        return arguments
    }

    static func build(
        _ spec: CaseSpec, api: APISpec, arguments: [String: ArgumentValue], environment: [String: String], request: RequestOptions,
        isStubbed: Bool, sample: String?, output: String?, force: Bool
    ) throws -> DynamicTarget {
        let builder = TargetBuilder(
            api: api, processEnvironment: environment, environmentName: request.environment, baseURLOverride: request.baseURL,
            isStubbed: isStubbed, downloadDestinationOverride: spec.task.isDownload ? output : nil, overwritesDownloads: force)
        do {
            return try builder.target(for: spec, arguments: arguments, sampleName: sample)
        } catch {
            throw CommandFailure(.usage, error.description)
        }
    }
}

extension TaskSpec {
    var isDownload: Bool {
        switch self {
        case .download, .downloadParameters: true
        default: false
        }
    }
}
