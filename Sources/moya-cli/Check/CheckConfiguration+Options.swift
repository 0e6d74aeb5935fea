import MoyaKit
import TargetCheck
import TargetSpec

extension CheckConfiguration {
    /// The configuration the command line gives. The request options are read through the same
    /// helpers as `call` and `curl` (`SessionConfiguration(request:target:)`,
    /// `CaseResolution.builder`, `RequestPlugins.base`, `RetryPolicy`), so a request option means
    /// the same thing in every subcommand.
    init(check: CheckOptions, request: RequestOptions, processEnvironment: [String: String], downloadsFolder: String) {
        let retryPolicy = RetryPolicy(retriesAllMethods: request.retryAll)
        // A check's report needs its target's redactor: made once for each set of secrets.
        let redactors = CheckRedactors(request: request)
        self.init(
            isLive: check.live, jobs: check.jobs, rate: check.rate?.value, includesUnsafeMethods: check.includeUnsafe,
            isStrict: check.strict,
            maximumRetries: request.retry,
            retryDelay: { retryPolicy.delay(after: $0, attempt: $1, method: $2) },
            sessionConfiguration: { SessionConfiguration(request: request, target: $0) },
            redactor: { redactors.redactor(for: $0) },
            builder: { item, isStubbed, destination in
                CaseResolution.builder(
                    api: item.api, environment: processEnvironment, request: request, isStubbed: isStubbed,
                    downloadDestination: destination, overwritesDownloads: destination != nil)
            },
            plugins: RequestPlugins.base(headerOverrides: request.headerOverrides),
            maximumBodySize: request.maxBodySize.bytes,
            downloadsFolder: downloadsFolder,
            renewingAccessToken: { target throws(AccessTokenError) in
                try AccessTokens.renewing(
                    target, source: AccessTokens.provider(environment: processEnvironment, request: request))
            })
        followsPages = check.all
        maximumPages = check.maxPages ?? PagingOptions.defaultMaxPages
    }
}
