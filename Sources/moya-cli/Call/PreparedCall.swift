import MoyaKit
import TargetModel
import TargetSpec

/// A call's case resolved and its first target built: where a plain, paged and captured call
/// start from (see `CallMode`).
struct PreparedCall {
    var resolved: ResolvedCase
    var target: DynamicTarget
    var invocation: CallInvocation
    var environment: [String: String]

    var api: APISpec { resolved.api }
    var spec: CaseSpec { resolved.spec }

    /// `--query`, `--json` and `--data` as a plugin; reading the body (a file, stdin) may fail.
    func override() throws -> RequestOverridePlugin {
        RequestOverridePlugin(
            queryEdits: invocation.overrideOptions.queryEdits,
            body: try invocation.overrideOptions.body(limit: invocation.requestOptions.maxBodySize))
    }

    /// A runner that sends `target` with the call's options.
    func runner(
        for target: DynamicTarget, override: RequestOverridePlugin?, pageURL: String? = nil, rateLimitRetries: Int = 0
    ) -> CallRunner {
        CallRunner(
            target: target, request: invocation.requestOptions, stub: invocation.stubOptions,
            output: invocation.outputOptions,
            noColor: invocation.targetOptions.noColor, environment: environment, override: override, pageURL: pageURL,
            rateLimitRetries: rateLimitRetries)
    }
}
