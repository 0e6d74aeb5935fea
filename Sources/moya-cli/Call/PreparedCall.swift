import MoyaKit
import Sending
import TargetModel
import TargetSpec

/// A call's case resolved and its first target built: where a plain, paged and captured call
/// start from (see `CallMode`).
struct PreparedCall {
    var resolved: ResolvedCase
    var target: DynamicTarget
    var invocation: CallInvocation
    var environment: [String: String]
    /// The call's cookies: every page and retry of it shares them (`nil` with `--no-cookies`).
    var cookies: CookieJars?

    init(resolved: ResolvedCase, target: DynamicTarget, invocation: CallInvocation, environment: [String: String]) {
        self.resolved = resolved
        self.target = target
        self.invocation = invocation
        self.environment = environment
        cookies = CookieJars(
            request: invocation.requestOptions, environment: environment, isStubbed: invocation.stubOptions.stub)
    }

    var api: APISpec { resolved.api }
    var spec: CaseSpec { resolved.spec }

    /// `--query`, `--json` and `--data` as a plugin; reading the body (a file, stdin) may fail.
    func override() throws -> RequestOverridePlugin {
        RequestOverridePlugin(
            queryEdits: invocation.overrideOptions.queryEdits,
            body: try invocation.overrideOptions.body(limit: invocation.requestOptions.maxBodySize))
    }

    /// A runner that sends `target` with the call's options; `override` on a first page only.
    /// `rateLimitRetries`: how often a rate-limited answer is retried even beyond `--retry`
    /// (`--all`'s pages wait as the server asks rather than losing the pages after it).
    func runner(for target: DynamicTarget, override: RequestOverridePlugin?, rateLimitRetries: Int = 0) -> CallRunner {
        let isStubbed = invocation.stubOptions.stub
        var sender = Sender(
            request: invocation.requestOptions, environment: environment, isStubbed: isStubbed, override: override)
        if !isStubbed { sender.retry.rateLimitRetries = rateLimitRetries }
        sender.cookies = cookies
        return CallRunner(
            target: target, sender: sender, stub: invocation.stubOptions, output: invocation.outputOptions,
            noColor: invocation.targetOptions.noColor, environment: environment)
    }
}
