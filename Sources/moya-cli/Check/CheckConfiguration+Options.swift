import MoyaKit
import Sending
import TargetCheck
import TargetSpec

extension CheckConfiguration {
    /// The configuration the command line gives. Requests go through the `Sender` the request
    /// options give `call` too, so a request option means the same thing in every subcommand.
    init(check: CheckOptions, request: RequestOptions, processEnvironment: [String: String], downloadsFolder: String) {
        self.init(
            isLive: check.live, jobs: check.jobs, rate: check.rate?.value, includesUnsafeMethods: check.includeUnsafe,
            isStrict: check.strict,
            sender: Sender(request: request, environment: processEnvironment, isStubbed: !check.live),
            maximumBodySize: request.maxBodySize.bytes,
            downloadsFolder: downloadsFolder)
        followsPages = check.all
        maximumPages = check.maxPages ?? PagingOptions.defaultMaxPages
    }
}
